/* SPDX-License-Identifier: MIT */
/* recorder/func_internal.h: function tracing by compiler hooks (private; doc/recorder.md "Function tracing").
 * The hooks (func_hooks.c, func_x86_64.S) keep a shadow stack per thread and record func.entry and
 * func.exit (or func.call in minimum-duration mode); the settings and the symbol rules live in
 * func.c and func_select.c. */
#ifndef LTT_RECORDER_FUNC_INTERNAL_H
#define LTT_RECORDER_FUNC_INTERNAL_H

#include <stddef.h>
#include <signal.h>
#include <stdint.h>

#include <ltt/ltt.h>

#define LTT_FUNC_STACK		1024	/* frames of a thread's shadow stack: deeper calls are not recorded */
#define LTT_FUNC_DEPTH_MAX	LTT_FUNC_STACK

/* One entered call. */
struct ltt_func_frame {
	uint64_t addr;		/* the function (the hook's address for it) */
	uint64_t tsc;		/* minimum-duration mode: the entry's cycle count */
	uint64_t ret;		/* -pg: the return address the hook replaced; else the call site */
	uint64_t slot;		/* its stack position (-pg: where the return address is; else the
				 * function's stack pointer at the hook); low bits: LTT_FUNC_F_* */
};
#define LTT_FUNC_F_REC	1u	/* recorded (or held, minimum-duration mode): counts in rec_depth */
#define LTT_FUNC_F_PG	2u	/* -pg: the return address was replaced */
#define LTT_FUNC_F_RET	4u	/* -pg, recorded: its return value is recorded (LTT_FUNCTIONS_RETVAL) */
#define LTT_FUNC_F_MASK	7u

/* A thread's state: initial-exec TLS (one %fs-relative access); the frames are mapped at the thread's
 * first hook (a pthread key unmaps them when the thread ends). func_x86_64.S's vfork() reads `guard`
 * at its offset (16, asserted in func_hooks.c). */
struct ltt_func_thread {
	struct ltt_func_frame *stack;	/* NULL: not yet; LTT_FUNC_DEAD: none (ended thread, no memory) */
	uint32_t depth;			/* frames on the stack (beyond LTT_FUNC_STACK: entries not kept) */
	uint32_t rec_depth;		/* frames on it that are recorded */
	uint64_t guard;			/* 0; the stack position of this thread's hook that runs (a signal
					 * handler's hooks pass, a hook abandoned by siglongjmp is found
					 * by position); LTT_FUNC_GUARD_VFORK in a vfork child */
	uint64_t vfork_lost;		/* events a vfork child could not record (its parent counts them) */
	uint64_t deferred;		/* signals held while a hook ran (func_signal.c): bit sig - 1 */
	siginfo_t deferred_info;	/* the first of them (the others are raised again without it) */
	int deferred_sig;		/* its number, 0: none */
};
#define LTT_FUNC_GUARD_VFORK	1u
#define LTT_FUNC_DEAD ((struct ltt_func_frame *)1)

/* The settings in effect, written by ltt_func_start()/ltt_func_stop() only (under the control lock). */
struct ltt_func_config {
	uint32_t max_depth;	/* recorded calls open on a thread at most (LTT_FUNCTIONS_DEPTH) */
	uint64_t min_cycles;	/* 0, or the minimum duration in cycles (LTT_FUNCTIONS_MIN_NS) */
	int rules;		/* LTT_FUNCTIONS is a rule list (func_select.c), not "1" */
	int args;		/* argument or return value specs were given (func_args.c) */
};

#pragma GCC visibility push(hidden)
/* Nonzero while function tracing records: what a hook tests first (one load, one branch). */
extern int ltt_func_on;
extern struct ltt_func_config ltt_func_cfg;
extern __thread struct ltt_func_thread ltt_func_self __attribute__((tls_model("initial-exec")));

/* func.c */
/* Reads LTT_FUNCTIONS, LTT_FUNCTIONS_DEPTH, LTT_FUNCTIONS_MIN_NS: 0 (off or checked), -EINVAL with
 * why filled in. */
int ltt_func_env(char *why, size_t n);
/* After the trace is published: registers the func facility, builds the symbol rules, records the
 * memory map unless stack sampling did (maps_recorded), switches the hooks on. Before the rings
 * close: switches them off. */
void ltt_func_start(int maps_recorded);
void ltt_func_stop(void);
int ltt_func_enabled(void);
/* The calling thread's frames (maps them at its first call); NULL when it has none. */
struct ltt_func_frame *ltt_func_stack_slow(struct ltt_func_thread *t);

/* func_open.c: the registry of threads with frames, and their open calls written with a snapshot. */
void ltt_func_open_register(struct ltt_func_thread *t);	/* at its first hook */
void ltt_func_open_unregister(struct ltt_func_thread *t);	/* when it ends, before its frames go */
/* One func.open per recorded frame of every thread, into the rings: a snapshot, before it copies
 * them (recorder/snapshot.c). Async-signal-safe (the crash snapshot). */
