/* SPDX-License-Identifier: MIT */
/* recorder/func.c: the settings of function tracing (LTT_FUNCTIONS, LTT_FUNCTIONS_DEPTH,
 * LTT_FUNCTIONS_MIN_NS), switching the hooks on and off with the trace, and the threads' shadow
 * stacks (doc/recorder.md "Function tracing"). The hooks are in func_hooks.c and func_x86_64.S. */
#include <errno.h>
#include <stdio.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "clock.h"
#include "env_parse.h"
#include "func_internal.h"
#include "profile.h"
#include "recorder.h"

#define LTT_GEN_REGISTER(fac) 0	/* registered by ltt_func_start() only */
#include "func.h"

int ltt_func_on;
struct ltt_func_config ltt_func_cfg = { .max_depth = LTT_FUNC_DEPTH_MAX };
__thread struct ltt_func_thread ltt_func_self __attribute__((tls_model("initial-exec")));

static struct {
	int enabled;		/* LTT_FUNCTIONS set (not "0") */
	int rules;		/* ... to a rule list */
	uint32_t max_depth;
	uint64_t min_ns;
	int libcall;		/* LTT_FUNCTIONS_LIBCALL (default 1): library calls through the PLT */
} env;
static pthread_key_t stack_key;
static int stack_key_ok;

_Static_assert(LTT_FUNC_DEPTH_MAX == 1024, "LTT_FUNCTIONS_DEPTH's bound in common/settings.c");

int ltt_func_env(char *why, size_t n)
{
	const char *v = secure_getenv("LTT_FUNCTIONS");
	uint64_t x;
	int rc;

	memset(&env, 0, sizeof(env));
	env.max_depth = LTT_FUNC_DEPTH_MAX;
	if ((rc = ltt_env_get(LTT_ENV_FUNCTIONS_DEPTH_ID, &x, why, n)) < 0)
		return rc;
	if (rc)
		env.max_depth = (uint32_t)x;
	if ((rc = ltt_env_get(LTT_ENV_FUNCTIONS_MIN_NS_ID, &x, why, n)) < 0)
		return rc;
	if (rc)
		env.min_ns = x;
	env.libcall = 1;
	if ((rc = ltt_env_get(LTT_ENV_FUNCTIONS_LIBCALL_ID, &x, why, n)) < 0)
		return rc;
	if (rc)
		env.libcall = (int)x;
	if ((rc = ltt_func_args_env(why, n)) < 0)
		return rc;
	if (env.min_ns && ltt_func_args_wanted()) {
		snprintf(why, n,
			 "LTT_FUNCTIONS_ARGS and LTT_FUNCTIONS_RETVAL do not go with LTT_FUNCTIONS_MIN_NS "
			 "(a call is recorded at its exit there, its arguments gone)");
		return -EINVAL;
	}
	if (!v || !*v || !strcmp(v, "0"))
		return 0;
	env.enabled = 1;
	if (!strcmp(v, "1"))
		return 0;
	env.rules = 1;
	return ltt_func_rules_set(v, why, n);
}

int ltt_func_enabled(void)
{
	return env.enabled;
}

void ltt_func_start(int maps_recorded)
{
	uint64_t cps = ltt_timemap.cycles_per_second;

	if (!env.enabled)
		return;
	ltt_facility_register(&ltt_facility_func);
	/* library calls: the program's PLT slots through stubs (func_plt.c); not when libltt is linked
	 * into the program (its own calls would go through them) */
	if (env.libcall)
		ltt_func_plt_install();
	if (env.rules || ltt_func_args_wanted()) {
		int n = ltt_func_rules_build();

		/* (the symbols are read for the argument specs too) */
		if (n >= 0 && ltt_func_args_wanted())
			ltt_func_args_ready();
		if (n < 0 && env.rules) {
			ltt_warn("LTT_FUNCTIONS: cannot read the symbols of the program; no function traced");
			return;
		}
		/* uftrace refuses a filter that matches nothing: say it (functions of libraries loaded
		 * later are not in the table, and count as matching no rule) */
		if (!n && env.rules)
			ltt_warn("LTT_FUNCTIONS=%s: no function of the program or its libraries matches these rules; "
				 "no function will be recorded", secure_getenv("LTT_FUNCTIONS") ?: "");
	}
	ltt_func_cfg.max_depth = env.max_depth;
	ltt_func_cfg.rules = env.rules;
	ltt_func_cfg.args = ltt_func_args_wanted();
	/* ns to cycles, rounded up: a call of exactly the minimum passes */
	ltt_func_cfg.min_cycles = env.min_ns ? (uint64_t)(((unsigned __int128)env.min_ns * cps + 999999999u) /
							 1000000000u) : 0;
	if (env.min_ns && !ltt_func_cfg.min_cycles)
		ltt_func_cfg.min_cycles = 1;
	/* The hooks' addresses in a trace are symbolized by the memory map (core.mapping), which stack
	 * sampling records too: once is enough. */
	if (!maps_recorded)
		ltt_maps_emit();
	if (env.libcall)
		ltt_func_plt_emit();	/* the stubs' names */
	/* Release: the settings above before the hooks see tracing on; pairs with nothing stronger
	 * than the hooks' relaxed load (a hook that sees 1 early reads settings written long before:
	 * the previous trace's, or these, both complete values). */
	__atomic_store_n(&ltt_func_on, 1, __ATOMIC_RELEASE);
}

void ltt_func_stop(void)
{
	/* Relaxed is enough: a hook that still sees 1 records into a trace that is closing, which
	 * the event path handles (no region, or closed rings). */
	__atomic_store_n(&ltt_func_on, 0, __ATOMIC_RELAXED);
}

/* A thread ends: its frames go (a hook that runs after this, in a later destructor, finds DEAD). */
static void stack_free(void *p)
{
	struct ltt_func_thread *t = &ltt_func_self;

	ltt_func_open_unregister(t);	/* no snapshot reads the frames any more */
	t->stack = LTT_FUNC_DEAD;
	t->depth = 0;
	t->rec_depth = 0;
	munmap(p, LTT_FUNC_STACK * sizeof(struct ltt_func_frame));
}

__attribute__((no_instrument_function)) struct ltt_func_frame *ltt_func_stack_slow(struct ltt_func_thread *t)
{
	void *p;

	if (t->stack)
		return NULL;	/* DEAD */
	/* mmap: async-signal-safe (a signal handler may be the thread's first hook) and no malloc
	 * (the program's allocator may be instrumented, or be what is interrupted) */
	p = mmap(NULL, LTT_FUNC_STACK * sizeof(struct ltt_func_frame), PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		t->stack = LTT_FUNC_DEAD;
		return NULL;
	}
	t->depth = 0;
	t->rec_depth = 0;
	t->stack = p;
	ltt_func_open_register(t);
	if (stack_key_ok)
		pthread_setspecific(stack_key, p);
	return p;
}

__attribute__((constructor(101))) static void func_init(void)
{
	stack_key_ok = !pthread_key_create(&stack_key, stack_free);
}
