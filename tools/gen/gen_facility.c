/* SPDX-License-Identifier: MIT */
/* ltt gen: the header of one facility (gen.h gen_facility), text only: the command (cmd_gen.c) reads
 * the XML and writes the files. The output depends only on the facility description: no dates, no
 * paths. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ltt/eventdefs.h>

#include "common/escape_c.h"
#include "gen.h"

/* ---- one header ------------------------------------------------------------------------------- */

static const char helpers[] =
	"#ifndef LTT_GEN_HELPERS\n"
	"#define LTT_GEN_HELPERS\n"
	"/* Hooks: a program may define these before including a generated header (tests do, to encode\n"
	" * into their own buffer); by default they are libltt's event path (ltt/ltt.h). A program that\n"
	" * defines LTT_GEN_IS_RECORDING() records every event while it is nonzero, with no rules. */\n"
	"#ifndef LTT_GEN_ENABLED\n"
	"#ifdef LTT_GEN_IS_RECORDING\n"
	"#define LTT_GEN_ENABLED(enabled, index) (LTT_GEN_IS_RECORDING() ? 1u : 0u)\n"
	"#ifndef LTT_GEN_TRIGGER\n"
	"#define LTT_GEN_TRIGGER(fac, index) ((void)0)\n"
	"#endif\n"
	"#else\n"
	"#define LTT_GEN_ENABLED(enabled, index) ltt_event_enabled(enabled, index)\n"
	"#endif\n"
	"#endif\n"
	"#ifndef LTT_GEN_TRIGGER\n"
	"#define LTT_GEN_TRIGGER(fac, index) ltt_snapshot_trigger(fac, index)\n"
	"#endif\n"
	"#ifndef LTT_GEN_RESERVE\n"
	"#define LTT_GEN_RESERVE(slot, fac, index, len, flags) ltt_event_reserve(slot, fac, index, len, flags)\n"
	"#endif\n"
	"#ifndef LTT_GEN_COMMIT\n"
	"#define LTT_GEN_COMMIT(slot) ltt_event_commit(slot)\n"
	"#endif\n"
	"#ifndef LTT_GEN_REGISTER\n"
	"#define LTT_GEN_REGISTER(fac) ltt_facility_register(fac)\n"
	"#endif\n"
	"#ifndef LTT_GEN_TID\n"
	"#define LTT_GEN_TID() ltt_tid()\n"
	"#endif\n"
	"\n"
	"/* The element count a sequence records: 0 for a NULL pointer, at most what its length field holds. */\n"
	"static inline size_t ltt_gen_seqlen(size_t len, const void *data, size_t lengthsize)\n"
	"{\n"
	"\tsize_t max = lengthsize >= sizeof(size_t) ? (size_t)-1 : ((size_t)1 << (8 * lengthsize)) - 1;\n"
	"\n"
	"\treturn data ? (len < max ? len : max) : 0;\n"
	"}\n"
	"\n"
	"/* Copies a string inside an array, sequence or struct and its NUL (NULL records an empty string),\n"
	" * at most *left characters: *left is what remains of the characters the size pass measured for\n"
	" * the event's nested strings, so that a string grown since (another thread wrote it) is cut\n"
	" * there and the event never goes past its reservation. *nul gets the NUL's address; returns the\n"
	" * end. (memchr: reads at most *left bytes of s.) */\n"
	"static inline char *ltt_gen_putstrb(char *p, const char *s, size_t *left, char **nul)\n"
	"{\n"
	"\tconst char *z;\n"
	"\tsize_t n;\n"
	"\n"
	"\t/* memchr stops at the NUL: the compiler, seeing a literal in a caller, would warn about the\n"
	"\t * bound; it does not see s's origin */\n"
	"\t__asm__ (\"\" : \"+r\"(s));\n"
	"\tz = s && *left ? (const char *)memchr(s, 0, *left) : s;\n"
	"\tn = !s ? 0 : z ? (size_t)(z - s) : *left;\n"
	"\n"
	"\t*left -= n;\n"
	"\tp = ltt_putstrn(p, s, n);\n"
	"\t*nul = p - 1;\n"
	"\treturn p;\n"
	"}\n"
	"\n"
	"/* Nested strings shorter than measured (changed since) left `left` bytes of the reservation: the\n"
	" * last one copied (its NUL at nul) is lengthened by as many '?', the fields after it moved along,\n"
	" * so that the event fills its reservation exactly. Returns the new end. */\n"
	"static inline char *ltt_gen_strpad(char *nul, char *p, size_t left)\n"
	"{\n"
	"\tmemmove(nul + left, nul, (size_t)(p - nul));\n"
	"\tmemset(nul, '?', left);\n"
	"\treturn p + left;\n"
	"}\n"
	"\n"
	"/* Copies the n bytes of a string measured before (s may be NULL when n is 0), then a NUL\n"
	" * (ltt/static/str.h: short strings without a call). */\n"
	"static inline char *ltt_gen_putstrn(char *p, const char *s, size_t n)\n"
	"{\n"
	"\treturn ltt_putstrn(p, s, n);\n"
	"}\n"
	"#endif\n\n";

