// SPDX-License-Identifier: MIT
// The viewer's data (ltt export --format=html): inflates the page's ltt-data element (gzip in base64,
// tools/export/html_write.h gives the layout), decodes the columns and builds the indexes drawing
// and searching use. Kinds and states are the exporter's numbers (tools/export/html_model.h).
const KIND = ['region', 'call', 'span', 'child', 'state', 'on CPU', 'event', 'sample', 'counter'];
const K_STATE = 4, K_ONCPU = 5, K_INSTANT = 6, K_SAMPLE = 7, K_COUNTER = 8;
const STATES = ['user', 'syscall', 'trap', 'irq', 'softirq', 'runnable', 'sleeping', 'blocked', 'other', 'not recorded'];
const STATE_CAT = [0, 0, 0, 1, 1, 2, 3, 4, 5, 6];
const CATS = ['on CPU', 'interrupt', 'runnable', 'sleeping', 'blocked', 'other', 'not recorded'];
const CAT_COLOR = ['#2b8a3e', '#9c36b5', '#339af0', '#ced4da', '#f76707', '#495057', '#fff3bf'];
const NCLASS = 50;	// duration classes: floor(log2(dur + 1))

function b64bytes(s) {
	if (Uint8Array.fromBase64) return Uint8Array.fromBase64(s);
	const bin = atob(s), out = new Uint8Array(bin.length);
	for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
	return out;
}

// Unsigned LEB128 varints of col [offset, length] into a Float64Array (exact up to 2^53).
function varints(buf, col, n) {
	const out = new Float64Array(n);
	let p = col[0];
	const end = col[0] + col[1];
	for (let i = 0; i < n && p < end; i++) {
		let v = 0, mul = 1, b;
		do {
			b = buf[p++];
			v += (b & 127) * mul;
			mul *= 128;
		} while (b & 128);
		out[i] = v;
	}
	return out;
}

function durClass(d) {
	const c = d < 1 ? 0 : Math.floor(Math.log2(d + 1));
	return c >= NCLASS ? NCLASS - 1 : c;
}

// Items of one table (spans or points) sorted by (lane, start): columns, and per lane its range.
function items(buf, t, nlanes, spans) {
	const n = t.n, it = { n };
	const lane = varints(buf, t.lane, n), start = varints(buf, t.start, n);
	it.lane = new Uint32Array(n);
	it.start = start;
	let l = 0, prev = 0;
	for (let i = 0; i < n; i++) {
		const nl = l + lane[i];
		if (nl !== l) prev = 0;
		l = nl;
		it.lane[i] = l;
		start[i] += prev;
		prev = start[i];
	}
	it.dur = spans ? varints(buf, t.dur, n) : new Float64Array(n);
	it.depth = spans ? Uint32Array.from(varints(buf, t.depth, n)) : new Uint32Array(n);
	it.kind = Uint8Array.from(varints(buf, t.kind, n));
	it.name = Uint32Array.from(varints(buf, t.name, n));
	it.args = Uint32Array.from(varints(buf, t.args, n));
	it.lo = new Uint32Array(nlanes + 1);
	for (let i = 0, k = 0; k <= nlanes; k++) {
		while (i < n && it.lane[i] < k) i++;
		it.lo[k] = i;
	}
	return it;
}

// Per lane: the interval indexes by duration class (each sorted by start), states apart.
function laneIndex(D, li) {
	const s = D.spans, lo = s.lo[li], hi = s.lo[li + 1], L = D.lanes[li];
	const cnt = new Uint32Array(NCLASS + 1), states = [];
	let maxDepth = -1, slices = 0;
	for (let i = lo; i < hi; i++) {
		if (s.kind[i] === K_STATE) { states.push(i); continue; }
		cnt[durClass(s.dur[i]) + 1]++;
		slices++;
		if (s.depth[i] > maxDepth) maxDepth = s.depth[i];
	}
	for (let c = 1; c <= NCLASS; c++) cnt[c] += cnt[c - 1];
	const byClass = new Uint32Array(slices), fill = cnt.slice();
	for (let i = lo; i < hi; i++)
		if (s.kind[i] !== K_STATE) byClass[fill[durClass(s.dur[i])]++] = i;
	L.classOff = cnt;
	L.byClass = byClass;
	L.states = Uint32Array.from(states);
	L.maxDepth = maxDepth;
	L.hasPoints = D.points.lo[li + 1] > D.points.lo[li];
}

