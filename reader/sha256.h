/* SHA-256 (FIPS 180-4), for the manifests of packed traces. Private to libltt-reader. */
#ifndef LTT_READER_SHA256_H
#define LTT_READER_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define LTT_SHA256_LEN 32
#define LTT_SHA256_HEX_LEN 64

struct ltt_sha256 {
	uint32_t h[8];
	uint64_t bytes;		/* message length so far */
	uint8_t buf[64];	/* partial block; bytes % 64 of it are used */
};

void ltt_sha256_init(struct ltt_sha256 *c);
void ltt_sha256_update(struct ltt_sha256 *c, const void *data, size_t len);
void ltt_sha256_final(struct ltt_sha256 *c, uint8_t out[LTT_SHA256_LEN]);

/* Lowercase hex of a digest, NUL-terminated (hex must hold LTT_SHA256_HEX_LEN + 1 bytes). */
void ltt_sha256_hex(const uint8_t digest[LTT_SHA256_LEN], char *hex);

/* One-shot digest of a buffer. */
void ltt_sha256(const void *data, size_t len, uint8_t out[LTT_SHA256_LEN]);

/* Name of the block function in use ("generic" or "x86-sha"); for tests and benchmarks. */
const char *ltt_sha256_impl(void);

/* Tests: 1 forces the portable code, 0 goes back to the best the CPU offers. Returns 1 if the
 * portable code is now in use. Not thread-safe: call before hashing starts. */
int ltt_sha256_use_generic(int on);

#endif
