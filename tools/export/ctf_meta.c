/* SPDX-License-Identifier: MIT */
/* The TSDL declarations of ltt's types for the CTF export (ctf.h). Each ltt type maps to a CTF 1.8
 * type whose binary layout is exactly ltt's encoding (doc/format.md section 8: byte-aligned, no
 * padding, the trace's byte order), so an event's payload is copied as is:
 *   int, uint     integer { size; align = 8; signed }        (the arch's size of short/medium/long)
 *   float         floating_point { exp_dig; mant_dig }       (4 or 8 bytes)
 *   string        string
 *   enum          enum : integer { ... } { "label" = value, ... }
 *   array         T name[N]
 *   sequence      integer ltt_len_NAME; T NAME[ltt_len_NAME];    (the length ltt writes first)
 *   union         enum ltt_tag_NAME { "field" = k }; variant <ltt_tag_NAME> { ... } NAME;
 *   struct        struct { ... }
 * A sequence or union that is not directly a struct field (an array or sequence element, a union
 * field) has no place for its length or tag before it: it is wrapped in a struct of two fields,
 * ltt_len + ltt_seq or ltt_tag + ltt_un.
 *
 * Field names become TSDL identifiers ([A-Za-z_][A-Za-z0-9_]*; eventdefs may name a field "bytes-in",
 * "1st" or "größe", which a CTF reader cannot parse), the rule of doc/viewing.md "ctf":
 *   - each byte that is not an ASCII letter, digit or '_' is written _xHH (two lowercase hex digits):
 *     "bytes-in" is bytes_x2din;
 *   - a name that is then empty, starts with a digit or '_', or is a TSDL keyword gets a '_' in front,
 *     which CTF 1.8 readers remove ("1st" is written _1st and read 1st; "_x" is written __x);
 *   - a name is cut to at most 240 bytes (CTF_ID_MAX - 16);
 *   - a name equal to one of an earlier field of the same struct or union (a field literally named
 *     bytes_x2din, or two names cut to the same bytes) gets _2, or _3..., the first that is free.
 * Event and enum label names are TSDL strings (any text). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctf.h"

static const char *const tsdl_keywords[] = {
	"align", "callsite", "const", "char", "clock", "double", "enum", "env", "event", "floating_point",
	"float", "integer", "int", "long", "short", "signed", "stream", "string", "struct", "trace",
	"typealias", "typedef", "unsigned", "variant", "void", "_Bool", "_Complex", "_Imaginary", NULL,
};

#define CTF_ID_MAX 256	/* bytes of an identifier at most, its NUL included */

static int nomem;	/* a list of names could not be made: ctf_body_decl fails */

/* The identifier of one name, without the collision rule. */
static void ctf_ident(const char *name, char out[CTF_ID_MAX])
{
	static const char hex[] = "0123456789abcdef";
	char tmp[CTF_ID_MAX - 16];
	size_t n = 0;
	int pre = 0;

	for (const unsigned char *p = (const unsigned char *)name; *p && n + 5 < sizeof(tmp); p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_') {
			tmp[n++] = (char)*p;
		} else {
			memcpy(tmp + n, "_x", 2);
			tmp[n + 2] = hex[*p >> 4];
			tmp[n + 3] = hex[*p & 15];
			n += 4;
		}
	}
	tmp[n] = 0;
	pre = !n || tmp[0] == '_' || (tmp[0] >= '0' && tmp[0] <= '9');
	for (size_t i = 0; !pre && tsdl_keywords[i]; i++)
		pre = !strcmp(tmp, tsdl_keywords[i]);
	snprintf(out, CTF_ID_MAX, "%s%s", pre ? "_" : "", tmp);
}

/* The identifiers of the fields of t (a struct or a union), one each, distinct (the rule above); NULL
 * when out of memory (nomem is set) or t has no field. free() it. */
static char (*ctf_field_names(const struct ltt_type_desc *t))[CTF_ID_MAX]
{
	char (*v)[CTF_ID_MAX] = t->n_fields ? malloc(t->n_fields * sizeof(*v)) : NULL;

	if (!v) {
		nomem |= t->n_fields != 0;
		return NULL;
	}
	for (uint32_t i = 0; i < t->n_fields; i++) {
		char base[CTF_ID_MAX];

		ctf_ident(t->fields[i].name, base);
		memcpy(v[i], base, sizeof(base));
		for (unsigned k = 2;; k++) {
			uint32_t j = 0;

			while (j < i && strcmp(v[j], v[i]))
				j++;
			if (j == i)
				break;
			snprintf(v[i], CTF_ID_MAX, "%.240s_%u", base, k);	/* base: 240 bytes at most */
		}
	}
	return v;
}

/* A string literal of TSDL (quotes and backslashes escaped). */
void ctf_quoted(FILE *m, const char *s)
{
	fputc('"', m);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', m);
		if ((unsigned char)*s >= 0x20)
			fputc(*s, m);
	}
	fputc('"', m);
}

static void indent(FILE *m, int depth)
{
	for (int i = 0; i < depth; i++)
		fputc('\t', m);
}

static void int_type(FILE *m, unsigned bytes, int is_signed)
{
	fprintf(m, "integer { size = %u; align = 8; signed = %s; }", bytes * 8, is_signed ? "true" : "false");
}

