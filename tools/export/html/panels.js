// SPDX-License-Identifier: MIT
// The viewer's side panels (ltt export --format=html): the details of the selected slice, state or
// mark, and the summary of the visible range per thread (time by state, top regions, top functions,
// top sampled functions), with the losses inside the range.
function esc(s) {
	return String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
}

// Absolute time of relative ns t, as UTC with nanoseconds.
function absTime(D, t) {
	const ns = D.t0n + BigInt(Math.round(t)), s = ns / 1000000000n, frac = (ns % 1000000000n).toString().padStart(9, '0');
	return new Date(Number(s) * 1000).toISOString().slice(0, 19).replace('T', ' ') + '.' + frac + ' UTC';
}

function row(k, v, key, raw) {
	return `<dt>${esc(k)}</dt><dd${key ? ` data-key="${key}"` : ''}${raw !== undefined ? ` data-value="${esc(raw)}"` : ''}>${v}</dd>`;
}

// The thread's state at time t on lane li: a state item index, or -1.
function stateAt(D, li, t) {
	const L = D.lanes[li], s = D.spans;
	const k = stateFirst(D, L, t);
	if (k < L.states.length) {
		const i = L.states[k];
		if (s.start[i] <= t && t <= s.start[i] + s.dur[i]) return i;
	}
	return -1;
}

function procOf(D, li) {
	const P = D.procs[D.lanes[li].proc];
	return P.pid >= 0 ? `${P.name} [${P.pid}]` : P.name;
}

function showDetails(V) {
	const D = V.D, el = document.getElementById('details-body'), sel = V.sel;
	if (!sel) {
		el.innerHTML = 'Click a slice, a state or a mark.';
		return;
	}
	const t = sel.t, i = sel.i, kind = t.kind[i], li = t.lane[i], spans = t === D.spans;
	let h = '<dl>';
	h += row('name', esc(itemName(D, t, i)), 'name', itemName(D, t, i));
	h += row('kind', KIND[kind], 'kind', KIND[kind]);
	h += row(D.lanes[li].kind === 'cpu' ? 'CPU' : 'thread', esc(laneTitle(D, li)), 'lane', laneTitle(D, li));
	h += row('process', esc(procOf(D, li)), 'process', procOf(D, li));
	h += row('start', `+${fmtDur(t.start[i])} <span class="note">(${t.start[i]} ns)</span><br>${absTime(D, t.start[i])}`, 'start_ns', t.start[i]);
	if (spans) {
		h += row('duration', `${fmtDur(t.dur[i])} <span class="note">(${t.dur[i]} ns)</span>`, 'dur_ns', t.dur[i]);
		if (kind !== K_STATE && kind !== K_ONCPU) h += row('depth', t.depth[i], 'depth', t.depth[i]);
	}
	if (kind === K_ONCPU) h += row('thread', esc(laneTitle(D, t.args[i])), 'oncpu', laneTitle(D, t.args[i]));
	if (kind === K_STATE && t.args[i]) h += row('system call', esc(str(D, t.args[i])), 'syscall', str(D, t.args[i]));
	if (kind === K_COUNTER) h += row('value', esc(str(D, t.args[i])), 'value', str(D, t.args[i]));
	if (kind !== K_STATE && kind !== K_ONCPU && D.lanes[li].kind === 'thread') {
		const si = stateAt(D, li, t.start[i]);
		const st = si >= 0 ? STATES[D.spans.name[si]] : D.states ? 'not known (no kernel state kept here)' : 'not recorded (no kernel events)';
		h += row('thread state', esc(st), 'state', st);
	}
	if (kind !== K_STATE && kind !== K_ONCPU && kind !== K_COUNTER && kind !== K_SAMPLE && t.args[i]) {
		try {
			const f = JSON.parse(str(D, t.args[i]));
			for (const k of Object.keys(f)) h += row(k, esc(f[k]), 'field-' + k, f[k]);
		} catch (e) {
			h += row('fields', esc(str(D, t.args[i])));
		}
	}
	h += '</dl>';
	if (kind === K_SAMPLE) {
		const st = stackOf(D, t.name[i]);
		h += `<div>stack (innermost last):</div><div class="stack" data-key="stack">${esc(st.join('\n'))}</div>`;
	}
	el.innerHTML = h;
}

function clip(a, b, V) {
	return Math.max(0, Math.min(b, V.t1) - Math.max(a, V.t0));
}

// Time by state category of lane L inside the view, from the kept intervals; approx: the export
// dropped intervals of the lane inside the range (their time is then missing).
function stateTotals(V, L) {
	const D = V.D, s = D.spans, cat = new Float64Array(7);
	for (let k = stateFirst(D, L, V.t0); k < L.states.length; k++) {
		const i = L.states[k];
		if (s.start[i] > V.t1) break;
		cat[STATE_CAT[s.name[i]]] += clip(s.start[i], s.start[i] + s.dur[i], V);
	}
	return cat;
}

function droppedIn(V, L) {
	const e = L.lv[0];
	if (!e || !e.drop) return 0;
	let n = 0;
	for (let c = Math.max(0, Math.floor(V.t0 / e.width)); c < e.nb && c * e.width <= V.t1; c++) n += e.drop[c];
	return n;
}

