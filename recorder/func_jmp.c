/* SPDX-License-Identifier: MIT */
/* recorder/func_jmp.c: longjmp() and siglongjmp() of the program, ahead of the C library's, for
 * function tracing (doc/recorder.md "Function tracing", Safety). A jump leaves every frame between
 * it and its setjmp() without an exit hook; libltt closes those frames before the jump (their exit
 * recorded at its time) from the stack pointer the jump goes back to: the frames whose stack position
 * is below it are gone (ltt_func_longjmp, func_hooks.c). The hooks close frames by position too, at the
 * thread's next hook, but only the jump knows where it lands: a sibling called after the jump may
 * sit lower on the stack than a frame the jump left.
 *
 * The target stack pointer is in the jmp_buf as glibc keeps it on x86-64: slot 6 (JB_RSP), mangled by
 * PTR_MANGLE (xor with the thread's pointer guard at %fs:0x30, then rotated left 17 bits). A value that
 * is not above the caller's stack pointer is ignored (another stack, or another C library): the hooks
 * then close the frames by position. Jumps the C library makes inside itself are not seen (none
 * crosses the program's frames). */
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "func_internal.h"

#define NOINST __attribute__((no_instrument_function))

typedef void (*jmp_fn)(void *, int) __attribute__((noreturn));

/* Referenced by func_hooks.c: a program linked with libltt.a gets these jumps with the hooks, even
 * when a shared library before libltt.a on the link line defines longjmp (the sanitizers' runtime). */
const int ltt_func_jmp_linked = 1;

enum { J_LONGJMP, J__LONGJMP, J_SIGLONGJMP, J_CHK, J_N };
static const char *const names[J_N] = { "longjmp", "_longjmp", "siglongjmp", "__longjmp_chk" };
static jmp_fn real[J_N];

static NOINST jmp_fn real_of(int k)
{
	/* Relaxed: any thread may store the same pointer (dlsym's answer never changes). */
	jmp_fn f = __atomic_load_n(&real[k], __ATOMIC_RELAXED);

	if (!f) {
		f = (jmp_fn)dlsym(RTLD_NEXT, names[k]);
		if (!f) {
			static const char msg[] = "ltt: function tracing: longjmp of the C library not found; aborting\n";

			if (write(2, msg, sizeof(msg) - 1) < 0)
				abort();
			abort();
		}
		__atomic_store_n(&real[k], f, __ATOMIC_RELAXED);
	}
	return f;
}

/* Resolved at load: a jump out of a signal handler must not call dlsym (not async-signal-safe). */
__attribute__((constructor(102))) static void jmp_init(void)
{
	for (int k = 0; k < J_N; k++)
		real_of(k);
}

static NOINST void before_jump(const void *env)
{
#if defined(__x86_64__) && defined(__GLIBC__)
	const uint64_t *jb = env;
	uint64_t guard, sp;

	if (!ltt_func_self.depth)
		return;
	__asm__("mov %%fs:0x30, %0" : "=r"(guard));
	sp = ((jb[6] >> 17) | (jb[6] << 47)) ^ guard;
	ltt_func_longjmp(sp);
#else
	(void)env;
#endif
}

#define JUMP(name, k)									\
	__attribute__((visibility("default"), noreturn)) NOINST void name(void *env, int val);	\
	void name(void *env, int val)							\
	{										\
		before_jump(env);							\
		real_of(k)(env, val);							\
	}
JUMP(longjmp, J_LONGJMP)
JUMP(_longjmp, J__LONGJMP)
JUMP(siglongjmp, J_SIGLONGJMP)
JUMP(__longjmp_chk, J_CHK)
