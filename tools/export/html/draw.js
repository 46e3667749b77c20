// SPDX-License-Identifier: MIT
// The viewer's timeline (ltt export --format=html): lane layout, drawing on one canvas with levels of
// detail, and hit testing. At a zoom where a summary column of the export is at most a pixel wide, the
// lanes draw the summaries (state shares, region coverage per nesting level, event density) and only
// the intervals of two pixels or more one by one; zoomed in further, every kept interval one by one, and
// hatching where the export dropped detail (doc/viewing.md "Levels of detail").
const LABEL_W = 210, AXIS_H = 26, PROC_H = 18, STATE_H = 11, ROW_H = 15, POINT_H = 10, PAD = 3, MAX_ROWS = 48;

function hashHue(s) {
	let h = 2166136261;
	for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
	return (h >>> 0) % 360;
}

const colorCache = new Map();
function sliceColor(D, kind, name) {
	const key = kind + ':' + name;
	let c = colorCache.get(key);
	if (c) return c;
	const h = hashHue(name);
	if (kind === 1) c = `hsl(${h % 55 + 5},80%,${58 + h % 12}%)`;		// calls: a flame
	else if (kind === 2) c = `hsl(${260 + h % 50},45%,${62 + h % 10}%)`;	// spans
	else if (kind === 3) c = '#adb5bd';					// child processes
	else if (kind === 5) c = `hsl(${h},55%,60%)`;				// threads on a CPU
	else c = `hsl(${190 + h % 50},55%,${50 + h % 15}%)`;			// regions
	colorCache.set(key, c);
	return c;
}

// Lane blocks: y from the top of the lane area (below the axis), sub-rows.
function layout(D) {
	const rows = [];
	let y = 0;
	for (let p = 0; p < D.procs.length; p++) {
		const P = D.procs[p], end = p + 1 < D.procs.length ? D.procs[p + 1].first : D.lanes.length;
		rows.push({ proc: p, y, h: PROC_H });
		y += PROC_H;
		for (let li = P.first; li < end; li++) {
			const L = D.lanes[li];
			L.y = y;
			L.stateH = L.states.length || (L.lv[0] && L.lv[0].st) ? STATE_H : 0;
			L.nrows = Math.min(L.maxDepth + 1, MAX_ROWS);
			if (L.nrows < 1 && L.lv[0] && L.lv[0].cov) L.nrows = 1;
			L.pointH = L.hasPoints || (!L.nrows && !L.stateH) ? POINT_H : 0;
			L.h = PAD + L.stateH + L.nrows * ROW_H + L.pointH + PAD;
			if (L.h < 16) L.h = 16;
			rows.push({ lane: li, y, h: L.h });
			y += L.h;
		}
	}
	D.rows = rows;
	D.height = y;
}

function niceStep(span, n) {
	const raw = span / n;
	let p = Math.pow(10, Math.floor(Math.log10(raw)));
	for (const m of [1, 2, 5, 10]) if (m * p >= raw) return m * p;
	return 10 * p;
}

function fmtDur(ns) {
	const a = Math.abs(ns);
	const u = a >= 3600e9 ? [3600e9, 'h'] : a >= 60e9 ? [60e9, 'min'] : a >= 1e9 ? [1e9, 's'] : a >= 1e6 ? [1e6, 'ms'] :
		a >= 1e3 ? [1e3, 'us'] : [1, 'ns'];
	return `${+(ns / u[0]).toPrecision(4)} ${u[1]}`;
}

// t in the unit fmtDur gives it, with the digits that tell apart times `step` apart.
function fmtAt(t, step) {
	const a = Math.abs(t);
	const u = a >= 3600e9 ? [3600e9, 'h'] : a >= 60e9 ? [60e9, 'min'] : a >= 1e9 ? [1e9, 's'] : a >= 1e6 ? [1e6, 'ms'] :
		a >= 1e3 ? [1e3, 'us'] : [1, 'ns'];
	const digits = Math.max(0, Math.min(9, Math.ceil(Math.log10(u[0] / Math.max(1, step)))));
	return `${(t / u[0]).toFixed(digits)} ${u[1]}`;
}

// The summary level to draw at p ns per pixel: the coarsest whose columns are at most a pixel, or -1
// when even the finest columns are wider (zoomed in: items one by one).
function levelFor(L, p) {
	let best = -1;
	for (let lv = 0; lv < L.lv.length; lv++) if (L.lv[lv].width <= p) best = lv;
	return best;
}

