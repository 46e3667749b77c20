// SPDX-License-Identifier: MIT
// node html_view.js PAGE.html OUT.png ACTION...
// Opens a page of `ltt export --format=html` from the disk in headless chromium (DevTools protocol over
// a pipe, cdp_pipe.js) with the network emulated offline and a dead proxy, waits for the viewer, and
// runs the ACTIONs with real input events (mouse, wheel, keys), printing one line per fact for the
// shell test (tests/e2e/export_html.sh) to compare:
//   shot          screenshot to OUT.png: "pixels W H drawn N" (N: coloured pixels in the lane area)
//   names         "proc NAME" and "lane NAME" lines from the page's lane list
//   wheel         wheel up at the middle of the plot: "zoom SPAN_BEFORE SPAN_AFTER fixed|moved"
//                 (fixed: the time under the pointer did not move)
//   click:NAME    reveals the slice NAME (lttView.locate gives where it is drawn), clicks it
//   mark:NAME     reveals the mark NAME (an event, a sample's innermost function), clicks it
//   search:TEXT   types TEXT in the search box and presses Enter
//   key:K         presses key K: "view T0 T1"
//   drag:DX       drags the plot by DX pixels: "drag fixed|moved" (fixed: the time grabbed is under
//                 the pointer where it was released), "view T0 T1"
//   focus:LANE    clicks the empty part of lane LANE (its summary follows)
//   details       "detail KEY VALUE" for each fact of the details panel
//   summary       "state LANE CATEGORY NS", "top TABLE NAME VALUE COUNT" (12 at most), "total TABLE
//                 COUNT" (regions, functions, sampled), "lost N", "focus LANE"
//   view:T0:T1    shows [T0, T1] (ns from the start)
//   eval:EXPR     prints "eval JSON" of EXPR evaluated in the page (for debugging)
//   lod           "lod total N dropped N dropped_max_ns N kept N kept_min_ns N": what the export kept
// It prints "ready MS" (from the navigation to the viewer ready) first, and at the end "requests N": requests for anything but the page itself (file:, data:, blob:).
// Exit 1 when chromium, the page or an action fails.
'use strict';
const fs = require('fs'), path = require('path');
const { launch } = require('./cdp_pipe.js');
const { inflatePng } = require('./png_read.js');

