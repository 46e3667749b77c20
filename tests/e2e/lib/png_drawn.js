// SPDX-License-Identifier: MIT
// node png_drawn.js PNG X0 Y0 X1 Y1: prints "pixels W H drawn N", N the pixels of the box [X0,X1) x
// [Y0,Y1) whose colour is not a grey (max - min of R, G, B above 24: white, greys, text and the grid
// are not drawn lanes), as html_view.js counts chromium's screenshot. Used for Firefox's screenshot.
'use strict';
const fs = require('fs');
const { inflatePng } = require('./png_read.js');

const [file, x0, y0, x1, y1] = process.argv.slice(2);
const img = inflatePng(fs.readFileSync(file));
let n = 0;
for (let y = +y0; y < Math.min(img.h, +y1); y++)
	for (let x = +x0; x < Math.min(img.w, +x1); x++) {
		const i = (y * img.w + x) * img.bpp, r = img.px[i], g = img.px[i + 1], b = img.px[i + 2];
		if (Math.max(r, g, b) - Math.min(r, g, b) > 24) n++;
	}
console.log(`pixels ${img.w} ${img.h} drawn ${n}`);
