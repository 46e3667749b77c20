// SPDX-License-Identifier: MIT
// The viewer's interaction (ltt export --format=html): zoom (wheel, keys), pan (drag, keys), select
// (click), search, and window.lttView for scripts (the tests drive it through Chromium's DevTools
// protocol with real mouse and key events; lttView gives them where things are).
const V = { D: null, t0: 0, t1: 1, scrollY: 0, sel: null, focus: undefined, W: 0, H: 0, dpr: 1, matches: [], match: -1 };
let pending = 0, summaryTimer = 0;

function redraw() {
	if (pending || !V.D) return;
	pending = requestAnimationFrame(() => {
		pending = 0;
		draw(V);
		clearTimeout(summaryTimer);
		summaryTimer = setTimeout(() => showSummary(V), 120);
	});
}

function setView(t0, t1) {
	const D = V.D, minSpan = 20;
	let span = Math.max(minSpan, t1 - t0);
	const max = D.span * 1.05;
	if (span > max) span = max;
	if (t0 < -D.span * 0.025) t0 = -D.span * 0.025;
	if (t0 + span > D.span * 1.025) t0 = D.span * 1.025 - span;
	V.t0 = t0;
	V.t1 = t0 + span;
	redraw();
}

function zoom(factor, px) {
	const plotW = V.W - LABEL_W, at = V.t0 + (Math.max(0, px - LABEL_W) / plotW) * (V.t1 - V.t0);
	setView(at - (at - V.t0) * factor, at + (V.t1 - at) * factor);
}

function pan(dx) {
	const d = dx * (V.t1 - V.t0) / (V.W - LABEL_W);
	setView(V.t0 + d, V.t1 + d);
}

function scrollLanes(dy) {
	const max = Math.max(0, V.D.height - (V.H - AXIS_H) + 20);
	V.scrollY = Math.max(0, Math.min(max, V.scrollY + dy));
	redraw();
}

function select(hit) {
	V.sel = hit && hit.t ? hit : null;
	if (hit) V.focus = hit.t ? hit.t.lane[hit.i] : hit.lane;
	showDetails(V);
	showSummary(V);
	redraw();
}

function resize() {
	const box = document.getElementById('view'), c = V.canvas;
	V.dpr = window.devicePixelRatio || 1;
	V.W = box.clientWidth;
	V.H = box.clientHeight;
	c.width = Math.round(V.W * V.dpr);
	c.height = Math.round(V.H * V.dpr);
	c.style.width = V.W + 'px';
	c.style.height = V.H + 'px';
	redraw();
}

// Shows item i of table t: the lane scrolled into view, the item in the middle of the view.
function reveal(t, i) {
	const D = V.D, L = D.lanes[t.lane[i]], dur = t === D.spans ? t.dur[i] : 0;
	if (dur > 0) {
		const pad = Math.max(dur * 0.5, 20);
		setView(t.start[i] - pad, t.start[i] + dur + pad);
	} else {
		const half = Math.min((V.t1 - V.t0) / 2, 1e6);
		setView(t.start[i] - half, t.start[i] + half);
	}
	if (L.y - V.scrollY < 0 || L.y + L.h - V.scrollY > V.H - AXIS_H) scrollLanes(L.y - V.scrollY - 40);
}

function search(q) {
	const D = V.D, found = document.getElementById('found');
	V.matches = [];
	V.match = -1;
	q = q.trim().toLowerCase();
	if (!q) {
		found.textContent = '';
		return;
	}
	const ids = new Set();
	D.strings.forEach((s, i) => { if (s.toLowerCase().includes(q)) ids.add(i); });
	const s = D.spans, P = D.points;
	for (let i = 0; i < s.n && V.matches.length < 200000; i++)
		if (s.kind[i] <= 3 && ids.has(s.name[i])) V.matches.push([s.start[i], 0, i]);
	for (let i = 0; i < P.n && V.matches.length < 200000; i++)
		if ((P.kind[i] === K_INSTANT || P.kind[i] === K_COUNTER) && ids.has(P.name[i])) V.matches.push([P.start[i], 1, i]);
		else if (P.kind[i] === K_SAMPLE && ids.has(D.nodeFunc[P.name[i]])) V.matches.push([P.start[i], 1, i]);
	V.matches.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
	found.textContent = V.matches.length ? `${V.matches.length} found` : 'not found';
	found.dataset.count = V.matches.length;
}

