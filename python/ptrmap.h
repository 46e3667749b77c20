/* SPDX-License-Identifier: MIT */
/* A small map from pointers (event types, tracefiles) to what a pass keeps for them: open addressing,
 * grown by doubling. Used by one pass at a time (no locking). */
#ifndef LTT_PYTHON_PTRMAP_H
#define LTT_PYTHON_PTRMAP_H

#include <stdint.h>
#include <stdlib.h>

struct ptrmap {
	const void **keys;
	void **vals;
	size_t n, size;
};

static inline size_t ptrmap_slot(const struct ptrmap *m, const void *k)
{
	size_t i = (size_t)(((uintptr_t)k >> 4) * 0x9e3779b97f4a7c15ull) & (m->size - 1);

	while (m->keys[i] && m->keys[i] != k)
		i = (i + 1) & (m->size - 1);
	return i;
}

/* The value of k, or NULL. */
static inline void *ptrmap_get(const struct ptrmap *m, const void *k)
{
	if (!m->size)
		return NULL;
	return m->vals[ptrmap_slot(m, k)];
}

/* Sets k's value (k not in m yet): 0 or -1 (out of memory). */
static inline int ptrmap_put(struct ptrmap *m, const void *k, void *v)
{
	size_t i;

	if ((m->n + 1) * 2 > m->size) {
		struct ptrmap g = { 0, 0, 0, m->size ? m->size * 2 : 32 };

		g.keys = calloc(g.size, sizeof(*g.keys));
		g.vals = calloc(g.size, sizeof(*g.vals));
		if (!g.keys || !g.vals) {
			free(g.keys);
			free(g.vals);
			return -1;
		}
		for (size_t k2 = 0; k2 < m->size; k2++)
			if (m->keys[k2]) {
				i = ptrmap_slot(&g, m->keys[k2]);
				g.keys[i] = m->keys[k2];
				g.vals[i] = m->vals[k2];
			}
		g.n = m->n;
		free(m->keys);
		free(m->vals);
		*m = g;
	}
	i = ptrmap_slot(m, k);
	m->keys[i] = k;
	m->vals[i] = v;
	m->n++;
	return 0;
}

/* Calls fn on every value, then empties m. */
static inline void ptrmap_free(struct ptrmap *m, void (*fn)(void *))
{
	for (size_t i = 0; i < m->size; i++)
		if (m->keys[i] && fn)
			fn(m->vals[i]);
	free(m->keys);
	free(m->vals);
	m->keys = NULL;
	m->vals = NULL;
	m->n = m->size = 0;
}

#endif