/* The parameter list of an event (", "-separated), and the NULL checks of pointer parameters. */
static void params(struct gen *g, const struct ltt_event_desc *ev, const char *path)
{
	const struct ltt_type_desc *b = ev->body;
	const uint32_t first = ev->context_tid ? 1 : 0;	/* context="tid": tid is filled in, not passed */
	const char *ct, *child;

	if (!b || b->n_fields <= first) {
		ltt_buf_add(&g->o, "void", 4);
		return;
	}
	for (uint32_t i = first; i < b->n_fields; i++) {
		const struct ltt_type_desc *t = b->fields[i].type;
		const char *n = gen_cname(g, b->fields[i].name);

		if (i > first)
			ltt_buf_add(&g->o, ", ", 2);
		child = gen_join(g, path, b->fields[i].name);
		switch (t->kind) {
		case LTT_TYPE_ARRAY:
			ct = gen_value_ctype(g, t->element, gen_elem_path(g, t, child, 0));
			ltt_buf_printf(&g->o, "%s%s", gen_ptr_to_const(g, ct), n);
			break;
		case LTT_TYPE_SEQUENCE:
			ct = gen_value_ctype(g, t->element, gen_elem_path(g, t, child, 0));
			ltt_buf_printf(&g->o, "size_t %s_len, %s%s", n, gen_ptr_to_const(g, ct), n);
			break;
		case LTT_TYPE_STRUCT:
		case LTT_TYPE_UNION:
			ltt_buf_printf(&g->o, "const %s *%s", gen_value_ctype(g, t, child), n);
			break;
		default:
			ltt_buf_add(&g->o, gen_decl(g, gen_value_ctype(g, t, child), n), strlen(gen_decl(g, gen_value_ctype(g, t, child), n)));
			break;
		}
	}
}

/* Whether the parameter names of an event are distinct (a sequence adds NAME_len). */
static int check_params(struct gen *g, const struct ltt_event_desc *ev)
{
	const struct ltt_type_desc *b = ev->body;
	struct hset seen = { .strings = 1 };
	int r = 0;

	for (uint32_t i = 0; b && i < b->n_fields && !r; i++)
		r = gen_hset_has(&seen, gen_cname(g, b->fields[i].name), 1);
	for (uint32_t i = 0; b && i < b->n_fields && !r; i++) {
		if (b->fields[i].type->kind != LTT_TYPE_SEQUENCE)
			continue;
		r = gen_hset_has(&seen, gen_str(g, "%s_len", gen_cname(g, b->fields[i].name)), 1);
		if (r == 1)
			r = gen_fail(g, b->fields[i].line,
				     "the length parameter of sequence '%s' collides with another parameter",
				     b->fields[i].name);
	}
	gen_hset_free(&seen);
	return r == 1 ? gen_fail(g, ev->line, "two parameters of event '%s' have one C name", ev->name) : r;
}

/* A comment line "NAME: TEXT" (TEXT on one line, never closing the comment). */
static void comment(struct gen *g, const char *name, const char *text)
{
	if (!text)
		return;
	ltt_buf_printf(&g->o, "/* %s: ", name);
	for (const char *p = text; *p; p++) {
		if (*p == '*' && p[1] == '/')
			ltt_buf_add(&g->o, "* ", 2);
		else if ((unsigned char)*p < 0x20)
			ltt_buf_add(&g->o, " ", 1);
		else
			ltt_buf_add(&g->o, p, 1);
	}
	ltt_buf_add(&g->o, " */\n", 4);
}

