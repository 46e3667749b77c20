/* SPDX-License-Identifier: MIT */
/* toolkit/symbolize.c: addresses of stack samples to functions, through the ELF symbol tables and
 * DWARF of the binaries the trace's core.mapping events name (elfutils' libdwfl; separate debug files
 * are found the standard way, /usr/lib/debug and build ids). A binary that is absent, unreadable or
 * has another build id than the recorded one is not used: its addresses stay addresses. */
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "toolkit/profile.h"

struct prof_map {
	uint64_t start, end;
	char *path;
	Dwfl_Module *mod;	/* NULL: no usable binary */
};

struct prof_symbolizer {
	Dwfl *dwfl;
	struct prof_map *maps;
	size_t nmaps, cap;
};

static char *debuginfo_path;
static const Dwfl_Callbacks callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.debuginfo_path = &debuginfo_path,
};

struct prof_symbolizer *prof_sym_new(void)
{
	struct prof_symbolizer *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->dwfl = dwfl_begin(&callbacks);
	if (!s->dwfl) {
		free(s);
		return NULL;
	}
	return s;
}

void prof_sym_free(struct prof_symbolizer *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nmaps; i++)
		free(s->maps[i].path);
	free(s->maps);
	dwfl_end(s->dwfl);
	free(s);
}

/* The module already reported for path at base, if any (a file has several executable mappings only
 * when it is loaded twice). */
static Dwfl_Module *reported(struct prof_symbolizer *s, const char *path, uint64_t start)
{
	for (size_t i = 0; i < s->nmaps; i++)
		if (s->maps[i].mod && s->maps[i].start == start && !strcmp(s->maps[i].path, path))
			return s->maps[i].mod;
	return NULL;
}

void prof_sym_mapping(struct prof_symbolizer *s, uint64_t start, uint64_t end, uint64_t offset,
		      const unsigned char *build_id, unsigned idlen, const char *path)
{
	struct prof_map *m;
	Dwfl_Module *mod = NULL;

	/* a later mapping of the same range replaces what was there (dlclose, then dlopen) */
	for (size_t i = 0; i < s->nmaps; i++)
		if (s->maps[i].start < end && start < s->maps[i].end) {
			if (s->maps[i].start == start && s->maps[i].end == end && !strcmp(s->maps[i].path, path))
				return;	/* the same mapping recorded again */
			s->maps[i].start = s->maps[i].end = 0;
		}
	if (s->nmaps == s->cap) {
		size_t ncap = s->cap ? 2 * s->cap : 32;
		struct prof_map *n = realloc(s->maps, ncap * sizeof(*n));

		if (!n)
			return;
		s->maps = n;
		s->cap = ncap;
	}
	if (path[0] == '/' && !(mod = reported(s, path, start))) {
		const unsigned char *bits;
		GElf_Addr vaddr;
		int n;

		dwfl_report_begin_add(s->dwfl);
		/* ET_DYN: placed at start - offset (segments map at their file offsets); ET_EXEC: ignored */
		mod = dwfl_report_elf(s->dwfl, path, path, -1, start - offset, false);
		dwfl_report_end(s->dwfl, NULL, NULL);
		if (mod && idlen) {
			n = dwfl_module_build_id(mod, &bits, &vaddr);
			if (n != (int)idlen || memcmp(bits, build_id, idlen))
				mod = NULL;	/* another binary than the one that ran */
		}
	}
	m = &s->maps[s->nmaps++];
	m->start = start;
	m->end = end;
	m->path = strdup(path);
	m->mod = mod;
	if (!m->path)
		s->nmaps--;
}

int prof_sym_lookup(struct prof_symbolizer *s, uint64_t addr, struct prof_symbol *out)
{
	memset(out, 0, sizeof(*out));
	out->start = addr;
	for (size_t i = 0; i < s->nmaps; i++) {
		struct prof_map *m = &s->maps[i];
		GElf_Off off = 0;
		GElf_Sym sym;
		const char *name;

		if (addr < m->start || addr >= m->end)
			continue;
		out->module = m->path;
		if (!m->mod)
			return 0;
		name = dwfl_module_addrinfo(m->mod, addr, &off, &sym, NULL, NULL, NULL);
		if (name) {
			out->name = name;
			out->start = addr - off;
			out->size = sym.st_size;
		}
		return 0;
	}
	return 0;
}