function draw(V) {
	const D = V.D, ctx = V.ctx, W = V.W, H = V.H, plotW = W - LABEL_W;
	const p = (V.t1 - V.t0) / plotW, x = (t) => LABEL_W + (t - V.t0) / p;
	ctx.setTransform(V.dpr, 0, 0, V.dpr, 0, 0);
	ctx.fillStyle = '#fff';
	ctx.fillRect(0, 0, W, H);
	ctx.font = '11px system-ui, sans-serif';
	ctx.textBaseline = 'middle';
	const top = AXIS_H - V.scrollY;
	ctx.save();
	ctx.beginPath();
	ctx.rect(0, AXIS_H, W, H - AXIS_H);
	ctx.clip();
	for (const r of D.rows) {
		const y = top + r.y;
		if (y + r.h < AXIS_H || y > H) continue;
		if (r.proc !== undefined) {
			const P = D.procs[r.proc];
			ctx.fillStyle = '#e9ecef';
			ctx.fillRect(0, y, W, r.h);
			ctx.fillStyle = '#222';
			ctx.font = 'bold 11px system-ui, sans-serif';
			ctx.fillText(P.pid >= 0 ? `${P.name} [${P.pid}]` : P.name, 4, y + r.h / 2);
			ctx.font = '11px system-ui, sans-serif';
			continue;
		}
		drawLane(V, D.lanes[r.lane], y, p, x);
	}
	// losses: a red line through every lane, a mark on the axis
	ctx.fillStyle = 'rgba(221,0,0,0.75)';
	for (const [t] of D.losses.list) {
		if (t < V.t0 || t > V.t1) continue;
		ctx.fillRect(Math.floor(x(t)), AXIS_H, 1, H - AXIS_H);
	}
	ctx.restore();
	drawAxis(V, p, x);
}

function drawAxis(V, p, x) {
	const D = V.D, ctx = V.ctx, W = V.W, span = V.t1 - V.t0, step = niceStep(span, (W - LABEL_W) / 110);
	ctx.fillStyle = '#f6f7f9';
	ctx.fillRect(0, 0, W, AXIS_H);
	ctx.fillStyle = '#444';
	ctx.fillText(`${fmtDur(span)} shown`, 4, AXIS_H / 2);
	for (let t = Math.ceil(V.t0 / step) * step; t <= V.t1; t += step) {
		const xx = Math.round(x(t));
		ctx.fillStyle = '#bbb';
		ctx.fillRect(xx, AXIS_H - 6, 1, 6);
		ctx.fillStyle = '#444';
		ctx.fillText('+' + fmtAt(t, step), xx + 2, AXIS_H / 2 - 2);
	}
	ctx.fillStyle = '#d00';
	for (const [t, n] of D.losses.list) {
		if (t < V.t0 || t > V.t1) continue;
		const xx = x(t);
		ctx.beginPath();
		ctx.moveTo(xx - 4, AXIS_H - 8);
		ctx.lineTo(xx + 4, AXIS_H - 8);
		ctx.lineTo(xx, AXIS_H);
		ctx.fill();
	}
	ctx.fillStyle = '#ccc';
	ctx.fillRect(0, AXIS_H - 1, W, 1);
}

function drawLane(V, L, y, p, x) {
	const D = V.D, ctx = V.ctx, W = V.W;
	ctx.fillStyle = '#f1f3f5';
	ctx.fillRect(0, y + L.h - 1, W, 1);
	ctx.fillStyle = L.kind === 'thread' ? '#222' : '#666';
	const label = laneTitle(D, L.index);
	ctx.fillText(label.length > 32 ? label.slice(0, 31) + '…' : label, 10, y + 9);
	ctx.save();
	ctx.beginPath();
	ctx.rect(LABEL_W, y, W - LABEL_W, L.h);
	ctx.clip();
	const lv = levelFor(L, p);
	let yy = y + PAD;
	if (L.stateH) {
		if (lv >= 0 && L.lv[lv].st) drawStateSummary(V, L.lv[lv], yy, p, x);
		else drawStates(V, L, yy, p, x);
		yy += L.stateH;
	}
	if (L.nrows) {
		if (lv >= 0 && L.lv[lv].cov) drawCoverage(V, L, L.lv[lv], yy, p, x);
		drawSlices(V, L, yy, p, x, lv >= 0 ? p * 2 : 0);
		yy += L.nrows * ROW_H;
	}
	if (L.pointH) {
		if (lv >= 0 && L.lv[lv].count) drawDensity(V, L.lv[lv], yy, p, x);
		else drawPoints(V, L, yy, p, x);
	}
	if (lv < 0 && L.lv[0] && L.lv[0].drop) drawDropped(V, L, y, p, x);
	ctx.restore();
}

// Columns [c0, c1) of a summary level inside the view.
function colRange(V, e) {
	const c0 = Math.max(0, Math.floor(V.t0 / e.width)), c1 = Math.min(e.nb, Math.ceil(V.t1 / e.width) + 1);
	return [c0, c1];
}