static int emit_event(struct gen *g, const struct ltt_event_desc *ev)
{
	const struct ltt_type_desc *b = ev->body;
	const char *fac = g->fac->name;
	const char *path, *fn;
	int r, nested = 0;

	if (!gen_is_ident(ev->name))
		return gen_fail(g, ev->line, "event name '%s' is not a C identifier", ev->name);
	path = gen_str(g, "%s%s", g->prefix, ev->name);
	for (uint32_t i = 0; b && !b->name && i < b->n_fields; i++) {
		/* an inline body has no C struct: its fields are the parameters */
		if (!gen_is_ident(b->fields[i].name))
			return gen_fail(g, b->fields[i].line, "field name '%s' is not a C identifier",
					b->fields[i].name);
		if ((r = gen_emit_types(g, b->fields[i].type, gen_join(g, path, b->fields[i].name), 0)))
			return r;
	}
	if ((r = check_params(g, ev)))
		return r;
	fn = gen_str(g, "trace_%s%s", g->prefix, ev->name);
	if ((r = gen_claim_name(g, fn, ev->line)))
		return r;
	comment(g, ev->name, ev->description);
	ltt_buf_printf(&g->o, "static inline void %s(", fn);
	/* a typeref body names its fields' types after the named struct */
	params(g, ev, b && b->name ? gen_type_cname(g, b, path) : path);
	ltt_buf_add(&g->o, ")\n{\n", 4);
	/* one load and one branch when the event does not record (not recording, paused, not selected) */
	ltt_buf_printf(&g->o, "\tconst unsigned ltt_on_ = LTT_GEN_ENABLED(ltt_facility_%s_enabled, %u);\n\n", fac, ev->index);
	ltt_buf_printf(&g->o, "\tif (ltt_unlikely(ltt_on_ & LTT_EVENT_ON)) {\n");
	ltt_buf_add(&g->o, "\t\tstruct ltt_slot ltt_s_;\n", 26);
	if (ev->context_tid)	/* context="tid": the thread id from libltt's per-thread cache */
		ltt_buf_printf(&g->o, "\t\tconst uint32_t tid = LTT_GEN_TID();\n");
	ltt_buf_add(&g->o, "\t\tsize_t ltt_len_ = 0;\n", 23);
	for (uint32_t i = 0; b && i < b->n_fields; i++)
		if (b->fields[i].type->kind != LTT_TYPE_STRING && gen_has_string(b->fields[i].type))
			nested = 1;
	if (nested)	/* characters of the strings in arrays, sequences and structs (their copy's bound) */
		ltt_buf_printf(&g->o, "\t\tsize_t ltt_sb_ = 0;\n");
	/* declarations first: the header compiles under -Wdeclaration-after-statement (C90's rule, common
	 * in C projects' flags; tests/e2e/eventdefs_gen_strict.sh) */
	for (uint32_t i = 0; b && i < b->n_fields; i++)
		if (b->fields[i].type->kind == LTT_TYPE_STRING)
			ltt_buf_printf(&g->o, "\t\tsize_t ltt_s%u_;\n", i);
	ltt_buf_add(&g->o, "\n", 1);
	for (uint32_t i = 0; b && i < b->n_fields; i++) {
		enum ltt_type_kind k = b->fields[i].type->kind;

		if (k == LTT_TYPE_ARRAY || k == LTT_TYPE_STRUCT || k == LTT_TYPE_UNION)
			ltt_buf_printf(&g->o, "\t\tif (!%s)\n\t\t\treturn;\n", gen_cname(g, b->fields[i].name));
	}
	for (uint32_t i = 0; b && i < b->n_fields; i++) {
		const struct ltt_type_desc *t = b->fields[i].type;
		const char *n = gen_cname(g, b->fields[i].name);
		struct access a;

		if (t->kind == LTT_TYPE_STRING) {
			/* measured once: the copy takes exactly the bytes reserved */
			ltt_buf_printf(&g->o, "\t\tltt_s%u_ = %s ? ltt_strlen(%s) : 0;\n", i, n, n);
			ltt_buf_printf(&g->o, "\t\tltt_len_ += ltt_s%u_ + 1;\n", i);
			continue;
		}
		a.expr = t->kind == LTT_TYPE_STRUCT || t->kind == LTT_TYPE_UNION ? gen_str(g, "(*%s)", n) : n;
		a.len = gen_str(g, "%s_len", n);
		gen_size_code(g, t, &a, 2, 0);
	}
	ltt_buf_printf(&g->o, "\t\tif (LTT_GEN_RESERVE(&ltt_s_, &ltt_facility_%s, %u, ltt_len_, %s)) {\n", fac, ev->index,
	   ev->persistent ? "LTT_EVENT_PERSISTENT" : "0");
	if (b && b->n_fields)
		ltt_buf_add(&g->o, "\t\t\tchar *ltt_p_ = ltt_s_.payload;\n", 34);
	if (nested)
		ltt_buf_printf(&g->o, "\t\t\tchar *ltt_nul_ = NULL;\n");
	if (b && b->n_fields)
		ltt_buf_add(&g->o, "\n", 1);
	for (uint32_t i = 0; b && i < b->n_fields; i++) {
		const struct ltt_type_desc *t = b->fields[i].type;
		const char *n = gen_cname(g, b->fields[i].name);
		struct access a;

		if (t->kind == LTT_TYPE_STRING) {
			ltt_buf_printf(&g->o, "\t\t\tltt_p_ = ltt_gen_putstrn(ltt_p_, %s, ltt_s%u_);\n", n, i);
			continue;
		}
		a.expr = t->kind == LTT_TYPE_STRUCT || t->kind == LTT_TYPE_UNION ? gen_str(g, "(*%s)", n) : n;
		a.len = gen_str(g, "%s_len", n);
		gen_encode_code(g, t, &a, 3, 0);
	}
	if (nested)	/* nested strings that shrank since they were measured: ltt_gen_strpad */
		ltt_buf_printf(&g->o, "\t\t\tif (ltt_unlikely(ltt_sb_) && ltt_nul_)\n\t\t\t\tltt_p_ = ltt_gen_strpad(ltt_nul_, ltt_p_, ltt_sb_);\n");
	if (b && b->n_fields)
		ltt_buf_add(&g->o, "\t\t\t(void)ltt_p_;\n", 17);
	ltt_buf_printf(&g->o, "\t\t\tLTT_GEN_COMMIT(&ltt_s_);\n");
	ltt_buf_printf(&g->o, "\t\t\tif (ltt_unlikely(ltt_on_ & LTT_EVENT_TRIGGER))\n\t\t\t\tLTT_GEN_TRIGGER(&ltt_facility_%s, %u);\n",
	       fac, ev->index);
	ltt_buf_printf(&g->o, "\t\t}\n\t}\n}\n\n");
	return 0;
}

