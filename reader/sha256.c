/* SHA-256 as FIPS 180-4 section 6.2 specifies it, over 64-byte blocks. */
#include <string.h>

#include "sha256.h"

static const uint32_t K[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static inline uint32_t ror(uint32_t x, unsigned n)
{
	return (x >> n) | (x << (32 - n));
}

static inline uint32_t load_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline void store_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

#define S0(x) (ror(x, 2) ^ ror(x, 13) ^ ror(x, 22))
#define S1(x) (ror(x, 6) ^ ror(x, 11) ^ ror(x, 25))
#define s0(x) (ror(x, 7) ^ ror(x, 18) ^ ((x) >> 3))
#define s1(x) (ror(x, 17) ^ ror(x, 19) ^ ((x) >> 10))
#define CH(x, y, z) ((z) ^ ((x) & ((y) ^ (z))))
#define MAJ(x, y, z) (((x) & (y)) | ((z) & ((x) | (y))))

/* One round: the eight working variables are renamed instead of moved (the caller rotates the
 * argument order), so only d and h change. W is the 16-word window of the message schedule. */
#define ROUND(a, b, c, d, e, f, g, h, t)						\
	do {										\
		uint32_t t1 = h + S1(e) + CH(e, f, g) + K[t] + w[(t) & 15];		\
		d += t1;								\
		h = t1 + S0(a) + MAJ(a, b, c);						\
	} while (0)
/* Schedule word t >= 16, computed in place of word t - 16. */
#define SCHED(t) (w[(t) & 15] += s1(w[((t) - 2) & 15]) + w[((t) - 7) & 15] + s0(w[((t) - 15) & 15]))

/* Processes n whole blocks. */
static void blocks_generic(uint32_t h[8], const uint8_t *p, size_t n)
{
	uint32_t w[16];

	for (; n; n--, p += 64) {
		uint32_t a = h[0], b = h[1], c = h[2], d = h[3];
		uint32_t e = h[4], f = h[5], g = h[6], hh = h[7];

		for (int t = 0; t < 16; t++)
			w[t] = load_be32(p + 4 * t);
		for (int t = 0; t < 64; t += 8) {
			if (t >= 16) {
				for (int k = t; k < t + 8; k++)
					SCHED(k);
			}
			ROUND(a, b, c, d, e, f, g, hh, t);
			ROUND(hh, a, b, c, d, e, f, g, t + 1);
			ROUND(g, hh, a, b, c, d, e, f, t + 2);
			ROUND(f, g, hh, a, b, c, d, e, t + 3);
			ROUND(e, f, g, hh, a, b, c, d, t + 4);
			ROUND(d, e, f, g, hh, a, b, c, t + 5);
			ROUND(c, d, e, f, g, hh, a, b, t + 6);
			ROUND(b, c, d, e, f, g, hh, a, t + 7);
		}
		h[0] += a;
		h[1] += b;
		h[2] += c;
		h[3] += d;
		h[4] += e;
		h[5] += f;
		h[6] += g;
		h[7] += hh;
	}
}

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

/* The same function with the SHA extensions (Intel SHA-NI, also on AMD Zen): SHA256RNDS2 does two
 * rounds on the state kept as ABEF and CDGH, SHA256MSG1/MSG2 extend the schedule four words at a time:
 * W[t..t+3] = MSG2(MSG1(W[t-16..t-13], W[t-12..t-9]) + W[t-7..t-4], W[t-4..t-1]). */
__attribute__((target("sha,sse4.1,ssse3")))
static void blocks_shani(uint32_t h[8], const uint8_t *p, size_t n)
{
	const __m128i bswap = _mm_set_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3);
	__m128i abcd = _mm_loadu_si128((const __m128i *)&h[0]);	/* dwords A B C D, low first */
	__m128i efgh = _mm_loadu_si128((const __m128i *)&h[4]);	/* E F G H */
	__m128i badc = _mm_shuffle_epi32(abcd, 0xB1);		/* B A D C */
	__m128i hgfe = _mm_shuffle_epi32(efgh, 0x1B);		/* H G F E */
	__m128i abef = _mm_alignr_epi8(badc, hgfe, 8);		/* F E B A: A in the top dword */
	__m128i cdgh = _mm_blend_epi16(hgfe, badc, 0xF0);	/* H G D C */

	for (; n; n--, p += 64) {
		__m128i save_abef = abef, save_cdgh = cdgh, m[4];

		for (int i = 0; i < 4; i++)
			m[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * i)), bswap);
		for (int g = 0; g < 16; g++) {
			__m128i wk;

			if (g >= 4) {
				__m128i x = _mm_sha256msg1_epu32(m[g & 3], m[(g + 1) & 3]);

				x = _mm_add_epi32(x, _mm_alignr_epi8(m[(g + 3) & 3], m[(g + 2) & 3], 4));
				m[g & 3] = _mm_sha256msg2_epu32(x, m[(g + 3) & 3]);
			}
			wk = _mm_add_epi32(m[g & 3], _mm_loadu_si128((const __m128i *)&K[4 * g]));
			cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);	/* rounds 4g, 4g+1 */
			wk = _mm_shuffle_epi32(wk, 0x0E);
			abef = _mm_sha256rnds2_epu32(abef, cdgh, wk);	/* rounds 4g+2, 4g+3 */
		}
		abef = _mm_add_epi32(abef, save_abef);
		cdgh = _mm_add_epi32(cdgh, save_cdgh);
	}
	badc = _mm_shuffle_epi32(abef, 0x1B);			/* A B E F */
	hgfe = _mm_shuffle_epi32(cdgh, 0xB1);			/* G H C D */
	_mm_storeu_si128((__m128i *)&h[0], _mm_blend_epi16(badc, hgfe, 0xF0));	/* A B C D */
	_mm_storeu_si128((__m128i *)&h[4], _mm_alignr_epi8(hgfe, badc, 8));	/* E F G H */
}

