// SPDX-License-Identifier: MIT
/* recorder/func_args.c: arguments and return values of function tracing (LTT_FUNCTIONS_ARGS,
 * LTT_FUNCTIONS_RETVAL: uftrace's -A and -R specs, common/argspec.h; doc/recorder.md "Function
 * tracing"). At start the specs' globs are matched once against the function symbols func_select.c
 * reads (ltt_func_args_symbol) into a table of address ranges sorted by start; a hook of a recorded
 * call asks it by binary search (only when specs were given: one load and one branch otherwise).
 *
 * Where the values are: the -pg hooks (func_x86_64.S) save the argument registers before they call
 * C (rdi rsi rdx rcx r8 r9 and xmm0-7 at the hook's entry are the function's arguments; arguments 7
 * and after are on the stack above the return address), and ltt_func_pg_return saves rax and xmm0
 * (the return value). -finstrument-functions hooks run inside the function after gcc moved its
 * arguments wherever it wanted and loaded the hook's own: the values are not at the hook, so nothing
 * is recorded for such a function and the recorder says so once.
 *
 * A string (`/s`) is copied with process_vm_readv() on this process: a bad pointer gives an error, not
 * a fault; the read is split at the page boundary so that a string that ends just before an unmapped
 * page is still read. At most LTT_ARG_STR_MAX bytes; a longer string is marked cut. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "common/argspec.h"
#include "common/grow.h"
#include "eventdefs/rules_match.h"
#include "func_internal.h"
#include "recorder.h"
#include "ring.h"

#define LTT_GEN_REGISTER(fac) 0
#include "func.h"

#define NOINST	  __attribute__((no_instrument_function))
#define EV_ARGS	  4 /* func.args's index in eventdefs/func.xml */
#define EV_RETVAL 5

struct range {
	uint64_t start, end;
	int16_t arg, ret; /* the spec of each list, -1: none */
};

static struct ltt_arg_spec args[LTT_ARG_SPECS], rets[LTT_ARG_SPECS];
static unsigned nargs, nrets;
static uint32_t args_hit[LTT_ARG_SPECS], rets_hit[LTT_ARG_SPECS]; /* functions matched */
static struct range *ranges; /* sorted by start, one per function matched */
static size_t nranges, capranges;
static int cyg_said;

int ltt_func_args_env(char *why, size_t n)
{
	const char *a = secure_getenv("LTT_FUNCTIONS_ARGS"), *r = secure_getenv("LTT_FUNCTIONS_RETVAL");
	char w[400];

	nargs = nrets = 0;
	if (a && ltt_argspec_parse(a, 0, args, &nargs, w, sizeof(w)) < 0) {
		snprintf(why, n, "LTT_FUNCTIONS_ARGS=%s", w);
		return -EINVAL;
	}
	if (r && ltt_argspec_parse(r, 1, rets, &nrets, w, sizeof(w)) < 0) {
		snprintf(why, n, "LTT_FUNCTIONS_RETVAL=%s", w);
		return -EINVAL;
	}
	return 0;
}

int ltt_func_args_wanted(void)
{
	return nargs || nrets;
}

static int glob_match(const char *glob, const char *name)
{
	return ltt_rule_glob(glob, glob + strlen(glob), name);
}

void ltt_func_args_symbol(uint64_t start, uint64_t size, const char *name)
{
	int16_t a = -1, r = -1;

	for (unsigned i = 0; i < nargs && a < 0; i++)
		if (glob_match(args[i].func, name))
			a = (int16_t)i;
	for (unsigned i = 0; i < nrets && r < 0; i++)
		if (glob_match(rets[i].func, name))
			r = (int16_t)i;
	if (a < 0 && r < 0)
		return;
	if (LTT_GROW_FROM(ranges, nranges + 1, capranges, 64))
		return;
	if (a >= 0)
		args_hit[a]++;
	if (r >= 0)
		rets_hit[r]++;
	ranges[nranges++] =
		(struct range){ .start = start, .end = start + (size ? size : 1), .arg = a, .ret = r };
}

static int by_start(const void *x, const void *y)
{
	const struct range *a = x, *b = y;

	return a->start < b->start ? -1 : a->start > b->start;
}

void ltt_func_args_reset(void)
{
	nranges = 0;
	memset(args_hit, 0, sizeof(args_hit));
	memset(rets_hit, 0, sizeof(rets_hit));
}

void ltt_func_args_ready(void)
{
	qsort(ranges, nranges, sizeof(*ranges), by_start);
	/* uftrace refuses a filter that matches nothing: say it for each spec */
	for (unsigned i = 0; i < nargs; i++)
		if (!args_hit[i])
			ltt_warn(
				"LTT_FUNCTIONS_ARGS: no function of the program or its libraries is named %s; "
				"its arguments will not be recorded",
				args[i].func);
	for (unsigned i = 0; i < nrets; i++)
		if (!rets_hit[i])
			ltt_warn(
				"LTT_FUNCTIONS_RETVAL: no function of the program or its libraries is named %s; "
				"its return value will not be recorded",
				rets[i].func);
}

static NOINST const struct range *range_of(uint64_t addr)
{
	size_t lo = ltt_func_upper(ranges, nranges, sizeof(*ranges), addr);

	return lo && addr < ranges[lo - 1].end ? &ranges[lo - 1] : NULL;
}

