/* SPDX-License-Identifier: MIT */
/* recorder/func_select.c: which functions function tracing records, by symbol
 * (LTT_FUNCTIONS='my_*,-my_hot_leaf'; doc/recorder.md "Function tracing"). The rules are LTT_EVENTS'
 * (eventdefs/rules_match.h) on symbol names: the last glob that matches decides, a name none matches
 * is recorded when the first rule excludes.
 *
 * At start, the function symbols of every loaded object (.symtab, else .dynsym, of the file
 * dl_iterate_phdr names) are matched once against the rules into a table sorted by address. A hook
 * asks for an address through a cache: 16384 slots of (address, decision), open addressing, filled
 * by compare-and-swap, never evicted. A miss is a binary search of the table, and fills a free slot of
 * its probe window (8 slots) if there is one. No lock, no allocation, no system call after the start:
 * safe in a signal handler. Objects loaded after the start (dlopen) are not in the table: their
 * functions count as matching no rule. */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/grow.h"
#include "common/io.h"
#include "eventdefs/rules_match.h"
#include "func_internal.h"
#include "recorder.h"

#define CACHE_SLOTS	16384u
#define CACHE_PROBE	8u

struct fsym {
	uint64_t start, end;
	uint32_t sel;
};

static char rules[LTT_RULES_MAX + 1];
static int unmatched;			/* the decision for a name no rule matches */
static struct fsym *syms;		/* sorted by start */
static size_t nsyms, cap;
static uint64_t cache[CACHE_SLOTS];	/* addr << 1 | decision; 0: free */
static int args_wanted;			/* func_args.c matches the symbols too */

int ltt_func_rules_set(const char *text, char *why, size_t n)
{
	char w[256];
	const char *p = text, *b, *e;

	if (ltt_rules_check(text, w, sizeof(w)) < 0) {
		snprintf(why, n, "LTT_FUNCTIONS: %s (a comma-separated list of symbol globs, '-' before one "
			 "excludes, or 1 for every function)", w);
		return -EINVAL;
	}
	if (!text)
		text = "";
	memcpy(rules, text, strlen(text) + 1);	/* at most LTT_RULES_MAX bytes: checked */
	unmatched = ltt_rules_item(&p, &b, &e) ? *b == '-' : 1;
	return 0;
}

static uint32_t name_selected(const char *name)
{
	const char *p = rules, *b, *e;
	uint32_t sel = (uint32_t)unmatched;

	while (ltt_rules_item(&p, &b, &e))
		if (ltt_rule_glob(*b == '-' ? b + 1 : b, e, name))
			sel = *b != '-';
	return sel;
}

static int add(uint64_t start, uint64_t size, const char *name);

/* A library call's stub (func_plt.c) as a function of its own. */
static void add_stub(uint64_t start, uint64_t size, const char *name)
{
	add(start, size, name);
}

static int add(uint64_t start, uint64_t size, const char *name)
{
	if (LTT_GROW_FROM(syms, nsyms + 1, cap, 4096))
		return -ENOMEM;
	syms[nsyms].start = start;
	syms[nsyms].end = start + (size ? size : 1);
	syms[nsyms].sel = name_selected(name);
	nsyms++;
	if (args_wanted)
		ltt_func_args_symbol(start, size, name);
	return 0;
}