function nextMatch(back) {
	if (!V.matches.length) return;
	V.match = (V.match + (back ? V.matches.length - 1 : 1)) % V.matches.length;
	const [, table, i] = V.matches[V.match], t = table ? V.D.points : V.D.spans;
	document.getElementById('found').textContent = `${V.match + 1} of ${V.matches.length}`;
	reveal(t, i);
	select({ t, i });
}

function setupInput() {
	const c = V.canvas;
	let drag = null;
	c.addEventListener('wheel', (e) => {
		e.preventDefault();
		if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) pan((e.deltaX || e.deltaY) * 0.5);
		else zoom(Math.pow(1.0015, e.deltaY), e.offsetX);
	}, { passive: false });
	c.addEventListener('mousedown', (e) => {
		drag = { x: e.offsetX, y: e.offsetY, t0: V.t0, t1: V.t1, sy: V.scrollY, moved: false };
		c.classList.add('dragging');
	});
	window.addEventListener('mousemove', (e) => {
		if (!drag) return;
		const r = c.getBoundingClientRect(), dx = e.clientX - r.left - drag.x, dy = e.clientY - r.top - drag.y;
		if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
		if (!drag.moved) return;
		const d = dx * (drag.t1 - drag.t0) / (V.W - LABEL_W);
		V.scrollY = drag.sy;
		setView(drag.t0 - d, drag.t1 - d);
		scrollLanes(-dy);
	});
	window.addEventListener('mouseup', (e) => {
		if (!drag) return;
		const r = c.getBoundingClientRect();
		if (!drag.moved) select(hitTest(V, e.clientX - r.left, e.clientY - r.top));
		drag = null;
		c.classList.remove('dragging');
	});
	c.addEventListener('dblclick', (e) => {
		const hit = hitTest(V, e.offsetX, e.offsetY);
		if (hit && hit.t) reveal(hit.t, hit.i);
	});
	const box = document.getElementById('search');
	box.addEventListener('input', () => search(box.value));
	box.addEventListener('keydown', (e) => {
		if (e.key === 'Enter') { e.preventDefault(); nextMatch(e.shiftKey); }
		if (e.key === 'Escape') box.blur();
	});
	document.getElementById('fit').onclick = () => setView(0, V.D.span);
	document.getElementById('help-btn').onclick = () => { const h = document.getElementById('help'); h.hidden = !h.hidden; };
	window.addEventListener('keydown', (e) => {
		if (e.target === box || e.ctrlKey || e.metaKey || e.altKey) return;
		const k = e.key, mid = LABEL_W + (V.W - LABEL_W) / 2, step = (V.W - LABEL_W) / 8;
		if (k === 'w' || k === 'W' || k === '+' || k === '=') zoom(0.8, mid);
		else if (k === 's' || k === 'S' || k === '-') zoom(1.25, mid);
		else if (k === 'a' || k === 'A' || k === 'ArrowLeft') pan(-step);
		else if (k === 'd' || k === 'D' || k === 'ArrowRight') pan(step);
		else if (k === 'ArrowUp') scrollLanes(-40);
		else if (k === 'ArrowDown') scrollLanes(40);
		else if (k === 'PageUp') scrollLanes(-(V.H - AXIS_H) * 0.9);
		else if (k === 'PageDown') scrollLanes((V.H - AXIS_H) * 0.9);
		else if (k === '0' || k === 'Home') setView(0, V.D.span);
		else if (k === '/') { box.focus(); e.preventDefault(); return; }
		else if (k === 'Enter') nextMatch(e.shiftKey);
		else if (k === 'Escape') select(null);
		else if (k === '?') document.getElementById('help-btn').click();
		else return;
		e.preventDefault();
	});
	window.addEventListener('resize', resize);
}