function drawStateSummary(V, e, y, p, x) {
	const ctx = V.ctx, [c0, c1] = colRange(V, e), h = STATE_H - 2;
	for (let c = c0; c < c1; c++) {
		let used = 0;
		const x0 = x(c * e.width), w = Math.max(1, e.width / p);
		for (let k = 0; k < 7; k++) {
			const v = e.st[c * 7 + k];
			if (!v) continue;
			const hh = Math.max(1, Math.round(v / 255 * h));
			ctx.fillStyle = CAT_COLOR[k];
			ctx.fillRect(x0, y + h - used - hh, w, hh);
			used += hh;
		}
	}
}

function stateFirst(D, L, t) {
	const s = D.spans, idx = L.states;
	let lo = 0, hi = idx.length;
	while (lo < hi) {
		const mid = (lo + hi) >>> 1;
		if (s.start[idx[mid]] + s.dur[idx[mid]] < t) lo = mid + 1; else hi = mid;
	}
	return lo;
}

function drawStates(V, L, y, p, x) {
	const D = V.D, ctx = V.ctx, s = D.spans, idx = L.states;
	let lastX = -1;
	for (let k = stateFirst(D, L, V.t0); k < idx.length; k++) {
		const i = idx[k];
		if (s.start[i] > V.t1) break;
		const x0 = x(s.start[i]), x1 = x(s.start[i] + s.dur[i]);
		if (x1 < lastX + 0.5 && x1 - x0 < 0.5) continue;
		ctx.fillStyle = CAT_COLOR[STATE_CAT[s.name[i]]];
		ctx.fillRect(x0, y, Math.max(1, x1 - x0), STATE_H - 2);
		lastX = x1;
		if (V.sel && V.sel.t === s && V.sel.i === i) outline(ctx, x0, y, x1 - x0, STATE_H - 2);
	}
}

function drawCoverage(V, L, e, y, p, x) {
	const ctx = V.ctx, [c0, c1] = colRange(V, e), depths = V.D.lod.depths;
	for (let c = c0; c < c1; c++) {
		const x0 = x(c * e.width), w = Math.max(1, e.width / p);
		for (let d = 0; d < depths && d < L.nrows; d++) {
			const v = e.cov[c * depths + d];
			if (!v) continue;
			ctx.fillStyle = `rgba(70,110,170,${0.25 + 0.6 * v / 255})`;
			ctx.fillRect(x0, y + d * ROW_H + 1, w, ROW_H - 2);
		}
	}
}

// Visits the kept intervals of lane L overlapping [a, b] with a duration of minDur or more.
function eachSlice(D, L, a, b, minDur, fn) {
	const s = D.spans;
	for (let c = NCLASS - 1; c >= 0; c--) {
		const lo = L.classOff[c], hi = L.classOff[c + 1];
		if (lo === hi) continue;
		if (Math.pow(2, c + 1) <= minDur) break;
		const maxDur = Math.pow(2, c + 1);
		let k = lo, kh = hi;	// first of the class with start >= a - maxDur
		while (k < kh) {
			const mid = (k + kh) >>> 1;
			if (s.start[L.byClass[mid]] < a - maxDur) k = mid + 1; else kh = mid;
		}
		for (; k < hi; k++) {
			const i = L.byClass[k];
			if (s.start[i] > b) break;
			if (s.start[i] + s.dur[i] < a || s.dur[i] < minDur) continue;
			if (fn(i) === false) return;
		}
	}
}

function outline(ctx, x0, y, w, h) {
	ctx.strokeStyle = '#000';
	ctx.lineWidth = 2;
	ctx.strokeRect(x0 + 0.5, y + 0.5, Math.max(2, w) - 1, h - 1);
}

function drawSlices(V, L, y, p, x, minDur) {
	const D = V.D, ctx = V.ctx, s = D.spans;
	const last = new Float64Array(L.nrows).fill(-1);
	let sel = null;
	eachSlice(D, L, V.t0, V.t1, minDur, (i) => {
		const d = s.depth[i];
		if (d >= L.nrows) return;
		const x0 = Math.max(LABEL_W - 2, x(s.start[i])), x1 = Math.min(V.W + 2, x(s.start[i] + s.dur[i]));
		const w = x1 - x0, ry = y + d * ROW_H;
		if (w < 1 && x0 < last[d] + 1) return;	// a pixel already drawn
		last[d] = x0 + Math.max(1, w);
		const name = itemName(D, s, i);
		ctx.fillStyle = sliceColor(D, s.kind[i], s.kind[i] === K_ONCPU ? String(s.args[i]) : name);
		ctx.fillRect(x0, ry + 1, Math.max(1, w), ROW_H - 2);
		if (w > 24) {
			ctx.fillStyle = '#111';
			const maxc = Math.floor((w - 4) / 6);
			ctx.fillText(name.length > maxc ? name.slice(0, Math.max(1, maxc - 1)) + '…' : name, x0 + 2, ry + ROW_H / 2);
		}
		if (V.sel && V.sel.t === s && V.sel.i === i) sel = [x0, ry + 1, w, ROW_H - 2];
	});
	if (sel) outline(ctx, ...sel);
}

