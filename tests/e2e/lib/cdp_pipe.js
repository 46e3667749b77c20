// SPDX-License-Identifier: MIT
// A small client of Chromium's DevTools protocol over --remote-debugging-pipe (file descriptors 3 and
// 4, NUL-separated JSON messages): no WebSocket and no npm package needed. Used by html_view.js.
//   const b = await launch({ width, height });      Debian's chromium, headless, its own profile
//   const page = await b.page();                     a tab with a flattened session
//   await page.send('Page.navigate', { url });       any command; page.on(event, fn) for events
//   await b.close();
'use strict';
const { spawn } = require('child_process'), fs = require('fs'), path = require('path');

async function launch(opt = {}) {
	const userDir = fs.mkdtempSync(path.join(process.env.TMPDIR || '/tmp', 'chromium-'));
	const args = ['--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars', '--no-first-run',
		'--no-default-browser-check', '--disable-background-networking', '--disable-component-update',
		'--disable-sync', '--disable-extensions', '--disable-quic', '--proxy-server=127.0.0.1:9',
		'--proxy-bypass-list=<-loopback>', `--user-data-dir=${userDir}`, '--remote-debugging-pipe',
		`--window-size=${opt.width || 1400},${opt.height || 900}`, 'about:blank'];
	const c = spawn('chromium', args, { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
	let err = '', buf = Buffer.alloc(0), id = 0;
	const waiting = new Map(), handlers = [];
	c.stderr.on('data', (d) => { err = (err + d).slice(-4000); });
	c.stdio[4].on('data', (d) => {
		buf = Buffer.concat([buf, d]);
		let z;
		while ((z = buf.indexOf(0)) >= 0) {
			const msg = JSON.parse(buf.subarray(0, z).toString('utf8'));
			buf = buf.subarray(z + 1);
			if (msg.id !== undefined && waiting.has(msg.id)) {
				const { resolve, reject, method } = waiting.get(msg.id);
				waiting.delete(msg.id);
				if (msg.error) reject(new Error(`${method}: ${msg.error.message}`));
				else resolve(msg.result);
			} else if (msg.method) {
				for (const h of handlers) h(msg);
			}
		}
	});
	const exited = new Promise((res) => c.on('exit', res));
	c.on('exit', (code) => {
		for (const { reject } of waiting.values()) reject(new Error(`chromium exited (${code}): ${err}`));
		waiting.clear();
	});
	function send(method, params = {}, sessionId) {
		const msg = { id: ++id, method, params };
		if (sessionId) msg.sessionId = sessionId;
		return new Promise((resolve, reject) => {
			waiting.set(msg.id, { resolve, reject, method });
			c.stdio[3].write(JSON.stringify(msg) + '\0');
		});
	}
	return {
		send,
		stderr: () => err,
		async page() {
			const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
			const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
			return {
				send: (m, p) => send(m, p, sessionId),
				on: (method, fn) => handlers.push((msg) => { if (msg.sessionId === sessionId && msg.method === method) fn(msg.params); }),
			};
		},
		async close() {
			try { await Promise.race([send('Browser.close'), new Promise((r) => setTimeout(r, 3000))]); } catch (e) { /* gone */ }
			const t = setTimeout(() => c.kill('SIGKILL'), 5000);
			await exited;
			clearTimeout(t);
			fs.rmSync(userDir, { recursive: true, force: true });
		},
	};
}

module.exports = { launch };