/* The string at p into dst (LTT_ARG_STR_MAX + 1 bytes): its length, flags in *type. */
static NOINST size_t copy_str(uint64_t p, char *dst, uint8_t *type)
{
	const size_t want = LTT_ARG_STR_MAX + 1;
	uint64_t first = 4096 - (p & 4095);
	struct iovec local = { dst, want }, remote[2];
	unsigned nr = 1;
	ssize_t got;
	char *nul;

	remote[0] = (struct iovec){ (void *)(uintptr_t)p, want };
	if (first < want) {
		remote[0].iov_len = first;
		remote[1] = (struct iovec){ (void *)(uintptr_t)(p + first), want - first };
		nr = 2;
	}
	got = process_vm_readv(getpid(), &local, 1, remote, nr, 0);
	if (got <= 0) {
		*type |= LTT_ARG_T_BAD;
		return 0;
	}
	nul = memchr(dst, 0, (size_t)got);
	if (nul)
		return (size_t)(nul - dst);
	*type |= LTT_ARG_T_CUT; /* longer than copied, or runs into memory that cannot be read */
	if ((size_t)got > LTT_ARG_STR_MAX)
		got = LTT_ARG_STR_MAX;
	dst[got] = 0;
	return (size_t)got;
}

/* One func.args or func.retval of spec s. ints: the integer registers (rdi rsi rdx rcx r8 r9; for a
 * return value rax); fps: xmm0-7, 16 bytes apart (a return value: xmm0); stack: the arguments after
 * the sixth (NULL for a return value). */
static NOINST void emit(unsigned ev, const struct ltt_arg_spec *s, uint64_t addr, const uint64_t *ints,
			const uint64_t *fps, const uint64_t *stack)
{
	char strs[LTT_ARG_ITEMS][LTT_ARG_STR_MAX + 1];
	size_t lens[LTT_ARG_ITEMS], size = 4 + 8 + 1 + s->n + 1 + 8 * (size_t)s->n + 1;
	uint8_t types[LTT_ARG_ITEMS], nstr = 0;
	uint64_t vals[LTT_ARG_ITEMS];
	struct ltt_slot slot;
	uint32_t tid;
	char *p;

	if (!(ltt_event_enabled(ltt_facility_func_enabled, ev) & LTT_EVENT_ON))
		return;
	for (unsigned i = 0; i < s->n; i++) {
		const struct ltt_arg_item *it = &s->it[i];
		uint64_t v;

		if (it->src == LTT_ARG_SRC_RET)
			v = it->fmt == LTT_ARG_F ? fps[0] : ints[0];
		else if (it->src == LTT_ARG_SRC_FP)
			v = fps[2 * (it->idx - 1)];
		else if (it->idx <= 6)
			v = ints[it->idx - 1];
		else
			v = stack[it->idx - 7];
		types[i] = LTT_ARG_TYPE(it->fmt, it->size_log2);
		vals[i] = v;
		if (it->fmt == LTT_ARG_S && v) {
			lens[nstr] = copy_str(v, strs[nstr], &types[i]);
			if (!(types[i] & LTT_ARG_T_BAD))
				size += lens[nstr++] + 1;
		}
	}
	tid = ltt_tid();
	if (!ltt_event_reserve(&slot, &ltt_facility_func, ev, size, 0))
		return;
	p = slot.payload;
	memcpy(p, &tid, 4);
	memcpy(p + 4, &addr, 8);
	p += 12;
	*p++ = (char)s->n;
	memcpy(p, types, s->n);
	p += s->n;
	*p++ = (char)s->n;
	memcpy(p, vals, 8 * (size_t)s->n);
	p += 8 * (size_t)s->n;
	*p++ = (char)nstr;
	for (unsigned i = 0; i < nstr; i++) {
		memcpy(p, strs[i], lens[i] + 1);
		p += lens[i] + 1;
	}
	ltt_event_commit(&slot);
}

NOINST unsigned ltt_func_args_entry(uint64_t addr, const uint64_t *regs, const uint64_t *ret_slot)
{
	const struct range *r = range_of(addr);

	if (!r)
		return 0;
	if (r->arg >= 0)
		emit(EV_ARGS, &args[r->arg], addr, regs, regs + 8, ret_slot + 1);
	return r->ret >= 0 ? LTT_FUNC_F_RET : 0;
}

NOINST void ltt_func_args_return(uint64_t addr, const uint64_t *regs)
{
	const struct range *r = range_of(addr);

	if (r && r->ret >= 0)
		emit(EV_RETVAL, &rets[r->ret], addr, regs, regs + 2, NULL);
}

NOINST void ltt_func_args_cyg(uint64_t addr)
{
	static const char msg[] =
		"ltt: LTT_FUNCTIONS_ARGS, LTT_FUNCTIONS_RETVAL: a function built with "
		"-finstrument-functions: its hooks run after gcc moved the arguments and before "
		"it sets the return value, which they cannot see; not recorded (build with -pg "
		"or -pg -mfentry)\n";

	if (ltt_read(&cyg_said) || !range_of(addr) || __atomic_exchange_n(&cyg_said, 1, __ATOMIC_RELAXED))
		return;
	if (write(2, msg, sizeof(msg) - 1) < 0)
		return;
}
