// SPDX-License-Identifier: MIT
/* recorder/func_plt.c: library calls through the PLT (doc/recorder.md "Function tracing", library
 * calls), as uftrace records them by default: the program's calls of memcpy, malloc, getppid..., which
 * no hook of the program sees (the libraries are not built with them).
 *
 * At start, the main program's PLT relocations (DT_JMPREL: R_X86_64_JUMP_SLOT, each a GOT slot and a
 * symbol of .dynsym) are read from its dynamic section in memory. Each slot gets the real address of
 * its function: the one the slot holds when the dynamic linker bound it already (BIND_NOW, -z now, or a
 * call made before), else the symbol looked up as the dynamic linker would (dlsym: the first definition
 * in the global scope; dlvsym with the version the program asks for when there is no default one; a
 * program that asks for an old version of a symbol that has a newer default gets the default): with lazy binding, _dl_runtime_resolve would otherwise write
 * over the slot at the first call. Then the slot is pointed at a stub of its own (an executable page
 * mapped here: `lea` of its own address into r11, then a jump to ltt_func_plt_common; the function's
 * address is in the stub), and the slots inside PT_GNU_RELRO
 * (full RELRO) are made read-only again.
 *
 * ltt_func_plt_common (func_x86_64.S) saves the argument registers as mcount does and calls
 * ltt_func_plt_enter() here, which treats the call as a -pg entry of the stub's address
 * (ltt_func_pg_entry: shadow frame, rules, depth, arguments, the caller's return address replaced by
 * ltt_func_pg_return, so the exit is recorded as a -pg function's), and jumps to the function. Off, the
 * stub costs a load and an indirect jump. Each stub's name is recorded once, persistent, as
 * func.symbol (the reader names the calls by it: the plain symbol name, as uftrace's replay shows it),
 * and given to the symbol rules and argument specs (func_select.c), so `--functions='-memcpy'` and
 * `-A 'getppid@retval'` work on library calls too.
 *
 * Not traced: functions that return twice or not at all, or that look at their caller (setjmp,
 * vfork, longjmp, exit, dlopen, dlsym...: a replaced return address would break them), the hooks
 * themselves (mcount, __fentry__, __cyg_profile_func_*), and everything when libltt is linked into the
 * program (libltt.a): its own calls would go through the program's PLT. Only the main program's PLT:
 * libraries' calls of each other are not recorded (uftrace's default too). */
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "func_internal.h"
#include "recorder.h"
#include "ring.h"

#define LTT_GEN_REGISTER(fac) 0
#include "func.h"

#define NOINST	    __attribute__((no_instrument_function))
#define EV_SYMBOL   6  /* func.symbol's index in eventdefs/func.xml */
#define STUB_SIZE   32 /* lea (7), jmp *(6), pad, the function at 16, ltt_func_plt_common at 24 */
#define STUB_TARGET 16
#define PLT_MAX	    4096 /* slots traced at most */

struct plt_slot {
	uint64_t *got;
	const char *name; /* in the program's .dynstr */
};

static struct plt_slot slots[PLT_MAX];
static unsigned nslots;
static unsigned char *stubs; /* PLT_MAX * STUB_SIZE bytes, executable */
static int installed;

void ltt_func_plt_common(void); /* func_x86_64.S */

/* Never traced (see above). */
static int excluded(const char *n)
{
	static const char *const names[] = {
		"mcount",
		"_mcount",
		"__fentry__",
		"__cyg_profile_func_enter",
		"__cyg_profile_func_exit",
		"setjmp",
		"_setjmp",
		"sigsetjmp",
		"__sigsetjmp",
		"savectx",
		"getcontext",
		"swapcontext",
		"setcontext",
		"makecontext",
		"vfork",
		"fork",
		"clone",
		"clone3",
		"longjmp",
		"_longjmp",
		"siglongjmp",
		"__longjmp_chk",
		"exit",
		"_exit",
		"_Exit",
		"quick_exit",
		"abort",
		"pthread_exit",
		"__stack_chk_fail",
		"__assert_fail",
		"__fortify_fail",
		"__chk_fail",
		"err",
		"errx",
		"verr",
		"verrx",
		"__libc_start_main",
		"__cxa_finalize",
		"__cxa_atexit",
		"atexit",
		"__cxa_throw",
		"__cxa_rethrow",
		"_Unwind_Resume",
		"_Unwind_RaiseException",
		"dlopen",
		"dlmopen",
		"dlclose",
		"dlsym",
		"dlvsym",
		"dladdr",
		"dladdr1",
		"dlerror",
		"dlinfo",
		"__tls_get_addr",
		"__gmon_start__",
		"__monstartup",
		"_mcleanup",
		"execve",
		"execv",
		"execvp",
		"execvpe",
		"execl",
		"execle",
		"execlp",
		"fexecve",
		"posix_spawn",
		"posix_spawnp",
		"system",
	};

	static const char *const prefixes[] = { "__asan_", "__ubsan_", "__tsan_", "__msan_", "__lsan_",
						"__sanitizer_" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(n, names[i]))
			return 1;
	/* the sanitizers' runtime: instrumentation the compiler added, not the program's calls */
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(n, prefixes[i], strlen(prefixes[i])))
			return 1;
	return 0;
}

