/* SPDX-License-Identifier: MIT */
/* toolkit/symbolize.c: addresses of stack samples to functions, through the ELF symbol tables and
 * DWARF of the binaries the trace's core.mapping events name (elfutils' libdwfl; separate debug files
 * are found the standard way, /usr/lib/debug and build ids). A binary that is absent, unreadable or
 * has another build id than the recorded one is not used: its addresses stay addresses. An address in
 * a PLT (.plt, .plt.sec, .plt.got: x86-64 stubs, which have no symbol) is named NAME@plt after the
 * symbol of the relocation of the GOT slot its stub jumps through. */
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"

#include "toolkit/profile.h"

struct prof_map {
	uint64_t start, end, offset;	/* offset: of start in the file */
	char *path;
	Dwfl_Module *mod;	/* NULL: no usable binary */
};

struct prof_symbolizer {
	Dwfl *dwfl;
	struct prof_map *maps;
	size_t nmaps, cap;
	char **names;		/* NAME@plt strings made so far */
	size_t nnames, cap_names;
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
	for (size_t i = 0; i < s->nnames; i++)
		free(s->names[i]);
	free(s->names);
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
	if (LTT_GROW(s->maps, s->nmaps + 1, s->cap))
		return;
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
	m->offset = offset;
	m->path = strdup(path);
	m->mod = mod;
	if (!m->path)
		s->nmaps--;
}

/* The symbol of the relocation (JUMP_SLOT, GLOB_DAT) of the GOT slot at got, or NULL. */
static const char *got_symbol(Elf *elf, GElf_Addr got)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh, lsh;
		Elf_Data *d, *ld;
		Elf_Scn *lscn;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA || !sh.sh_entsize ||
		    !(d = elf_getdata(scn, NULL)) || !(lscn = elf_getscn(elf, sh.sh_link)) ||
		    !gelf_getshdr(lscn, &lsh) || !(ld = elf_getdata(lscn, NULL)))
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Rela r;
			GElf_Sym sym;

			if (!gelf_getrela(d, (int)i, &r) || r.r_offset != got)
				continue;
			if (!GELF_R_SYM(r.r_info) || !gelf_getsym(ld, (int)GELF_R_SYM(r.r_info), &sym))
				return NULL;
			return elf_strptr(elf, lsh.sh_link, sym.st_name);
		}
	}
	return NULL;
}

/* NAME@plt when addr is in a PLT stub of mod (its start in *start), else NULL. */
static const char *plt_name(struct prof_symbolizer *s, Dwfl_Module *mod, uint64_t addr, uint64_t *start)
{
	GElf_Addr bias;
	Elf *elf = dwfl_module_getelf(mod, &bias);
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (!elf || elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Addr rel = addr - bias, ent, got;
		const unsigned char *p;
		const char *sec, *name;
		GElf_Shdr sh;
		Elf_Data *d;
		size_t es, j;
		char *n;
		int32_t disp;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS || rel < sh.sh_addr ||
		    rel >= sh.sh_addr + sh.sh_size || !(sec = elf_strptr(elf, shstrndx, sh.sh_name)) ||
		    (strcmp(sec, ".plt") && strcmp(sec, ".plt.sec") && strcmp(sec, ".plt.got")))
			continue;
		es = sh.sh_entsize >= 8 && sh.sh_entsize <= 64 ? sh.sh_entsize : 16;
		ent = sh.sh_addr + (rel - sh.sh_addr) / es * es;
		d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf || ent - sh.sh_addr + es > d->d_size)
			return NULL;
		p = (const unsigned char *)d->d_buf + (ent - sh.sh_addr);
		/* the stub's jmp *disp32(%rip) (ff 25), after an endbr64 and a bnd prefix if any; the
		 * first .plt entry (push, then jmp through the GOT's third slot) has no relocation */
		for (j = 0; j + 6 <= es && !(p[j] == 0xff && p[j + 1] == 0x25); j++)
			;
		if (j + 6 > es)
			return NULL;
		memcpy(&disp, p + j + 2, 4);
		got = ent + j + 6 + (GElf_Addr)(int64_t)disp;
		name = got_symbol(elf, got);
		if (!name || !*name)
			return NULL;
		if (LTT_GROW(s->names, s->nnames + 1, s->cap_names))
			return NULL;
		if (asprintf(&n, "%s@plt", name) < 0)
			return NULL;
		s->names[s->nnames++] = n;
		*start = ent + bias;
		return n;
	}
	return NULL;
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
		out->offset = addr - m->start + m->offset;
		if (!m->mod)
			return 0;
		name = plt_name(s, m->mod, addr, &out->start);
		if (name) {
			out->name = name;
			return 0;
		}
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