/* The facility's XML as a C string literal, one source line per XML line. */
static void xml_literal(struct gen *g, const char *xml)
{
	const char *p = xml;

	do {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p + 1) : strlen(p);

		ltt_buf_putc(&g->o, '\t');
		ltt_c_to_buf(&g->o, p, n);	/* common/escape_c.h: no trigraph, no \x escape running on */
		p += n;
		if (*p)
			ltt_buf_putc(&g->o, '\n');
	} while (*p);
}

/* The event names by index (event rules match them) and the enabled flags generated code tests,
 * LTT_EVENT_ON until libltt registers the facility (the first event then registers it). */
static void event_arrays(struct gen *g)
{
	const struct ltt_facility_desc *f = g->fac;
	unsigned n = f->n_events ? f->n_events : 1;	/* no zero-length arrays */

	ltt_buf_printf(&g->o, "/* Event names by index, and the flags libltt sets (recording, selected: ltt_events_set()). */\n");
	ltt_buf_printf(&g->o, "__attribute__((weak)) const char *ltt_facility_%s_events[%u] = {", f->name, n);
	for (unsigned k = 0; k < n; k++) {
		const char *name = NULL;

		for (uint32_t i = 0; i < f->n_events; i++)
			if (f->events[i].index == k)
				name = f->events[i].name;
		ltt_buf_printf(&g->o, "%s\n\t%s%s%s", k ? "," : "", name ? "\"" : "", name ? name : "NULL", name ? "\"" : "");
	}
	ltt_buf_printf(&g->o, "\n};\n__attribute__((weak)) uint8_t ltt_facility_%s_enabled[%u] = {", f->name, n);
	for (unsigned k = 0; k < n; k++)
		ltt_buf_printf(&g->o, "%s%s", k ? ", " : " ", k % 16 == 15 ? "1\n\t" : "1");
	ltt_buf_printf(&g->o, " };\n\n");
}

