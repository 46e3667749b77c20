// SPDX-License-Identifier: MIT
// node speedscope_shot.js SPEEDSCOPE_RELEASE_DIR PROFILE OUT.png
// Serves speedscope's release directory (npm `speedscope`, dist/release) and PROFILE on 127.0.0.1,
// opens index.html#profileURL=... in headless chromium (a screenshot of 1200x800 once the page has
// run for 15 s of virtual time), then reads the PNG and prints one line:
//   "pixels W H flame N" where N counts the pixels of the flame chart's area (below the time axis
//   and the minimap, y >= 140) whose colour is not the background's: white, greys and the grid.
// Exit 1 when chromium or the PNG fails. No npm package is needed beyond speedscope (zlib is node's).
'use strict';
const http = require('http'), fs = require('fs'), path = require('path'), zlib = require('zlib');

const [root, profile, out] = process.argv.slice(2);
const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css',
	'.json': 'application/json', '.wasm': 'application/wasm', '.png': 'image/png' };

function inflatePng(buf) {
	if (buf.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG');
	let off = 8, w = 0, h = 0, depth = 0, ctype = 0;
	const idat = [];
	while (off < buf.length) {
		const len = buf.readUInt32BE(off), type = buf.toString('latin1', off + 4, off + 8);
		const data = buf.subarray(off + 8, off + 8 + len);
		if (type === 'IHDR') {
			w = data.readUInt32BE(0); h = data.readUInt32BE(4); depth = data[8]; ctype = data[9];
			if (data[12] !== 0) throw new Error('interlaced PNG');
		} else if (type === 'IDAT') idat.push(data);
		else if (type === 'IEND') break;
		off += 12 + len;
	}
	const bpp = { 2: 3, 6: 4 }[ctype];
	if (depth !== 8 || !bpp) throw new Error(`PNG colour type ${ctype} depth ${depth}`);
	const raw = zlib.inflateSync(Buffer.concat(idat)), stride = w * bpp;
	const px = Buffer.alloc(h * stride);
	for (let y = 0; y < h; y++) {
		const f = raw[y * (stride + 1)], line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
		for (let x = 0; x < stride; x++) {
			const a = x >= bpp ? px[y * stride + x - bpp] : 0, b = y ? px[(y - 1) * stride + x] : 0;
			const c = x >= bpp && y ? px[(y - 1) * stride + x - bpp] : 0;
			let v = line[x];
			if (f === 1) v += a;
			else if (f === 2) v += b;
			else if (f === 3) v += (a + b) >> 1;
			else if (f === 4) {
				const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
				v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
			}
			px[y * stride + x] = v & 255;
		}
	}
	return { w, h, bpp, px };
}

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
