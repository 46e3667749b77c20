/* SPDX-License-Identifier: MIT */
/* Private to libltt-eventdefs: the walk of the libxml2 tree (parse.c, parse_xml.c, parse_enum.c,
 * parse_span.c, parse_file.c). */
#ifndef LTT_EVENTDEFS_PARSE_H
#define LTT_EVENTDEFS_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include <libxml/tree.h>

#include "model.h"

struct pctx {
	const char *file;
	char *err;
	size_t errlen;
	struct arena *arena;
	struct type_node *all;		/* nodes created for the current facility */
};

/* Reports `FILE:LINE: message` for node and evaluates to -EINVAL. */
#define FAIL(c, node, ...) \
	(eventdefs_error((c)->err, (c)->errlen, (c)->file, ed_line_of(node), __VA_ARGS__), -EINVAL)

unsigned ed_line_of(const xmlNode *n);
int ed_is_elem(const xmlNode *n, const char *name);
/* Comments, processing instructions, blank text. */
int ed_is_ignorable(const xmlNode *n);
/* Attribute `name` of n copied into the arena; NULL if absent; *nomem set on failure. */
const char *ed_attr(struct pctx *c, const xmlNode *n, const char *name, int *nomem);
/* Every attribute of n must be in `allowed` (NULL-terminated). */
int ed_check_attrs(struct pctx *c, const xmlNode *n, const char *const *allowed);
/* The trimmed text of a <description>, or NULL on ENOMEM. */
const char *ed_description(struct pctx *c, const xmlNode *n);
/* A required size attribute (a size keyword). */
int ed_size_attr(struct pctx *c, const xmlNode *n, const char *name, unsigned *size);
/* n has nothing but comments and blanks inside. */
int ed_no_children(struct pctx *c, const xmlNode *n);
/* The smallest byte count of a size keyword under any arch. */
unsigned ed_min_bytes(unsigned size);
/* v fits in an unsigned integer of `bytes` bytes. */
int ed_fits(uint64_t v, unsigned bytes);

/* The labels of <enum> n into t (its size already set). */
int ed_parse_enum(struct pctx *c, const xmlNode *n, struct type_node *t);
/* The <span> elements among facility element n's children into fac (its events parsed and resolved). */
int ed_parse_spans(struct pctx *c, const xmlNode *n, struct ltt_facility_desc *fac);
/* One <facility> element. */
int ed_parse_facility(struct pctx *c, const xmlNode *n, struct ltt_facility_desc *fac);

#endif
