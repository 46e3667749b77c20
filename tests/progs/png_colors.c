/* SPDX-License-Identifier: MIT */
/* png_colors FILE.png [RRGGBB]: prints "WIDTHxHEIGHT COLOURS", the number of distinct RGB pixel values
 * of an 8-bit RGB or RGBA PNG (what chromium --screenshot writes), and with RRGGBB the number of pixels
 * of that colour; for tests/e2e/export_svg.sh: a picture of one colour is blank. zlib inflates the
 * image data; the five PNG row filters are undone here. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	unsigned char *file = NULL, *idat = NULL, *raw;
	size_t flen = 0, ilen = 0, pos = 8, cap = 0;
	uint32_t w = 0, h = 0, bpp = 3, stride, *px, ncol = 0;
	uLongf rawlen;
	FILE *f;

	uint32_t want = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 16) : 0, nwant = 0;

	if (argc < 2 || argc > 3 || !(f = fopen(argv[1], "rb"))) {
		fprintf(stderr, "usage: png_colors FILE.png [RRGGBB]\n");
		return 2;
	}
	for (;;) {
		if (flen == cap && !(file = realloc(file, cap = cap ? cap * 2 : 65536)))
			return 1;
		size_t n = fread(file + flen, 1, cap - flen, f);
		if (!n)
			break;
		flen += n;
	}
	fclose(f);
	if (flen < 33 || memcmp(file, "\x89PNG\r\n\x1a\n", 8)) {
		fprintf(stderr, "png_colors: %s: not a PNG\n", argv[1]);
		return 1;
	}
	while (pos + 12 <= flen) {
		uint32_t len = be32(file + pos);
		const unsigned char *type = file + pos + 4, *data = file + pos + 8;

		if (pos + 12 + len > flen)
			break;
		if (!memcmp(type, "IHDR", 4)) {
			w = be32(data);
			h = be32(data + 4);
			if (data[8] != 8 || (data[9] != 2 && data[9] != 6) || data[12]) {
				fprintf(stderr, "png_colors: only 8-bit RGB/RGBA, not interlaced\n");
				return 1;
			}
			bpp = data[9] == 6 ? 4 : 3;
		} else if (!memcmp(type, "IDAT", 4)) {
			if (!(idat = realloc(idat, ilen + len)))
				return 1;
			memcpy(idat + ilen, data, len);
			ilen += len;
		}
		pos += 12 + len;
	}
	if (!w || !h || w > 20000 || h > 20000)
		return 1;
	stride = w * bpp;
	rawlen = (uLongf)(stride + 1) * h;
	raw = malloc(rawlen);
	px = malloc(sizeof(*px) * (size_t)w * h);
	if (!raw || !px || uncompress(raw, &rawlen, idat, ilen) != Z_OK || rawlen != (uLongf)(stride + 1) * h) {
		fprintf(stderr, "png_colors: %s: bad image data\n", argv[1]);
		return 1;
	}
	for (uint32_t y = 0; y < h; y++) {
		unsigned char *row = raw + (size_t)y * (stride + 1), ft = row[0], *cur = row + 1;
		unsigned char *prev = y ? raw + (size_t)(y - 1) * (stride + 1) + 1 : NULL;

		for (uint32_t i = 0; i < stride; i++) {
			int a = i >= bpp ? cur[i - bpp] : 0, b = prev ? prev[i] : 0, c = prev && i >= bpp ? prev[i - bpp] : 0;
			int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);

			switch (ft) {
			case 1: cur[i] = (unsigned char)(cur[i] + a); break;
			case 2: cur[i] = (unsigned char)(cur[i] + b); break;
			case 3: cur[i] = (unsigned char)(cur[i] + (a + b) / 2); break;
			case 4: cur[i] = (unsigned char)(cur[i] + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c)); break;
			default: break;
			}
		}
		for (uint32_t x = 0; x < w; x++) {
			unsigned char *q = cur + x * bpp;

			px[(size_t)y * w + x] = (uint32_t)q[0] << 16 | (uint32_t)q[1] << 8 | q[2];
			nwant += px[(size_t)y * w + x] == want;
		}
	}
	qsort(px, (size_t)w * h, sizeof(*px), cmp_u32);
	for (size_t i = 0; i < (size_t)w * h; i++)
		ncol += !i || px[i] != px[i - 1];
	if (argc > 2)
		printf("%ux%u %u %u\n", w, h, ncol, nwant);
	else
		printf("%ux%u %u\n", w, h, ncol);
	free(file);
	free(idat);
	free(raw);
	free(px);
	return 0;
}