const [page, out, ...actions] = process.argv.slice(2);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function main() {
	const b = await launch({ width: 1400, height: 900 });
	const timer = setTimeout(() => { console.log('timeout: ' + b.stderr().slice(-1000)); process.exit(1); }, 90000);
	let requests = 0;
	try {
		const p = await b.page();
		p.on('Network.requestWillBeSent', (e) => {
			if (!/^(file|data|blob):/.test(e.request.url)) { requests++; console.log('request ' + e.request.url); }
		});
		await p.send('Network.enable');
		await p.send('Network.emulateNetworkConditions', { offline: true, latency: 0, downloadThroughput: 0, uploadThroughput: 0 });
		await p.send('Emulation.setDeviceMetricsOverride', { width: 1400, height: 900, deviceScaleFactor: 1, mobile: false });
		await p.send('Page.enable');
		await p.send('Runtime.enable');
		p.on('Runtime.exceptionThrown', (e) => console.log('exception ' + JSON.stringify(e.exceptionDetails).slice(0, 500)));
		await p.send('Page.navigate', { url: 'file://' + path.resolve(page) });
		const ev = async (expr) => {
			const r = await p.send('Runtime.evaluate', { expression: expr, returnByValue: true, awaitPromise: true });
			if (r.exceptionDetails) throw new Error(expr + ': ' + JSON.stringify(r.exceptionDetails).slice(0, 400));
			return r.result.value;
		};
		let ready = null;
		const tload = Date.now();
		for (let i = 0; i < 600 && !ready; i++) {
			ready = await ev('window.lttView ? (window.lttView.error || (window.lttView.ready && "ready")) : null');
			if (!ready) await sleep(50);
		}
		if (ready !== 'ready') throw new Error('the viewer is not ready: ' + ready);
		console.log(`ready ${Date.now() - tload} ms`);
		const settle = async () => { await ev('new Promise((r) => requestAnimationFrame(() => setTimeout(r, 200)))'); };
		const mouse = (type, x, y, extra = {}) => p.send('Input.dispatchMouseEvent', { type, x, y, button: 'left', clickCount: 1, ...extra });
		const key = async (k) => {
			const code = k.length === 1 ? 'Key' + k.toUpperCase() : k;
			const vk = k === 'Enter' ? 13 : k === 'Escape' ? 27 : k.length === 1 ? k.toUpperCase().charCodeAt(0) : 0;
			await p.send('Input.dispatchKeyEvent', { type: 'keyDown', key: k, code, windowsVirtualKeyCode: vk, text: k.length === 1 ? k : k === 'Enter' ? '\r' : undefined });
			await p.send('Input.dispatchKeyEvent', { type: 'keyUp', key: k, code, windowsVirtualKeyCode: vk });
		};
		const view = async () => { const v = await ev('lttView.view()'); console.log(`view ${v.t0} ${v.t1}`); };
		await settle();
		for (const a of actions) {
			const [cmd, arg] = [a.split(':')[0], a.slice(a.indexOf(':') + 1)];
			if (cmd === 'shot') {
				const r = await p.send('Page.captureScreenshot', { format: 'png' });
				fs.writeFileSync(out, Buffer.from(r.data, 'base64'));
				const img = inflatePng(fs.readFileSync(out)), box = await ev('(() => { const r = document.getElementById("canvas").getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })()');
				let n = 0;
				for (let y = Math.ceil(box[1]) + 30; y < Math.min(img.h, box[3]); y++)
					for (let x = Math.ceil(box[0]) + 215; x < Math.min(img.w, box[2]); x++) {
						const i = (y * img.w + x) * img.bpp, r = img.px[i], g = img.px[i + 1], bl = img.px[i + 2];
						if (Math.max(r, g, bl) - Math.min(r, g, bl) > 24) n++;
					}
				console.log(`pixels ${img.w} ${img.h} drawn ${n}`);
			} else if (cmd === 'names') {
				for (const s of await ev('[...document.querySelectorAll("#lanes [data-proc]")].map((e) => e.dataset.proc)')) console.log('proc ' + s);
				for (const s of await ev('[...document.querySelectorAll("#lanes [data-lane]")].map((e) => e.dataset.lane)')) console.log('lane ' + s);
			} else if (cmd === 'wheel') {
				const box = await ev('(() => { const r = document.getElementById("canvas").getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()');
				const x = Math.round(box[0] + 210 + (box[2] - 210) / 2), y = Math.round(box[1] + 60);
				const at = `((v) => v.t0 + (${x - box[0]} - 210) / (lttView.V.W - 210) * (v.t1 - v.t0))(lttView.view())`;
				const before = await ev('lttView.view()'), tb = await ev(at);
				await mouse('mouseWheel', x, y, { deltaX: 0, deltaY: -600, button: 'none' });
				await settle();
				const after = await ev('lttView.view()'), ta = await ev(at);
				console.log(`zoom ${Math.round(before.t1 - before.t0)} ${Math.round(after.t1 - after.t0)} ${Math.abs(ta - tb) <= 1 ? 'fixed' : 'moved'}`);
			} else if (cmd === 'click' || cmd === 'mark') {
				const loc = await ev(`lttView.${cmd === 'click' ? 'locate' : 'locateMark'}(${JSON.stringify(arg)})`);
				if (!loc) throw new Error('no slice named ' + arg);
				await settle();
				await mouse('mouseMoved', loc.x, loc.y, { button: 'none' });
				await mouse('mousePressed', loc.x, loc.y);
				await mouse('mouseReleased', loc.x, loc.y);
				await settle();
			} else if (cmd === 'focus') {
				const loc = await ev(`lttView.laneAt(${JSON.stringify(arg)})`);
				if (!loc) throw new Error('no lane named ' + arg);
				await mouse('mousePressed', loc.x, loc.y);
				await mouse('mouseReleased', loc.x, loc.y);
				await settle();
			} else if (cmd === 'search') {
				await ev('document.getElementById("search").focus()');
				await p.send('Input.insertText', { text: arg });
				await key('Enter');
				await settle();
				console.log('found ' + await ev('document.getElementById("found").textContent'));
			} else if (cmd === 'key') {
				await ev('document.activeElement && document.activeElement.blur()');
				await key(arg);
				await settle();
				await view();
			} else if (cmd === 'drag') {
				const box = await ev('(() => { const r = document.getElementById("canvas").getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()');
				const x = Math.round(box[0] + 210 + (box[2] - 210) / 2), y = Math.round(box[1] + box[3] - 20), dx = Number(arg);
				const at = (px) => `((v) => v.t0 + (${px - box[0]} - 210) / (lttView.V.W - 210) * (v.t1 - v.t0))(lttView.view())`;
				const tb = await ev(at(x));
				await mouse('mousePressed', x, y);
				for (let k = 1; k <= 4; k++) await mouse('mouseMoved', x + dx * k / 4, y);
				await mouse('mouseReleased', x + dx, y);
				await settle();
				const ta = await ev(at(x + dx));
				console.log(`drag ${Math.abs(ta - tb) <= 1 ? 'fixed' : 'moved'}`);
				await view();
			} else if (cmd === 'details') {
				for (const [k, v] of await ev('[...document.querySelectorAll("#details-body [data-key]")].map((e) => [e.dataset.key, e.dataset.value !== undefined ? e.dataset.value : e.textContent])'))
					console.log(`detail ${k} ${v}`);
			} else if (cmd === 'summary') {
				await ev('new Promise((r) => setTimeout(r, 300))');
				const s = await ev(`(() => {
					const out = [], q = (sel) => [...document.querySelectorAll('#summary-body ' + sel)];
					for (const tr of q('table[data-key=states] tr[data-lane]'))
						for (const td of tr.querySelectorAll('td[data-cat]')) out.push('state ' + tr.dataset.lane + ' ' + td.dataset.cat + ' ' + td.dataset.ns);
					for (const t of q('table[data-key]:not([data-key=states])')) {
						for (const tr of t.querySelectorAll('tr[data-name]')) out.push('top ' + t.dataset.key + ' ' + tr.dataset.name + ' ' + tr.dataset.value + ' ' + tr.dataset.count);
						out.push('total ' + t.dataset.key + ' ' + t.dataset.total);
					}
					for (const e of q('[data-key=lost]')) out.push('lost ' + e.dataset.value);
					for (const e of q('[data-key=focus]')) out.push('focus ' + e.dataset.value);
					return out; })()`);
				for (const l of s) console.log(l);
			} else if (cmd === 'view') {	// view:T0:T1 (for pictures)
				const [t0, t1] = arg.split(':').map(Number);
				await ev(`lttView.setView(${t0}, ${t1})`);
				await settle();
			} else if (cmd === 'eval') {	// eval:EXPR (for debugging): "eval JSON"
				console.log('eval ' + JSON.stringify(await ev(arg)));
			} else if (cmd === 'lod') {
				const l = await ev(`(() => { const D = lttView.D, s = D.spans; let min = Infinity, n = 0;
					for (let i = 0; i < s.n; i++) if (s.kind[i] <= 3) { n++; if (s.dur[i] < min) min = s.dur[i]; }
					return [D.lod.spans_total, D.lod.spans_dropped, D.lod.dropped_max_ns, n, min]; })()`);
				console.log(`lod total ${l[0]} dropped ${l[1]} dropped_max_ns ${l[2]} kept ${l[3]} kept_min_ns ${l[4]}`);
			} else {
				throw new Error('unknown action ' + a);
			}
		}
		console.log('requests ' + requests);
	} catch (e) {
		console.log('failed: ' + e.message + '\n' + b.stderr().slice(-1500));
		clearTimeout(timer);
		await b.close();
		process.exit(1);
	}
	clearTimeout(timer);
	await b.close();
}

main();
