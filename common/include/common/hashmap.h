/* SPDX-License-Identifier: MIT */
/* One open-addressing hash map, written once and instantiated per key and value type so that hashing
 * and comparison inline (as LTT_HEAP_DEFINE in common/heap.h):
 *
 *     static inline uint64_t th_hash(struct th_key k) { return ltt_hash64((uint64_t)k.trace << 32 | k.tid); }
 *     static inline int th_eq(struct th_key a, struct th_key b) { return a.trace == b.trace && a.tid == b.tid; }
 *     LTT_MAP_DEFINE(thmap, struct th_key, size_t, th_hash, th_eq)
 *
 * defines struct thmap (zero-initialised: empty, owns nothing) and static inline functions:
 *     thmap_find(m, k)          the value of key k, or NULL
 *     thmap_put(m, k, &added)   the value of key k, inserted zeroed when new (*added = 1; added may
 *                               be NULL); NULL when out of memory (the map unchanged)
 *     thmap_reserve(m, n)       room for n keys: puts up to n never allocate (0, or -1)
 *     thmap_clear(m)            every key removed, memory kept
 *     thmap_free(m)             memory released; the map is empty again
 * and m->count keys. A pointer returned stays valid until the next put. Linear probing in a power of
 * two table at most half full; no removal of one key (none of the users needs it). Iterate with
 *     for (size_t i = 0; i < m.size; i++) if (m.slot[i].used) ... m.slot[i].key, m.slot[i].val
 * in an order that depends on the hash: never let an output follow it. Not for the event path. */
#ifndef LTT_COMMON_HASHMAP_H
#define LTT_COMMON_HASHMAP_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A 64-bit mixer (the finalizer of SplitMix64): every input bit moves the low bits of the result. */
static inline uint64_t ltt_hash64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static inline uint64_t ltt_hash_ptr(const void *p)
{
	return ltt_hash64((uint64_t)(uintptr_t)p);
}

/* FNV-1a over n bytes, mixed, continuing from h (0 to start). */
static inline uint64_t ltt_hash_bytes(uint64_t h, const void *s, size_t n)
{
	const unsigned char *p = s;

	h ^= 0xcbf29ce484222325ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return ltt_hash64(h);
}

static inline uint64_t ltt_hash_str(const char *s)
{
	return ltt_hash_bytes(0, s, strlen(s));
}

/* Ready hash and equality functions for the usual keys. */
static inline uint64_t ltt_hash_u32(uint32_t k)
{
	return ltt_hash64(k);
}

static inline int ltt_eq_u32(uint32_t a, uint32_t b)
{
	return a == b;
}

static inline uint64_t ltt_hash_u64(uint64_t k)
{
	return ltt_hash64(k);
}

static inline int ltt_eq_u64(uint64_t a, uint64_t b)
{
	return a == b;
}

static inline int ltt_eq_str(const char *a, const char *b)
{
	return !strcmp(a, b);
}

/* A key of n bytes at p (hash: ltt_bytes_key's), for maps of strings with a length or arrays: looked
 * up with the caller's bytes, put with a copy the map's user owns (free it before name_free). */
struct ltt_bytes_key {
	uint64_t hash;
	size_t n;
	const void *p;
};

static inline struct ltt_bytes_key ltt_bytes_key(const void *p, size_t n)
{
	return (struct ltt_bytes_key){ .hash = ltt_hash_bytes(0, p, n), .n = n, .p = p };
}

static inline uint64_t ltt_bytes_key_hash(struct ltt_bytes_key k)
{
	return k.hash;
}

static inline int ltt_bytes_key_eq(struct ltt_bytes_key a, struct ltt_bytes_key b)
{
	return a.hash == b.hash && a.n == b.n && (!a.n || !memcmp(a.p, b.p, a.n));
}

#define LTT_MAP_DEFINE(name, key_t, val_t, hash, eq)                                                   \
	struct name##_slot {                                                                           \
		key_t key;                                                                             \
		val_t val;                                                                             \
		unsigned char used;                                                                    \
	};                                                                                             \
	struct name {                                                                                  \
		struct name##_slot *slot;                                                              \
		size_t size, count; /* size: 0 or a power of two */                                    \
	};                                                                                             \
                                                                                                       \
	static inline __attribute__((unused)) val_t *name##_find(const struct name *m, key_t k)        \
	{                                                                                              \
		if (!m->size)                                                                          \
			return NULL;                                                                   \
		for (size_t i = (size_t)hash(k) & (m->size - 1); m->slot[i].used;                      \
		     i = (i + 1) & (m->size - 1))                                                      \
			if (eq(m->slot[i].key, k))                                                     \
				return &m->slot[i].val;                                                \
		return NULL;                                                                           \
	}                                                                                              \
                                                                                                       \
	static inline __attribute__((unused)) struct name##_slot *name##_place_(struct name##_slot *t, \
										size_t size, key_t k)  \
	{                                                                                              \
		size_t i = (size_t)hash(k) & (size - 1);                                               \
                                                                                                       \
		while (t[i].used)                                                                      \
			i = (i + 1) & (size - 1);                                                      \
		return &t[i];                                                                          \
	}                                                                                              \
                                                                                                       \
	/* Room for n keys without growing: 0, or -1 when out of memory (the map unchanged). */                \
	static inline __attribute__((unused)) int name##_reserve(struct name *m, size_t n)             \
	{                                                                                              \
		size_t nsize = m->size ? m->size : 16;                                                 \
		struct name##_slot *nt;                                                                \
                                                                                                       \
		while (nsize < 2 * n) {                                                                \
			if (nsize > SIZE_MAX / 4 / sizeof(*nt))                                        \
				return -1;                                                             \
			nsize *= 2;                                                                    \
		}                                                                                      \
		if (nsize == m->size)                                                                  \
			return 0;                                                                      \
		if (!(nt = calloc(nsize, sizeof(*nt))))                                                \
			return -1;                                                                     \
		for (size_t j = 0; j < m->size; j++)                                                   \
			if (m->slot[j].used)                                                           \
				*name##_place_(nt, nsize, m->slot[j].key) = m->slot[j];                \
		free(m->slot);                                                                         \
		m->slot = nt;                                                                          \
		m->size = nsize;                                                                       \
		return 0;                                                                              \
	}                                                                                              \
                                                                                                       \
	static inline __attribute__((unused)) val_t *name##_put(struct name *m, key_t k, int *added)   \
	{                                                                                              \
		val_t *v = name##_find(m, k);                                                          \
		struct name##_slot *s;                                                                 \
                                                                                                       \
		if (added)                                                                             \
			*added = !v;                                                                   \
		if (v)                                                                                 \
			return v;                                                                      \
		if (name##_reserve(m, m->count + 1))                                                   \
			return NULL;                                                                   \
		s = name##_place_(m->slot, m->size, k);                                                \
		memset(s, 0, sizeof(*s));                                                              \
		s->key = k;                                                                            \
		s->used = 1;                                                                           \
		m->count++;                                                                            \
		return &s->val;                                                                        \
	}                                                                                              \
                                                                                                       \
	static inline __attribute__((unused)) void name##_clear(struct name *m)                        \
	{                                                                                              \
		if (m->size)                                                                           \
			memset(m->slot, 0, m->size * sizeof(*m->slot));                                \
		m->count = 0;                                                                          \
	}                                                                                              \
                                                                                                       \
	static inline __attribute__((unused)) void name##_free(struct name *m)                         \
	{                                                                                              \
		free(m->slot);                                                                         \
		m->slot = NULL;                                                                        \
		m->size = m->count = 0;                                                                \
	}

#endif