int gen_facility(struct gen *g)
{
	const struct ltt_facility_desc *f = g->fac;
	char *upper, *xml;
	int r;

	if (!gen_is_ident(f->name))
		return gen_fail(g, f->line, "facility name '%s' is not a C identifier", f->name);
	if ((r = ltt_facility_to_xml(f, &xml)))
		return r;
	if (!g->prefix)
		g->prefix = gen_str(g, "%s_", f->name);
	/* the guard: LTT_GEN_F_H, with another prefix LTT_GEN_F_PREFIX_H */
	upper = (char *)(strcmp(g->prefix, gen_str(g, "%s_", f->name)) ? gen_str(g, "%s_%s", f->name, g->prefix)
									 : gen_str(g, "%s_", f->name));
	for (char *p = upper; *p; p++)
		if (*p >= 'a' && *p <= 'z')
			*p = (char)(*p - 'a' + 'A');
	ltt_buf_printf(&g->o, "/* Generated by `ltt gen` from the facility '%s' (checksum 0x%08x). Do not edit. */\n",
	   f->name, f->checksum);
	ltt_buf_printf(&g->o, "#ifndef LTT_GEN_%sH\n#define LTT_GEN_%sH\n\n", upper, upper);
	ltt_buf_add(&g->o, "#include <stddef.h>\n#include <stdint.h>\n#include <string.h>\n\n#include <ltt/ltt.h>\n\n", 83);
	ltt_buf_add(&g->o, "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n", 40);
	ltt_buf_add(&g->o, helpers, sizeof(helpers) - 1);
	ltt_buf_printf(&g->o, "#define LTT_FACILITY_%.*s_CHECKSUM 0x%08xu\n\n", (int)strlen(f->name), upper, f->checksum);
	if ((r = gen_claim_name(g, gen_str(g, "ltt_facility_%s_events", f->name), f->line)) ||
	    (r = gen_claim_name(g, gen_str(g, "ltt_facility_%s_enabled", f->name), f->line))) {
		free(xml);
		return r;
	}
	event_arrays(g);
	ltt_buf_printf(&g->o, "/* The facility, one object per program (weak), registered by every including unit. */\n");
	ltt_buf_printf(&g->o, "__attribute__((weak)) struct ltt_facility ltt_facility_%s = {\n", f->name);
	ltt_buf_printf(&g->o, "\t\"%s\",\n", f->name);
	xml_literal(g, xml);
	free(xml);
	ltt_buf_printf(&g->o, ",\n\t0x%08xu,\n\t%u,\n\t0,\n\tNULL,\n\tltt_facility_%s_events,\n\tltt_facility_%s_enabled,\n};\n\n",
	       f->checksum, f->n_events, f->name, f->name);
	ltt_buf_printf(&g->o, "__attribute__((constructor, unused)) static void ltt_gen_register_%s(void)\n{\n"
	   "\t(void)LTT_GEN_REGISTER(&ltt_facility_%s);\n}\n\n", f->name, f->name);
	for (uint32_t i = 0; i < f->n_types; i++) {
		if (!gen_is_ident(f->types[i].name))
			return gen_fail(g, f->types[i].line, "type name '%s' is not a C identifier",
					f->types[i].name);
		if ((r = gen_emit_types(g, f->types[i].type, gen_str(g, "%s%s", g->prefix, f->types[i].name), 0)))
			return r;
	}
	for (uint32_t i = 0; i < f->n_events; i++)
		if ((r = emit_event(g, &f->events[i])))
			return r;
	ltt_buf_add(&g->o, "#ifdef __cplusplus\n}\n#endif\n#endif\n", 35);
	return g->o.nomem ? -ENOMEM : 0;
}

void gen_free(struct gen *g)
{
	gen_hset_free(&g->names);
	gen_hset_free(&g->done);
	for (size_t i = 0; i < g->n_strs; i++)
		free(g->strs[i]);
	free(g->strs);
	free(g->o.buf);
	memset(g, 0, sizeof(*g));
}
