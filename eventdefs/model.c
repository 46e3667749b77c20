/* SPDX-License-Identifier: MIT */
/* Ownership of a parsed model (one arena per parse), error messages, and look-ups. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

struct arena_chunk {
	struct arena_chunk *next;
	max_align_t data[];
};

#define CHUNK_BYTES 16384u

void *arena_alloc(struct arena *a, size_t size)
{
	void *p;

	size = (size + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
	if (size > a->left) {
		size_t bytes = size > CHUNK_BYTES ? size : CHUNK_BYTES;
		struct arena_chunk *c;

		if (bytes > SIZE_MAX - sizeof(*c))
			return NULL;
		c = malloc(sizeof(*c) + bytes);
		if (!c)
			return NULL;
		c->next = a->chunks;
		a->chunks = c;
		a->cur = (char *)c->data;
		a->left = bytes;
	}
	p = a->cur;
	a->cur += size;
	a->left -= size;
	memset(p, 0, size);
	return p;
}

char *arena_strndup(struct arena *a, const char *s, size_t len)
{
	char *p = len < SIZE_MAX ? arena_alloc(a, len + 1) : NULL;

	if (p)
		memcpy(p, s, len);
	return p;
}

char *arena_strdup(struct arena *a, const char *s)
{
	return arena_strndup(a, s, strlen(s));
}

void arena_free(struct arena *a)
{
	struct arena_chunk *c = a->chunks;

	while (c) {
		struct arena_chunk *next = c->next;

		free(c);
		c = next;
	}
	a->chunks = NULL;
	a->cur = NULL;
	a->left = 0;
}

void eventdefs_error(char *err, size_t errlen, const char *file, unsigned line, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!err || !errlen)
		return;
	if (line)
		n = snprintf(err, errlen, "%s:%u: ", file, line);
	else
		n = snprintf(err, errlen, "%s: ", file);
	if (n < 0 || (size_t)n >= errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
	va_end(ap);
	/* one line, whatever the message quotes from the file */
	for (char *p = err; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
}

void ltt_eventdefs_free(struct ltt_eventdefs *defs)
{
	struct eventdefs_owner *o = (struct eventdefs_owner *)defs;

	if (!o)
		return;
	arena_free(&o->arena);
	free(o);
}

const struct ltt_facility_desc *ltt_eventdefs_find(const struct ltt_eventdefs *defs, const char *name)
{
	for (uint32_t i = 0; i < defs->n_facilities; i++)
		if (!strcmp(defs->facilities[i].name, name))
			return &defs->facilities[i];
	return NULL;
}

const struct ltt_event_desc *ltt_facility_find_event(const struct ltt_facility_desc *fac,
						     const char *name)
{
	for (uint32_t i = 0; i < fac->n_events; i++)
		if (!strcmp(fac->events[i].name, name))
			return &fac->events[i];
	return NULL;
}
