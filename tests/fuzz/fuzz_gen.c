/* SPDX-License-Identifier: MIT */
/* libFuzzer target: `ltt gen`, input to output. The input is a facility file; every facility the parser
 * accepts must generate a header (or be refused with one line: a name that is not a C identifier, a
 * collision), and the header must pass a cheap syntax check: brackets, parentheses and braces balance
 * outside comments and literals, every literal and comment closes, no control character but tab and
 * newline. (tests/e2e/eventdefs_gen_corpus_compiles.sh compiles the headers of the seed corpus with the C
 * compiler.) The generator (tools/gen/gen_facility.c and its helpers) is linked by the fuzz rule's
 * convention: fuzz_NAME.c gets tools/NAME/ but its cmd_*.c. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ltt/eventdefs.h>

#include "tools/gen/gen.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* 0 when the C text is lexically sound and its brackets balance. */
static int syntax_ok(const char *s, size_t n)
{
	char stack[256];
	size_t depth = 0;

	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if ((unsigned char)c < 32 && c != '\n' && c != '\t')
			return 1;
		if (c == '/' && i + 1 < n && s[i + 1] == '*') {
			const char *e = memmem(s + i + 2, n - i - 2, "*/", 2);

			if (!e)
				return 2;
			i = (size_t)(e - s) + 1;
		} else if (c == '/' && i + 1 < n && s[i + 1] == '/') {
			while (i < n && s[i] != '\n')
				i++;
		} else if (c == '"' || c == '\'') {
			for (i++; i < n && s[i] != c; i++) {
				if (s[i] == '\n')
					return 3;	/* a literal never spans lines */
				if (s[i] == '\\')
					i++;
			}
			if (i >= n)
				return 3;
		} else if (c == '(' || c == '[' || c == '{') {
			if (depth == sizeof(stack))
				return 4;
			stack[depth++] = c == '(' ? ')' : c == '[' ? ']' : '}';
		} else if (c == ')' || c == ']' || c == '}') {
			if (!depth || stack[--depth] != c)
				return 5;
		}
	}
	return depth ? 6 : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ltt_eventdefs *defs;
	char err[512];

	if (ltt_eventdefs_parse_mem((const char *)data, size, "fuzz.xml", &defs, err, sizeof(err)))
		return 0;
	for (uint32_t k = 0; k < defs->n_facilities; k++) {
		struct gen g = { .fac = &defs->facilities[k], .names.strings = 1 };

		if (gen_facility(&g)) {
			if (!g.o.nomem && (!g.err[0] || strchr(g.err, '\n')))
				abort();	/* refused: one line saying why */
		} else if (syntax_ok(g.o.buf, g.o.len)) {
			fprintf(stderr, "generated header fails the syntax check (%d):\n%.*s\n",
				syntax_ok(g.o.buf, g.o.len), (int)g.o.len, g.o.buf);
			abort();
		}
		gen_free(&g);
	}
	ltt_eventdefs_free(defs);
	return 0;
}