void ltt_func_open_emit(void);

/* func_select.c: symbol rules (LTT_FUNCTIONS='my_*,-my_hot_leaf'). */
int ltt_func_rules_set(const char *rules, char *why, size_t n);
/* The symbol table of every loaded object, matched once: the functions the rules select. */
int ltt_func_rules_build(void);
void ltt_func_rules_free(void);
/* 1 when the function at addr is selected (a cache of one entry per address; no allocation). */
int ltt_func_selected(uint64_t addr);

/* In an array of n elements of stride bytes sorted by the uint64_t each begins with (a start address):
 * how many begin at or before addr (the last of them is the candidate holding addr). No allocation:
 * hooks call it. */
static inline __attribute__((no_instrument_function)) size_t ltt_func_upper(const void *base, size_t n,
									    size_t stride, uint64_t addr)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t start;

		__builtin_memcpy(&start, (const char *)base + mid * stride, 8);
		if (start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* func_args.c: arguments and return values (LTT_FUNCTIONS_ARGS, LTT_FUNCTIONS_RETVAL). */
int ltt_func_args_env(char *why, size_t n); /* 0, or -EINVAL with why */
int ltt_func_args_wanted(void);		    /* specs were given */
void ltt_func_args_reset(void);		    /* before the symbols are read again */
void ltt_func_args_symbol(uint64_t start, uint64_t size, const char *name); /* each function symbol */
void ltt_func_args_ready(void); /* after the last: sorts, says which spec matched none */
/* A recorded -pg entry of addr: its func.args if a spec names it; LTT_FUNC_F_RET when its return
 * value is wanted. regs: func_x86_64.S's saved registers (rdi rsi rdx rcx r8 r9 at 0-5, xmm0-7 from
 * 8, 16 bytes apart), ret_slot: the function's return address (its stack arguments above). */
unsigned ltt_func_args_entry(uint64_t addr, const uint64_t *regs, const uint64_t *ret_slot);
/* Its return (a frame with LTT_FUNC_F_RET): func.retval. regs: rax at 0, xmm0 at 2. */
void ltt_func_args_return(uint64_t addr, const uint64_t *regs);
/* A -finstrument-functions entry of addr with specs given: says once that its values are not seen. */
void ltt_func_args_cyg(uint64_t addr);

/* func_plt.c: library calls through the program's PLT (LTT_FUNCTIONS_LIBCALL). */
int ltt_func_plt_install(void);	/* the number of slots traced, or a negative errno (said by the caller) */
void ltt_func_plt_symbols(void (*add)(uint64_t start, uint64_t size, const char *name));
void ltt_func_plt_emit(void);	/* func.symbol of each stub */
uint64_t ltt_func_plt_enter(uint64_t stub, uint64_t *slot, const uint64_t *regs);

/* func_hooks.c: the -pg hooks' C halves (func_x86_64.S calls them with the registers saved). */
void ltt_func_pg_entry(uint64_t self, uint64_t *slot, const uint64_t *regs);
uint64_t ltt_func_pg_exit(uint64_t sp, const uint64_t *regs);
void ltt_func_pg_return(void);	/* func_x86_64.S: where a replaced return address points */
/* func_x86_64.S's vfork(): the parent's return (ret: the system call's), after its child exec'd or
 * exited; gives vfork()'s result (errno set). */
long ltt_func_vfork_parent(long ret, uint64_t guard);
/* A guard found set (t->guard != 0) by a hook at stack position pos: nonzero when the hook that set it
 * is gone (abandoned by a longjmp out of a signal handler), the guard then cleared; 0 when it still
 * runs below (the caller is a handler that interrupted it, or a vfork child: counted lost). */
int ltt_func_guard_stale(struct ltt_func_thread *t, uint64_t pos);

/* func_dl.c: what func_x86_64.S's dlopen and dlclose call while functions are traced. */
void *ltt_func_dlopen(const char *file, int mode);
int ltt_func_dlclose(void *h);
extern void *ltt_func_real_dlopen, *ltt_func_real_dlclose;
/* func_jmp.c: defined there, referenced by func_hooks.c (pulls func_jmp.o out of libltt.a). */
extern const int ltt_func_jmp_linked;
/* func_hooks.c: a longjmp (func_jmp.c) to the frame whose stack pointer is sp. */
void ltt_func_longjmp(uint64_t sp);

/* func_signal.c: the program's signal handlers, held while a hook runs. sigaction() of the program
 * (recorder/flight_handlers.c): installs its handler behind libltt's while function tracing is on,
 * reports its own in *old. */
int ltt_func_sigaction(int sig, const struct sigaction *act, struct sigaction *old);
/* Raises again the signals held while the hook ran (t->deferred != 0), the guard cleared. */
void ltt_func_sig_redeliver(struct ltt_func_thread *t);
#pragma GCC visibility pop

#endif