function topTable(title, m, unit, key) {
	const all = [...m.entries()].sort((a, b) => b[1][0] - a[1][0] || (a[0] < b[0] ? -1 : 1)), list = all.slice(0, 12);
	if (!list.length) return '';
	const total = all.reduce((n, e) => n + e[1][1], 0);
	let h = `<div><b>${title}</b> <span class="note">(${total} in all)</span></div><table data-key="${key}" data-total="${total}"><tr><th>name</th><th class="n">${unit}</th><th class="n">count</th></tr>`;
	for (const [name, [v, n]] of list)
		h += `<tr data-name="${esc(name)}" data-value="${v}" data-count="${n}"><td>${esc(name)}</td><td class="n">${unit === 'time' ? fmtDur(v) : v}</td><td class="n">${n}</td></tr>`;
	return h + '</table>';
}

function showSummary(V) {
	const D = V.D, el = document.getElementById('summary-body');
	const rel = (t) => (t < 0 ? '−' : '+') + fmtAt(Math.abs(t), (V.t1 - V.t0) / 100);
	let h = `<div data-key="range" data-t0="${V.t0}" data-t1="${V.t1}">${rel(V.t0)} to ${rel(V.t1)} (${fmtDur(V.t1 - V.t0)})</div>`;
	let lost = 0, nl = 0;
	for (const [t, n] of D.losses.list) if (t >= V.t0 && t <= V.t1) { lost += n; nl++; }
	if (lost) h += `<div class="warn" data-key="lost" data-value="${lost}">${lost} events lost in this range (${nl} loss records): what is shown here may lack them</div>`;
	// time by state, per thread with states
	const withStates = D.lanes.filter((L) => L.kind === 'thread' && L.states.length);
	if (withStates.length) {
		const rows = withStates.map((L) => [L, stateTotals(V, L)]).sort((a, b) => b[1][0] - a[1][0]).slice(0, 40);
		h += '<div><b>Time by state</b></div><table data-key="states"><tr><th>thread</th>';
		for (let k = 0; k < 5; k++) h += `<th class="n" title="${CATS[k]}"><span class="sw" style="background:${CAT_COLOR[k]}"></span>${['CPU', 'irq', 'run', 'sleep', 'block'][k]}</th>`;
		h += '</tr>';
		for (const [L, cat] of rows) {
			const d = droppedIn(V, L);
			h += `<tr data-lane="${esc(laneTitle(D, L.index))}"${d ? ' class="warn"' : ''}><td>${d ? '≈ ' : ''}${esc(laneTitle(D, L.index))}</td>`;
			for (let k = 0; k < 5; k++) h += `<td class="n" data-cat="${CATS[k]}" data-ns="${cat[k]}">${cat[k] ? fmtDur(cat[k]) : ''}</td>`;
			h += '</tr>';
		}
		h += '</table>';
	}
	// the focus thread: the selection's, else the first thread with slices
	let li = V.sel ? V.sel.t.lane[V.sel.i] : V.focus;
	if (li === undefined || li < 0 || D.lanes[li].kind === 'cpu') li = D.lanes.findIndex((L) => L.kind === 'thread' && L.byClass.length);
	if (li < 0) li = D.lanes.findIndex((L) => L.kind === 'thread' && L.hasPoints);
	if (li >= 0) {
		const L = D.lanes[li], s = D.spans, regions = new Map(), funcs = new Map(), sampled = new Map();
		eachSlice(D, L, V.t0, V.t1, 0, (i) => {
			const k = s.kind[i];
			if (k === K_ONCPU) return;
			const m = k === 1 ? funcs : regions, name = itemName(D, s, i), e = m.get(name) || [0, 0];
			e[0] += clip(s.start[i], s.start[i] + s.dur[i], V);
			e[1]++;
			m.set(name, e);
		});
		const P = D.points;
		for (let i = lowerBound(P.start, P.lo[li], P.lo[li + 1], V.t0); i < P.lo[li + 1] && P.start[i] <= V.t1; i++) {
			if (P.kind[i] !== K_SAMPLE) continue;
			const name = itemName(D, P, i), e = sampled.get(name) || [0, 0];
			e[0]++;
			e[1]++;
			sampled.set(name, e);
		}
		h += `<div data-key="focus" data-value="${esc(laneTitle(D, li))}"><b>${esc(laneTitle(D, li))}</b> <span class="note">${esc(procOf(D, li))}</span></div>`;
		h += topTable('Top regions and spans', regions, 'time', 'regions');
		h += topTable('Top functions (calls)', funcs, 'time', 'functions');
		h += topTable('Top sampled functions', sampled, 'samples', 'sampled');
		const d = droppedIn(V, L);
		if (d) h += `<div class="warn">${d} intervals or marks shorter than the export kept are not counted here (doc/viewing.md)</div>`;
	}
	const kept = [];
	if (D.lod.spans_dropped)
		kept.push(`${D.lod.spans_total - D.lod.spans_dropped} of ${D.lod.spans_total} intervals (the longest; those dropped last at most ${fmtDur(D.lod.dropped_max_ns)})`);
	if (D.lod.points_dropped)
		kept.push(`${D.lod.points_total - D.lod.points_dropped} of ${D.lod.points_total} marks (a uniform sample)`);
	if (kept.length)
		h += `<div class="note" data-key="kept">The export kept ${kept.join(' and ')}; the shading and density count them all (doc/viewing.md "Levels of detail").</div>`;
	el.innerHTML = h;
}