static void decl(FILE *m, const struct ltt_type_desc *t, const char *name, int in_struct, enum ltt_arch_size arch,
		 int depth);

/* The fields of a sequence or union, as two declarations of a struct: length + elements, or tag +
 * variant, named after `name` (in a struct) or the wrapper's fixed names. */
static void two_fields(FILE *m, const struct ltt_type_desc *t, const char *name, int wrapped,
		       enum ltt_arch_size arch, int depth)
{
	char aux[300], buf[620], (*names)[CTF_ID_MAX];

	if (t->kind == LTT_TYPE_SEQUENCE) {
		snprintf(aux, sizeof(aux), wrapped ? "ltt_len" : "ltt_len_%.280s", name);
		indent(m, depth);
		int_type(m, ltt_size_bytes(t->size, arch), 0);
		fprintf(m, " %s;\n", aux);
		snprintf(buf, sizeof(buf), "%s[%s]", wrapped ? "ltt_seq" : name, aux);
		decl(m, t->element, buf, 0, arch, depth);
		return;
	}
	snprintf(aux, sizeof(aux), wrapped ? "ltt_tag" : "ltt_tag_%.280s", name);
	indent(m, depth);
	fputs("enum : ", m);
	int_type(m, ltt_size_bytes(t->size, arch), 0);
	fputs(" { ", m);
	names = ctf_field_names(t);	/* the variant's names are its tag's labels */
	for (uint32_t i = 0; names && i < t->n_fields; i++) {
		if (i)
			fputs(", ", m);
		ctf_quoted(m, names[i]);
		fprintf(m, " = %u", i);
	}
	fprintf(m, " } %s;\n", aux);
	indent(m, depth);
	fprintf(m, "variant <%s> {\n", aux);
	for (uint32_t i = 0; names && i < t->n_fields; i++)
		decl(m, t->fields[i].type, names[i], 0, arch, depth + 1);
	free(names);
	indent(m, depth);
	fprintf(m, "} %s;\n", wrapped ? "ltt_un" : name);
}

/* The type specifier of t (no name): scalars, structs, and the wrapper struct of a sequence or union. */
static void type_spec(FILE *m, const struct ltt_type_desc *t, enum ltt_arch_size arch, int depth)
{
	char (*names)[CTF_ID_MAX];

	switch (t->kind) {
	case LTT_TYPE_INT:
	case LTT_TYPE_UINT:
		int_type(m, ltt_size_bytes(t->size, arch), t->kind == LTT_TYPE_INT);
		return;
	case LTT_TYPE_FLOAT:
		if (ltt_float_bytes(t->size) == 4)
			fputs("floating_point { exp_dig = 8; mant_dig = 24; align = 8; }", m);
		else
			fputs("floating_point { exp_dig = 11; mant_dig = 53; align = 8; }", m);
		return;
	case LTT_TYPE_STRING:
		fputs("string", m);
		return;
	case LTT_TYPE_ENUM:
		fputs("enum : ", m);
		int_type(m, ltt_size_bytes(t->size, arch), 0);
		fputs(" { ", m);
		for (uint32_t i = 0; i < t->n_labels; i++) {
			if (i)
				fputs(", ", m);
			ctf_quoted(m, t->labels[i].name);
			fprintf(m, " = %llu", (unsigned long long)t->labels[i].value);
		}
		fputs(" }", m);
		return;
	case LTT_TYPE_STRUCT:
		fputs("struct {\n", m);
		names = ctf_field_names(t);
		for (uint32_t i = 0; names && i < t->n_fields; i++)
			decl(m, t->fields[i].type, names[i], 1, arch, depth + 1);
		free(names);
		indent(m, depth);
		fputs("}", m);
		return;
	case LTT_TYPE_SEQUENCE:
	case LTT_TYPE_UNION:
		fputs("struct {\n", m);
		two_fields(m, t, "", 1, arch, depth + 1);
		indent(m, depth);
		fputs("}", m);
		return;
	default:		/* arrays are declarators (decl) */
		fputs("struct { }", m);
		return;
	}
}

static void decl(FILE *m, const struct ltt_type_desc *t, const char *name, int in_struct, enum ltt_arch_size arch,
		 int depth)
{
	char dims[256] = "";
	size_t used = 0;

	if ((t->kind == LTT_TYPE_SEQUENCE || t->kind == LTT_TYPE_UNION) && in_struct) {
		two_fields(m, t, name, 0, arch, depth);
		return;
	}
	while (t->kind == LTT_TYPE_ARRAY && used + 16 < sizeof(dims)) {
		used += (size_t)snprintf(dims + used, sizeof(dims) - used, "[%u]", t->array_len);
		t = t->element;
	}
	indent(m, depth);
	type_spec(m, t, arch, depth);
	fprintf(m, " %s%s;\n", name, dims);
}

int ctf_body_decl(FILE *m, const struct ltt_type_desc *body, enum ltt_arch_size arch)
{
	char (*names)[CTF_ID_MAX] = NULL;

	nomem = 0;
	fputs("\tfields := struct {\n", m);
	if (body && body->kind == LTT_TYPE_STRUCT)
		names = ctf_field_names(body);
	for (uint32_t i = 0; names && i < body->n_fields; i++)
		decl(m, body->fields[i].type, names[i], 1, arch, 2);
	free(names);
	fputs("\t};\n", m);
	return nomem ? -ENOMEM : 0;
}