// For scripts: where the first kept slice named `name` is drawn after revealing it ({x, y} in CSS
// pixels of the page), or null.
function locate(name, kind) {
	const D = V.D, s = D.spans;
	for (let i = 0; i < s.n; i++) {
		if (itemName(D, s, i) !== name || (kind !== undefined && KIND[s.kind[i]] !== kind)) continue;
		reveal(s, i);
		const L = D.lanes[s.lane[i]], p = (V.t1 - V.t0) / (V.W - LABEL_W);
		const x = LABEL_W + (s.start[i] + s.dur[i] / 2 - V.t0) / p;
		const y = AXIS_H - V.scrollY + L.y + PAD + (s.kind[i] === K_STATE ? STATE_H / 2 : L.stateH + s.depth[i] * ROW_H + ROW_H / 2);
		const r = V.canvas.getBoundingClientRect();
		return { x: r.left + x, y: r.top + y };
	}
	return null;
}

// For scripts: where the first kept mark named `name` (an event, a counter, a sample's innermost
// function) is drawn after revealing it, or null.
function locateMark(name) {
	const D = V.D, P = D.points;
	for (let i = 0; i < P.n; i++) {
		if (itemName(D, P, i) !== name) continue;
		reveal(P, i);
		const L = D.lanes[P.lane[i]], p = (V.t1 - V.t0) / (V.W - LABEL_W);
		const r = V.canvas.getBoundingClientRect();
		return { x: r.left + LABEL_W + (P.start[i] - V.t0) / p + 0.5, y: r.top + AXIS_H - V.scrollY + L.y + L.h - PAD - L.pointH / 2 };
	}
	return null;
}

// For scripts: a point on the label of the lane titled `title`, scrolled into view.
function laneAt(title) {
	const D = V.D, li = D.lanes.findIndex((L, i) => laneTitle(D, i) === title);
	if (li < 0) return null;
	const L = D.lanes[li];
	if (L.y - V.scrollY < 0 || L.y + L.h - V.scrollY > V.H - AXIS_H) scrollLanes(L.y - V.scrollY - 40);
	draw(V);
	const r = V.canvas.getBoundingClientRect();
	return { x: r.left + 20, y: r.top + AXIS_H - V.scrollY + L.y + L.h / 2 };
}

// The lanes as a list for assistive technology (and scripts): processes and their lanes.
function laneList(D) {
	const nav = document.getElementById('lanes');
	let h = '';
	for (let p = 0; p < D.procs.length; p++) {
		const P = D.procs[p], end = p + 1 < D.procs.length ? D.procs[p + 1].first : D.lanes.length;
		const title = P.pid >= 0 ? `${P.name} [${P.pid}]` : P.name;
		h += `<li data-proc="${esc(title)}">${esc(title)}<ul>`;
		for (let li = P.first; li < end; li++) h += `<li data-lane="${esc(laneTitle(D, li))}">${esc(laneTitle(D, li))}</li>`;
		h += '</ul></li>';
	}
	nav.innerHTML = '<ul>' + h + '</ul>';
}

async function main() {
	V.canvas = document.getElementById('canvas');
	V.ctx = V.canvas.getContext('2d');
	const status = document.getElementById('status');
	try {
		V.D = await loadData();
	} catch (e) {
		status.textContent = 'This page could not read its trace data: ' + e + ' (a browser with DecompressionStream is needed: Chromium 80, Firefox 113, Safari 16.4 or later)';
		window.lttView = { error: String(e) };
		return;
	}
	const D = V.D;
	status.textContent = '';
	layout(D);
	laneList(D);
	document.getElementById('title').textContent = D.title + (D.ntraces > 1 ? ` and ${D.ntraces - 1} more` : '');
	document.getElementById('info').textContent = `${fmtDur(D.span)}, ${D.events} events, ${D.lanes.length} lanes`;
	if (D.lost) {
		const el = document.getElementById('lost');
		el.textContent = `${D.lost} events lost`;
		el.dataset.value = D.lost;
		el.title = 'red lines mark where: every view of this range may lack them';
	}
	setupInput();
	V.t0 = 0;
	V.t1 = D.span;
	resize();
	setView(0, D.span);
	showSummary(V);
	window.lttView = {
		ready: true, V, D, setView, zoom, pan, locate, locateMark, laneAt, search, nextMatch,
		view: () => ({ t0: V.t0, t1: V.t1 }),
		lanes: () => D.lanes.map((L, i) => laneTitle(D, i)),
		procs: () => D.procs.map((P) => P.name),
	};
}

main();