/* The version the program asks for symbol index si (.gnu.version_r), or NULL. */
static const char *version_of(const Elf64_Half *versym, const Elf64_Verneed *vn, const char *strtab,
			      size_t si)
{
	Elf64_Half want;

	if (!versym || !vn)
		return NULL;
	want = versym[si] & 0x7fff;
	if (want < 2)
		return NULL; /* local or global: no version */
	for (;;) {
		const Elf64_Vernaux *a = (const Elf64_Vernaux *)((const char *)vn + vn->vn_aux);

		for (unsigned k = 0; k < vn->vn_cnt; k++) {
			if (a->vna_other == want)
				return strtab + a->vna_name;
			if (!a->vna_next)
				break;
			a = (const Elf64_Vernaux *)((const char *)a + a->vna_next);
		}
		if (!vn->vn_next)
			return NULL;
		vn = (const Elf64_Verneed *)((const char *)vn + vn->vn_next);
	}
}

struct exe {
	uint64_t base, lo, hi;	   /* load bias; the program's mapped range */
	uint64_t relro, relro_end; /* PT_GNU_RELRO, or 0 */
	const Elf64_Dyn *dyn;
	int found;
};

static int exe_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct exe *e = arg;

	(void)size;
	if (info->dlpi_name && info->dlpi_name[0])
		return 0; /* the main program is the one without a name, first */
	e->base = info->dlpi_addr;
	e->lo = UINT64_MAX;
	for (unsigned i = 0; i < info->dlpi_phnum; i++) {
		const Elf64_Phdr *p = &info->dlpi_phdr[i];

		if (p->p_type == PT_LOAD) {
			if (e->base + p->p_vaddr < e->lo)
				e->lo = e->base + p->p_vaddr;
			if (e->base + p->p_vaddr + p->p_memsz > e->hi)
				e->hi = e->base + p->p_vaddr + p->p_memsz;
		} else if (p->p_type == PT_DYNAMIC) {
			e->dyn = (const Elf64_Dyn *)(e->base + p->p_vaddr);
		} else if (p->p_type == PT_GNU_RELRO) {
			e->relro = e->base + p->p_vaddr;
			e->relro_end = e->relro + p->p_memsz;
		}
	}
	e->found = 1;
	return 1;
}

/* The dynamic section's pointers are addresses once relocated (glibc relocates them in place), but
 * offsets from the base in some objects (vDSO, or a static PIE): both accepted. */
static uint64_t dyn_ptr(const struct exe *e, uint64_t v)
{
	return v >= e->lo && v < e->hi ? v : e->base + v;
}

