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
 * ltt_len + ltt_seq or ltt_tag + ltt_un. Names that are TSDL keywords, or start with '_', get a '_'
 * in front, which CTF 1.8 readers remove. */
#include <stdio.h>
#include <string.h>

#include "ctf.h"

static const char *const tsdl_keywords[] = {
	"align", "callsite", "const", "char", "clock", "double", "enum", "env", "event", "floating_point",
	"float", "integer", "int", "long", "short", "signed", "stream", "string", "struct", "trace",
	"typealias", "typedef", "unsigned", "variant", "void", "_Bool", "_Complex", "_Imaginary", NULL,
};

const char *ctf_name(const char *name, char *buf, size_t len)
{
	int esc = name[0] == '_';

	for (size_t i = 0; !esc && tsdl_keywords[i]; i++)
		esc = !strcmp(name, tsdl_keywords[i]);
	if (!esc)
		return name;
	snprintf(buf, len, "_%s", name);
	return buf;
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
	char aux[300], buf[620];
	const char *n;

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
	for (uint32_t i = 0; i < t->n_fields; i++) {
		if (i)
			fputs(", ", m);
		ctf_quoted(m, ctf_name(t->fields[i].name, buf, sizeof(buf)));
		fprintf(m, " = %u", i);
	}
	fprintf(m, " } %s;\n", aux);
	indent(m, depth);
	fprintf(m, "variant <%s> {\n", aux);
	for (uint32_t i = 0; i < t->n_fields; i++) {
		n = ctf_name(t->fields[i].name, buf, sizeof(buf));
		decl(m, t->fields[i].type, n, 0, arch, depth + 1);
	}
	indent(m, depth);
	fprintf(m, "} %s;\n", wrapped ? "ltt_un" : name);
}

/* The type specifier of t (no name): scalars, structs, and the wrapper struct of a sequence or union. */
static void type_spec(FILE *m, const struct ltt_type_desc *t, enum ltt_arch_size arch, int depth)
{
	char buf[300];

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
		for (uint32_t i = 0; i < t->n_fields; i++)
			decl(m, t->fields[i].type, ctf_name(t->fields[i].name, buf, sizeof(buf)), 1, arch, depth + 1);
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

void ctf_body_decl(FILE *m, const struct ltt_type_desc *body, enum ltt_arch_size arch)
{
	char buf[300];

	fputs("\tfields := struct {\n", m);
	for (uint32_t i = 0; body && body->kind == LTT_TYPE_STRUCT && i < body->n_fields; i++)
		decl(m, body->fields[i].type, ctf_name(body->fields[i].name, buf, sizeof(buf)), 1, arch, 2);
	fputs("\t};\n", m);
}
