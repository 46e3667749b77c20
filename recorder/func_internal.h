/* SPDX-License-Identifier: MIT */
/* recorder/func_internal.h: function tracing by compiler hooks (private; doc/recorder.md "Function tracing").
 * The hooks (func_hooks.c, func_x86_64.S) keep a shadow stack per thread and record func.entry and
 * func.exit (or func.call in minimum-duration mode); the settings and the symbol rules live in
 * func.c and func_select.c. */
#ifndef LTT_RECORDER_FUNC_INTERNAL_H
#define LTT_RECORDER_FUNC_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <ltt/ltt.h>

#define LTT_FUNC_STACK		1024	/* frames of a thread's shadow stack: deeper calls are not recorded */
#define LTT_FUNC_DEPTH_MAX	LTT_FUNC_STACK

/* One entered call. */
struct ltt_func_frame {
	uint64_t addr;		/* the function (the hook's address for it) */
	uint64_t tsc;		/* minimum-duration mode: the entry's cycle count */
	uint64_t ret;		/* -pg: the return address the hook replaced */
	uint64_t slot;		/* -pg: where it was (the caller's stack); low bits: LTT_FUNC_F_* */
};
#define LTT_FUNC_F_REC	1u	/* recorded (or held, minimum-duration mode): counts in rec_depth */
#define LTT_FUNC_F_PG	2u	/* -pg: the return address was replaced */
#define LTT_FUNC_F_MASK	7u

/* A thread's state: initial-exec TLS (one %fs-relative access); the frames are mapped at the thread's
 * first hook (a pthread key unmaps them when the thread ends). */
struct ltt_func_thread {
	struct ltt_func_frame *stack;	/* NULL: not yet; LTT_FUNC_DEAD: none (ended thread, no memory) */
	uint32_t depth;			/* frames on the stack */
	uint32_t rec_depth;		/* frames on it that are recorded */
	uint32_t over;			/* -finstrument-functions: entries beyond LTT_FUNC_STACK */
	uint32_t busy;			/* a hook of this thread is running (a signal handler's hooks pass) */
};
#define LTT_FUNC_DEAD ((struct ltt_func_frame *)1)

/* The settings in effect, written by ltt_func_start()/ltt_func_stop() only (under the control lock). */
struct ltt_func_config {
	uint32_t max_depth;	/* recorded calls open on a thread at most (LTT_FUNCTIONS_DEPTH) */
	uint64_t min_cycles;	/* 0, or the minimum duration in cycles (LTT_FUNCTIONS_MIN_NS) */
	int rules;		/* LTT_FUNCTIONS is a rule list (func_select.c), not "1" */
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

/* func_select.c: symbol rules (LTT_FUNCTIONS='my_*,-my_hot_leaf'). */
int ltt_func_rules_set(const char *rules, char *why, size_t n);
int ltt_func_rules_build(void);	/* the symbol table of every loaded object, matched once */
void ltt_func_rules_free(void);
/* 1 when the function at addr is selected (a cache of one entry per address; no allocation). */
int ltt_func_selected(uint64_t addr);

/* func_hooks.c: the -pg hooks' C halves (func_x86_64.S calls them with the registers saved). */
void ltt_func_pg_entry(uint64_t self, uint64_t *slot);
uint64_t ltt_func_pg_exit(uint64_t sp);
void ltt_func_pg_return(void);	/* func_x86_64.S: where a replaced return address points */
#pragma GCC visibility pop

#endif