/* The function symbols of the ELF file at path, loaded at base. */
static void read_object(const char *path, uint64_t base)
{
	struct stat st;
	const unsigned char *m;
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh;
	int fd = ltt_open_regular(path, 0, &st);	/* never a FIFO or device (it would block) */
	size_t size;

	if (fd < 0)
		return;
	if (st.st_size < (off_t)sizeof(Elf64_Ehdr)) {
		close(fd);
		return;
	}
	size = (size_t)st.st_size;
	m = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return;
	eh = (const Elf64_Ehdr *)m;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shoff > size ||
	    (size - eh->e_shoff) / sizeof(Elf64_Shdr) < eh->e_shnum)
		goto out;
	sh = (const Elf64_Shdr *)(m + eh->e_shoff);
	for (int pass = 0; pass < 2; pass++) {
		unsigned want = pass ? SHT_DYNSYM : SHT_SYMTAB, found = 0;

		for (unsigned i = 0; i < eh->e_shnum; i++) {
			const Elf64_Shdr *s = &sh[i], *str;

			if (s->sh_type != want || s->sh_link >= eh->e_shnum || s->sh_offset > size ||
			    s->sh_size > size - s->sh_offset)
				continue;
			str = &sh[s->sh_link];
			if (str->sh_offset > size || str->sh_size > size - str->sh_offset || !str->sh_size)
				continue;
			found = 1;
			for (uint64_t k = 0; k < s->sh_size / sizeof(Elf64_Sym); k++) {
				const Elf64_Sym *y = (const Elf64_Sym *)(m + s->sh_offset) + k;
				const char *nm = (const char *)m + str->sh_offset + y->st_name;
				unsigned t = ELF64_ST_TYPE(y->st_info);

				if ((t != STT_FUNC && t != STT_GNU_IFUNC) || y->st_shndx == SHN_UNDEF ||
				    !y->st_value || y->st_name >= str->sh_size ||
				    !memchr(nm, 0, str->sh_size - y->st_name))
					continue;
				if (add(base + y->st_value, y->st_size, nm) < 0)
					goto out;
			}
		}
		if (found)
			break;
	}
out:
	munmap((void *)m, size);
}

static int object_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
	const char *name = info->dlpi_name;

	(void)size;
	(void)arg;
	if (!name || !*name)
		read_object("/proc/self/exe", info->dlpi_addr);
	else if (name[0] == '/')
		read_object(name, info->dlpi_addr);
	return 0;
}

static int by_start(const void *a, const void *b)
{
	const struct fsym *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

int ltt_func_rules_build(void)
{
	size_t k = 0;

	ltt_func_rules_free();
	args_wanted = ltt_func_args_wanted();
	ltt_func_args_reset();
	dl_iterate_phdr(object_cb, NULL);
	ltt_func_plt_symbols(add_stub);
	qsort(syms, nsyms, sizeof(*syms), by_start);
	/* aliases (one address, several names): selected when any name is */
	for (size_t i = 0; i < nsyms; i++) {
		if (k && syms[k - 1].start == syms[i].start) {
			syms[k - 1].sel |= syms[i].sel;
			if (syms[i].end > syms[k - 1].end)
				syms[k - 1].end = syms[i].end;
			continue;
		}
		syms[k++] = syms[i];
	}
	nsyms = k;
	k = 0;
	for (size_t i = 0; i < nsyms; i++)
		k += syms[i].sel != 0;
	return k > INT32_MAX ? INT32_MAX : (int)k;
}

void ltt_func_rules_free(void)
{
	/* Between traces only (ltt_func_rules_build() at the next start): the hooks are off then. A
	 * hook of another thread that saw tracing on just before the stop and is still searching the
	 * table when the next trace starts could read a table being rebuilt; the window is a few
	 * instructions wide and the hook's answer would only choose whether one call is recorded. */
	nsyms = 0;
	memset(cache, 0, sizeof(cache));
}

__attribute__((no_instrument_function)) static uint32_t lookup(uint64_t addr)
{
	size_t lo = ltt_func_upper(syms, nsyms, sizeof(*syms), addr);

	if (lo && addr < syms[lo - 1].end)
		return syms[lo - 1].sel;
	return (uint32_t)unmatched;
}

__attribute__((no_instrument_function)) int ltt_func_selected(uint64_t addr)
{
	uint64_t h = (addr * 0x9E3779B97F4A7C15ull) >> 50, key = addr << 1, v;
	uint32_t sel;

	for (unsigned i = 0; i < CACHE_PROBE; i++) {
		v = __atomic_load_n(&cache[(h + i) & (CACHE_SLOTS - 1)], __ATOMIC_RELAXED);
		if ((v & ~1ull) == key)
			return (int)(v & 1);
		if (!v)
			break;
	}
	sel = lookup(addr);
	for (unsigned i = 0; i < CACHE_PROBE; i++) {
		uint64_t *c = &cache[(h + i) & (CACHE_SLOTS - 1)], z = 0;

		/* Relaxed: a slot holds its whole meaning in one word; a reader that misses it looks up
		 * again, which gives the same answer. */
		if (__atomic_compare_exchange_n(c, &z, key | sel, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
			break;
		if ((z & ~1ull) == key)
			break;
	}
	return (int)sel;
}