// The summary levels of a lane: finest first, each `factor` times coarser.
function summaries(D, buf, L) {
	const lod = D.lod, sum = L.sum || {};
	L.lv = [];
	let off = 0, roff = 0;	// roff: columns of the levels before (rows are regrouped per column)
	const counts = sum.count ? varints(buf, sum.count, lod.bucketsTotal) : null;
	const drops = sum.drop ? varints(buf, sum.drop, lod.bucketsTotal) : null;
	for (let lv = 0, nb = lod.buckets; lv < lod.levels; lv++, nb /= lod.factor) {
		const e = { nb, width: D.span / nb };
		if (counts) e.count = counts.subarray(off, off + nb);
		if (drops) e.drop = drops.subarray(off, off + nb);
		if (L.stBytes) e.st = L.stBytes.subarray(roff * 7, (roff + nb) * 7);
		if (L.covBytes) e.cov = L.covBytes.subarray(roff * lod.depths, (roff + nb) * lod.depths);
		off += nb;
		roff += nb;
		L.lv.push(e);
	}
}

async function loadData() {
	const el = document.getElementById('ltt-data');
	const packed = b64bytes(el.textContent.trim());
	el.textContent = '';
	const stream = new Blob([packed]).stream().pipeThrough(new DecompressionStream('gzip'));
	const buf = new Uint8Array(await new Response(stream).arrayBuffer());
	const n = buf.length;
	const jlen = buf[n - 4] | buf[n - 3] << 8 | buf[n - 2] << 16 | (buf[n - 1] << 24) >>> 0;
	const D = JSON.parse(new TextDecoder().decode(buf.subarray(n - 4 - jlen, n - 4)));
	D.bytes = packed.length;
	D.strings = new TextDecoder().decode(buf.subarray(D.strings.bytes[0], D.strings.bytes[0] + D.strings.bytes[1])).split('\0');
	D.lod.bucketsTotal = 0;
	for (let lv = 0, nb = D.lod.buckets; lv < D.lod.levels; lv++, nb /= D.lod.factor) D.lod.bucketsTotal += nb;
	D.spans = items(buf, D.spans, D.lanes.length, true);
	D.points = items(buf, D.points, D.lanes.length, false);
	D.nodeParent = Uint32Array.from(varints(buf, D.nodes.parent, D.nodes.n));
	D.nodeFunc = Uint32Array.from(varints(buf, D.nodes.func, D.nodes.n));
	D.t0n = BigInt(D.t0);
	// st and cov are raw bytes: level-major, then row, then column; regroup per column for drawing
	for (let li = 0; li < D.lanes.length; li++) {
		const L = D.lanes[li];
		L.index = li;
		laneIndex(D, li);
		regroup(D, buf, L);
		summaries(D, buf, L);
	}
	return D;
}

// The exporter writes each level's rows one after the other ([row][column]); drawing wants
// [column][row]: rebuilt here into one array per lane.
function regroup(D, buf, L) {
	const lod = D.lod, sum = L.sum;
	if (!sum) return;
	for (const [key, rows] of [['st', 7], ['cov', lod.depths]]) {
		if (!sum[key]) continue;
		const src = buf.subarray(sum[key][0], sum[key][0] + sum[key][1]), out = new Uint8Array(src.length);
		let off = 0;
		for (let lv = 0, nb = lod.buckets; lv < lod.levels; lv++, nb /= lod.factor) {
			for (let r = 0; r < rows; r++)
				for (let c = 0; c < nb; c++) out[off + c * rows + r] = src[off + r * nb + c];
			off += nb * rows;
		}
		L[key + 'Bytes'] = out;
	}
}

function str(D, i) { return D.strings[i] !== undefined ? D.strings[i] : ''; }

// The stack of a sample's node, outermost first.
function stackOf(D, node) {
	const out = [];
	for (let k = node, guard = 0; k && guard < 1000; k = D.nodeParent[k], guard++) out.push(str(D, D.nodeFunc[k]));
	return out.reverse();
}

// The name of an item as the viewer shows it.
function itemName(D, t, i) {
	const kind = t.kind[i];
	if (kind === K_STATE) return STATES[t.name[i]] + (t.args[i] ? ' in ' + str(D, t.args[i]) : '');
	if (kind === K_ONCPU) return laneTitle(D, t.args[i]);
	if (kind === K_SAMPLE) {
		const s = stackOf(D, t.name[i]);
		return s.length ? s[s.length - 1] : 'sample';
	}
	return str(D, t.name[i]);
}

function laneTitle(D, li) {
	const L = D.lanes[li];
	if (!L) return '?';
	return L.kind === 'thread' ? `${L.name} (${L.tid})` : L.name;
}

// Index of the first i in [lo, hi) with arr[i] >= v (arr sorted).
function lowerBound(arr, lo, hi, v) {
	while (lo < hi) {
		const mid = (lo + hi) >>> 1;
		if (arr[mid] < v) lo = mid + 1; else hi = mid;
	}
	return lo;
}
