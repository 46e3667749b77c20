// SPDX-License-Identifier: MIT
// node speedscope_shot.js SPEEDSCOPE_RELEASE_DIR PROFILE OUT.png
// Serves speedscope's release directory (npm `speedscope`, dist/release) and PROFILE on 127.0.0.1,
// opens index.html#profileURL=... in headless chromium (a screenshot of 1200x800 once the page has
// run for 15 s of virtual time), then reads the PNG and prints one line:
//   "pixels W H flame N" where N counts the pixels of the flame chart's area (below the time axis
//   and the minimap, y >= 140) whose colour is not the background's: white, greys and the grid.
// Exit 1 when chromium or the PNG fails. No npm package is needed beyond speedscope (zlib is node's).
'use strict';
const http = require('http'), fs = require('fs'), path = require('path');
const { inflatePng } = require('./png_read.js');

const [root, profile, out] = process.argv.slice(2);
const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css',
	'.json': 'application/json', '.wasm': 'application/wasm', '.png': 'image/png' };

const server = http.createServer((req, res) => {
	const u = decodeURIComponent(req.url.split(/[?#]/)[0]);
	const f = u === '/profile.json' ? profile : path.join(root, path.normalize(u === '/' ? '/index.html' : u));
	fs.readFile(f, (err, d) => {
		if (err) { res.writeHead(404); res.end(); return; }
		res.writeHead(200, { 'Content-Type': types[path.extname(f)] || 'application/octet-stream' });
		res.end(d);
	});
});
server.listen(0, '127.0.0.1', () => {
	const base = `http://127.0.0.1:${server.address().port}`;
	const url = `${base}/index.html#profileURL=${encodeURIComponent(base + '/profile.json')}`;
	// spawnSync would block the server: run chromium asynchronously
	const { spawn } = require('child_process');
	const userDir = fs.mkdtempSync(path.join(process.env.TMPDIR || '/tmp', 'chromium-'));
	const c = spawn('chromium', ['--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars',
		'--no-first-run', `--user-data-dir=${userDir}`, '--window-size=1200,800',
		'--virtual-time-budget=15000', `--screenshot=${out}`, url], { stdio: ['ignore', 'ignore', 'pipe'] });
	let err = '';
	c.stderr.on('data', (d) => { err += d; });
	const timer = setTimeout(() => c.kill('SIGKILL'), 120000);
	c.on('exit', (code) => {
		clearTimeout(timer);
		server.close();
		fs.rmSync(userDir, { recursive: true, force: true });
		let img;
		try {
			img = inflatePng(fs.readFileSync(out));
		} catch (e) {
			console.log(`chromium exit ${code}: ${e.message}\n${err.slice(-2000)}`);
			process.exit(1);
		}
		let n = 0;
		for (let y = 140; y < img.h; y++)
			for (let x = 0; x < img.w; x++) {
				const i = (y * img.w + x) * img.bpp, r = img.px[i], g = img.px[i + 1], b = img.px[i + 2];
				if (Math.max(r, g, b) - Math.min(r, g, b) > 24)	// not white, grey or black
					n++;
			}
		console.log(`pixels ${img.w} ${img.h} flame ${n}`);
		process.exit(0);
	});
});
