/* SPDX-License-Identifier: MIT */
/* Private to libltt-eventdefs: the arena that owns a parsed model, the internal type node, and the
 * passes that run after parsing (resolution, layout, checksum). */
#ifndef LTT_EVENTDEFS_MODEL_H
#define LTT_EVENTDEFS_MODEL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <ltt/eventdefs.h>

/* Limits that keep hostile input from exhausting time or memory (doc/eventdefs.md, "Limits"). */
#define LTT_MAX_ARRAY_LEN	1000000u	/* elements of an <array> */
#define LTT_MAX_DEPTH		64u		/* types nested in types, typerefs expanded */
#define LTT_MAX_NODES		1000000u	/* type nodes of a facility, typerefs expanded */
#define LTT_MAX_TYPE_BYTES	0x80000000u	/* a fixed size of 2 GiB or more cannot be recorded */
#define LTT_MAX_EVENTS		65516u		/* ids 20 .. 65535 */

/* libxml2 stores element line numbers in 16 bits: from this line on, the pre-pass writes each start
 * tag's line into an attribute of that name, which the parser reads and otherwise ignores. */
#define LTT_BIG_LINE		65000u
#define LTT_LINE_ATTR		"ltt-line"

/* Internal kind of a <typeref> not yet resolved. */
#define LTT_TYPE_REF		LTT_TYPE_KIND_COUNT

/* Every type the parser creates; the public part comes first so the two convert by a cast. */
struct type_node {
	struct ltt_type_desc t;
	const char *ref;		/* LTT_TYPE_REF: the name it refers to */
	uint8_t state;			/* resolution/layout walk: 0 new, 1 in progress, 2 done */
	uint32_t nodes;			/* nodes of the expanded tree (saturates at LTT_MAX_NODES + 1) */
	uint32_t depth;			/* nesting depth of the expanded tree */
	struct type_node *next_all;	/* every node of the parse, for the passes */
};

static inline struct type_node *type_node_of(const struct ltt_type_desc *t)
{
	return (struct type_node *)(uintptr_t)t;
}

/* A bump allocator: everything of one parse lives in it and goes with one free. */
struct arena {
	struct arena_chunk *chunks;
	char *cur;
	size_t left;
};

void *arena_alloc(struct arena *a, size_t size);			/* zeroed, NULL on ENOMEM */
char *arena_strndup(struct arena *a, const char *s, size_t len);
char *arena_strdup(struct arena *a, const char *s);
void arena_free(struct arena *a);

/* The owner of a parse result: the public struct first. */
struct eventdefs_owner {
	struct ltt_eventdefs pub;
	struct arena arena;
};

/* Error reporting: `FILE:LINE: message` (line 0: `FILE: message`) into err[errlen]. */
void eventdefs_error(char *err, size_t errlen, const char *file, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* Turns the facility dialect (bare attribute values, C comments, several top-level elements) into
 * well-formed XML with the same line numbers, wrapped in one <ltt-eventdefs> root element. Returns
 * 0 and a malloc'd NUL-terminated text in *out, or -EINVAL with *bad_line and a static message in
 * *what, or -ENOMEM. */
int eventdefs_prepass(const char *in, size_t len, char **out, size_t *out_len, unsigned *bad_line,
		      const char **what);

/* Resolves typerefs, rejects cycles and oversized types, and fills variable/fixed_size/nodes/depth for
 * every node of the facility. Returns 0, or -EINVAL with the message in err. `all` lists every node
 * created for this facility. */
int eventdefs_resolve(struct ltt_facility_desc *fac, struct ltt_named_type *types,
		      struct type_node *all, char *err, size_t errlen);

#endif