function drawDensity(V, e, y, p, x) {
	const ctx = V.ctx, [c0, c1] = colRange(V, e);
	let max = 1;
	for (let c = c0; c < c1; c++) if (e.count[c] > max) max = e.count[c];
	ctx.fillStyle = '#868e96';
	for (let c = c0; c < c1; c++) {
		const n = e.count[c];
		if (!n) continue;
		const h = 1 + Math.round((POINT_H - 3) * Math.log1p(n) / Math.log1p(max));
		ctx.fillRect(x(c * e.width), y + POINT_H - 1 - h, Math.max(1, e.width / p), h);
	}
}

function drawPoints(V, L, y, p, x) {
	const D = V.D, ctx = V.ctx, t = D.points, lo = t.lo[L.index], hi = t.lo[L.index + 1];
	let lastX = -10;
	for (let i = lowerBound(t.start, lo, hi, V.t0); i < hi && t.start[i] <= V.t1; i++) {
		const xx = Math.floor(x(t.start[i]));
		const selected = V.sel && V.sel.t === t && V.sel.i === i;
		if (xx === lastX && !selected) continue;
		lastX = xx;
		const k = t.kind[i];
		ctx.fillStyle = selected ? '#000' : k === K_SAMPLE ? '#e8590c' : k === K_COUNTER ? '#0c8599' : '#495057';
		ctx.fillRect(xx, y + 1, selected ? 3 : 1, POINT_H - 3);
	}
}

function drawDropped(V, L, y, p, x) {
	const ctx = V.ctx, e = L.lv[0], [c0, c1] = colRange(V, e);
	ctx.strokeStyle = 'rgba(120,120,120,0.45)';
	ctx.lineWidth = 1;
	for (let c = c0; c < c1; c++) {
		if (!e.drop[c]) continue;
		const x0 = x(c * e.width), x1 = x((c + 1) * e.width);
		ctx.beginPath();
		for (let xx = x0 - L.h; xx < x1; xx += 6) {
			ctx.moveTo(Math.max(x0, xx), y + Math.max(0, x0 - xx));
			ctx.lineTo(Math.min(x1, xx + L.h), y + Math.min(L.h, x1 - xx));
		}
		ctx.stroke();
	}
}

// What is at canvas point (px, py): { t: table, i } or { lane } or null.
function hitTest(V, px, py) {
	const D = V.D;
	if (py < AXIS_H) return null;
	const ly = py - AXIS_H + V.scrollY, p = (V.t1 - V.t0) / (V.W - LABEL_W), t = V.t0 + (px - LABEL_W) * p, tol = 3 * p;
	const r = D.rows.find((r) => ly >= r.y && ly < r.y + r.h);
	if (!r || r.lane === undefined) return null;
	if (px < LABEL_W) return { lane: r.lane };	// the label: the lane itself
	const L = D.lanes[r.lane], s = D.spans;
	let yy = ly - r.y - PAD;
	if (yy < L.stateH) {
		const k = stateFirst(D, L, t - tol);
		let best = null, bd = Infinity;
		for (let j = k; j < L.states.length && s.start[L.states[j]] <= t + tol; j++) {
			const i = L.states[j], d = t < s.start[i] ? s.start[i] - t : t > s.start[i] + s.dur[i] ? t - s.start[i] - s.dur[i] : 0;
			if (d < bd) { bd = d; best = i; }
		}
		return best !== null ? { t: s, i: best } : { lane: r.lane };
	}
	yy -= L.stateH;
	if (yy < L.nrows * ROW_H) {
		const depth = Math.floor(yy / ROW_H);
		let best = null, bd = Infinity;
		eachSlice(D, L, t - tol, t + tol, 0, (i) => {
			if (s.depth[i] !== depth) return;
			const d = t < s.start[i] ? s.start[i] - t : t > s.start[i] + s.dur[i] ? t - s.start[i] - s.dur[i] : 0;
			if (d < bd || (d === bd && best !== null && s.dur[i] < s.dur[best])) { bd = d; best = i; }
		});
		return best !== null ? { t: s, i: best } : { lane: r.lane };
	}
	const P = D.points, lo = P.lo[r.lane], hi = P.lo[r.lane + 1];
	let best = null, bd = Infinity;
	for (let i = lowerBound(P.start, lo, hi, t - tol); i < hi && P.start[i] <= t + tol; i++) {
		const d = Math.abs(P.start[i] - t);
		if (d < bd) { bd = d; best = i; }
	}
	return best !== null ? { t: P, i: best } : { lane: r.lane };
}