int ltt_func_plt_install(void)
{
	struct exe e = { 0 };
	const Elf64_Rela *rela = NULL;
	const Elf64_Sym *symtab = NULL;
	const char *strtab = NULL;
	const Elf64_Half *versym = NULL;
	const Elf64_Verneed *verneed = NULL;
	uint64_t relsz = 0, page = (uint64_t)sysconf(_SC_PAGESIZE);

	if (installed)
		return (int)nslots;
	dl_iterate_phdr(exe_cb, &e);
	if (!e.found || !e.dyn)
		return 0; /* a static program: no PLT */
	/* libltt linked into the program: its own calls would be the program's */
	if ((uint64_t)(uintptr_t)ltt_func_plt_install >= e.lo &&
	    (uint64_t)(uintptr_t)ltt_func_plt_install < e.hi)
		return -ENOTSUP;
	for (const Elf64_Dyn *d = e.dyn; d->d_tag != DT_NULL; d++) {
		switch (d->d_tag) {
		case DT_JMPREL:
			rela = (const Elf64_Rela *)dyn_ptr(&e, d->d_un.d_ptr);
			break;
		case DT_PLTRELSZ:
			relsz = d->d_un.d_val;
			break;
		case DT_SYMTAB:
			symtab = (const Elf64_Sym *)dyn_ptr(&e, d->d_un.d_ptr);
			break;
		case DT_STRTAB:
			strtab = (const char *)dyn_ptr(&e, d->d_un.d_ptr);
			break;
		case DT_VERSYM:
			versym = (const Elf64_Half *)dyn_ptr(&e, d->d_un.d_ptr);
			break;
		case DT_VERNEED:
			verneed = (const Elf64_Verneed *)dyn_ptr(&e, d->d_un.d_ptr);
			break;
		default:
			break;
		}
	}
	if (!rela || !symtab || !strtab || !relsz)
		return 0;
	stubs = mmap(NULL, PLT_MAX * STUB_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (stubs == MAP_FAILED) {
		stubs = NULL;
		return -ENOMEM;
	}
	for (size_t i = 0; i < relsz / sizeof(*rela) && nslots < PLT_MAX; i++) {
		const Elf64_Rela *r = &rela[i];
		size_t si = ELF64_R_SYM(r->r_info);
		const char *name = strtab + symtab[si].st_name, *ver;
		uint64_t *got = (uint64_t *)(uintptr_t)(e.base + r->r_offset), cur = *got, target;

		if (ELF64_R_TYPE(r->r_info) != R_X86_64_JUMP_SLOT || !si || !*name || excluded(name))
			continue;
		if (cur >= e.lo && cur < e.hi) { /* lazy: not bound yet (points into our PLT) */
			/* the first definition in the global scope, as the dynamic linker binds: an
			 * unversioned one (libltt's own sigaction, longjmp...) satisfies a versioned
			 * reference, which dlvsym would skip; dlvsym only when no default version exists */
			void *f = dlsym(RTLD_DEFAULT, name);

			if (!f && (ver = version_of(versym, verneed, strtab, si)))
				f = dlvsym(RTLD_DEFAULT, name, ver);
			if (!f)
				continue; /* weak and undefined: left alone */
			target = (uint64_t)(uintptr_t)f;
		} else {
			target = cur;
		}
		{
			/* lea -7(%rip), %r11 (the stub's own address); jmp *11(%rip) (the word at 24) */
			static const unsigned char code[13] = { 0x4c, 0x8d, 0x1d, 0xf9, 0xff, 0xff, 0xff,
								0xff, 0x25, 0x0b, 0x00, 0x00, 0x00 };
			unsigned char *st = stubs + nslots * STUB_SIZE;
			uint64_t common = (uint64_t)(uintptr_t)ltt_func_plt_common;

			memcpy(st, code, sizeof(code));
			memset(st + 13, 0xcc, 3);
			memcpy(st + STUB_TARGET, &target, 8);
			memcpy(st + 24, &common, 8);
		}
		slots[nslots++] = (struct plt_slot){ .got = got, .name = name };
	}
	if (!nslots || mprotect(stubs, PLT_MAX * STUB_SIZE, PROT_READ | PROT_EXEC)) {
		munmap(stubs, PLT_MAX * STUB_SIZE);
		stubs = NULL;
		nslots = 0;
		return 0;
	}
	for (unsigned i = 0; i < nslots; i++) {
		uint64_t a = (uint64_t)(uintptr_t)slots[i].got, pg = a & ~(page - 1);
		int ro = e.relro && a >= e.relro && a < e.relro_end;

		if (ro && mprotect((void *)(uintptr_t)pg, page, PROT_READ | PROT_WRITE))
			continue;
		/* one aligned 8-byte store: a thread calling through the slot meanwhile sees the old
		 * target or the stub, both correct */
		__atomic_store_n(slots[i].got, (uint64_t)(uintptr_t)(stubs + i * STUB_SIZE),
				 __ATOMIC_RELAXED);
		if (ro)
			mprotect((void *)(uintptr_t)pg, page, PROT_READ);
	}
	installed = 1;
	return (int)nslots;
}

/* Each stub as a function of its own for the symbol rules and the argument specs (func_select.c). */
void ltt_func_plt_symbols(void (*add)(uint64_t start, uint64_t size, const char *name))
{
	for (unsigned i = 0; i < nslots; i++)
		add((uint64_t)(uintptr_t)(stubs + i * STUB_SIZE), STUB_SIZE, slots[i].name);
}

/* func.symbol of every stub, persistent (kept by every flight snapshot). */
void ltt_func_plt_emit(void)
{
	for (unsigned i = 0; i < nslots; i++) {
		uint64_t addr = (uint64_t)(uintptr_t)(stubs + i * STUB_SIZE);
		size_t len = strlen(slots[i].name);
		struct ltt_slot s;
		uint32_t tid = ltt_tid();

		if (len > 200)
			len = 200;
		if (!(ltt_event_enabled(ltt_facility_func_enabled, EV_SYMBOL) & LTT_EVENT_ON) ||
		    !ltt_event_reserve(&s, &ltt_facility_func, EV_SYMBOL, 4 + 8 + len + 1,
				       LTT_EVENT_PERSISTENT))
			continue;
		memcpy(s.payload, &tid, 4);
		memcpy(s.payload + 4, &addr, 8);
		memcpy(s.payload + 12, slots[i].name, len);
		s.payload[12 + len] = 0;
		ltt_event_commit(&s);
	}
}

/* func_x86_64.S's ltt_func_plt_common, tracing on: the call through stub whose return address is at
 * slot, its argument registers saved at regs. Returns the function to jump to. */
NOINST uint64_t ltt_func_plt_enter(uint64_t stub, uint64_t *slot, const uint64_t *regs)
{
	uint64_t target;

	ltt_func_pg_entry(stub, slot, regs);
	memcpy(&target, (const void *)(uintptr_t)(stub + STUB_TARGET), 8);
	return target;
}