static int have_shani(void)
{
	unsigned a, b, c, d;

	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_SSE4_1) || !(c & bit_SSSE3))
		return 0;
	return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & bit_SHA);
}
#endif

static void (*blocks)(uint32_t h[8], const uint8_t *p, size_t n) = blocks_generic;

/* Chosen once when the library is loaded, before any thread can hash. */
__attribute__((constructor))
static void pick_blocks(void)
{
#if defined(__x86_64__)
	if (have_shani())
		blocks = blocks_shani;
#endif
}

const char *ltt_sha256_impl(void)
{
	return blocks == blocks_generic ? "generic" : "x86-sha";
}

int ltt_sha256_use_generic(int on)
{
	if (on)
		blocks = blocks_generic;
	else
		pick_blocks();
	return blocks == blocks_generic;
}

void ltt_sha256_init(struct ltt_sha256 *c)
{
	static const uint32_t h0[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};

	memcpy(c->h, h0, sizeof(h0));
	c->bytes = 0;
}

void ltt_sha256_update(struct ltt_sha256 *c, const void *data, size_t len)
{
	const uint8_t *p = data;
	size_t used = c->bytes % 64;

	c->bytes += len;
	if (used) {
		size_t take = 64 - used < len ? 64 - used : len;

		memcpy(c->buf + used, p, take);
		p += take;
		len -= take;
		if (used + take < 64)
			return;
		blocks(c->h, c->buf, 1);
	}
	if (len >= 64) {
		blocks(c->h, p, len / 64);
		p += len & ~(size_t)63;
		len %= 64;
	}
	memcpy(c->buf, p, len);
}

void ltt_sha256_final(struct ltt_sha256 *c, uint8_t out[LTT_SHA256_LEN])
{
	size_t used = c->bytes % 64;
	uint64_t bits = c->bytes * 8;

	/* Padding (FIPS 180-4 5.1.1): a 1 bit, zeros, then the 64-bit length, to a block boundary. */
	c->buf[used++] = 0x80;
	if (used > 56) {
		memset(c->buf + used, 0, 64 - used);
		blocks(c->h, c->buf, 1);
		used = 0;
	}
	memset(c->buf + used, 0, 56 - used);
	store_be32(c->buf + 56, (uint32_t)(bits >> 32));
	store_be32(c->buf + 60, (uint32_t)bits);
	blocks(c->h, c->buf, 1);
	for (int i = 0; i < 8; i++)
		store_be32(out + 4 * i, c->h[i]);
}

void ltt_sha256_hex(const uint8_t digest[LTT_SHA256_LEN], char *hex)
{
	static const char xd[] = "0123456789abcdef";

	for (int i = 0; i < LTT_SHA256_LEN; i++) {
		hex[2 * i] = xd[digest[i] >> 4];
		hex[2 * i + 1] = xd[digest[i] & 15];
	}
	hex[LTT_SHA256_HEX_LEN] = '\0';
}

void ltt_sha256(const void *data, size_t len, uint8_t out[LTT_SHA256_LEN])
{
	struct ltt_sha256 c;

	ltt_sha256_init(&c);
	ltt_sha256_update(&c, data, len);
	ltt_sha256_final(&c, out);
}
