// SPDX-License-Identifier: MIT
// inflatePng(buffer): the pixels of an 8-bit RGB or RGBA, non-interlaced PNG (what headless chromium
// writes) as { w, h, bpp, px }, with node's zlib only. Used by speedscope_shot.js and html_view.js.
'use strict';
const zlib = require('zlib');

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

module.exports = { inflatePng };
