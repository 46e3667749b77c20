/* SPDX-License-Identifier: MIT */
/* tools/calls/calls.c: calls from func events (tools/calls/calls.h). A thread's stack is rebuilt from
 * its entries and exits: an exit closes the frame of its address nearest the top, and the frames above
 * it with it (calls that never returned through their exit: longjmp); an exit with no such frame is an
 * exit whose entry the trace does not hold (a flight snapshot starts mid-call, events were lost), counted
 * and skipped. Minimum-duration calls (func.call) arrive after their callees: they are kept and nested
 * by their intervals at the end. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/argspec.h"
#include "common/buf.h"
#include "common/grow.h"

#include "toolkit/calls.h"
#include "toolkit/dump_out.h"
#include "toolkit/sched_decode.h"

int calls_init(struct calls_model *m)
{
	memset(m, 0, sizeof(*m));
	losses_init(&m->loss);
	return prof_model_init(&m->pm);
}

void calls_free(struct calls_model *m)
{
	for (size_t i = 0; i < m->nth; i++) {
		for (size_t k = 0; k < m->th[i].n; k++) {
			free(m->th[i].fr[k].args);
			free(m->th[i].fr[k].retval);
		}
		free(m->th[i].fr);
		free(m->th[i].done);
		free(m->th[i].open);
	}
	free(m->th);
	for (size_t i = 0; i < m->nmaps; i++)
		free(m->maps[i].path);
	free(m->maps);
	for (size_t i = 0; i < m->nsyms; i++)
		free(m->syms[i].name);
	free(m->syms);
	losses_free(&m->loss);
	sched_decoder_free(m->sd);
	prof_model_free(&m->pm);
}

const char *calls_func_name(const struct calls_model *m, long func)
{
	return func >= 0 && (size_t)func < m->pm.nfuncs ? m->pm.funcs[func].name : "?";
}

int calls_kind(struct calls_model *m, const struct ltt_event *ev)
{
	static const char *const names[7] = { "entry", "exit", "call", "open", "args", "retval", "symbol" };
	const struct ltt_event_type *ty = ev->type;

	for (int k = 0; k < 7; k++)
		if (m->types[k] == ty)
			return k + 1;
	if (ty->builtin || strcmp(ty->facility, "func"))
		return 0;
	for (int k = 0; k < 7; k++)
		if (!strcmp(ty->name, names[k])) {
			m->types[k] = ty;
			return k + 1;
		}
	return 0;
}

static struct call_thread *thread_of(struct calls_model *m, const struct ltt_trace_info *tr, uint32_t tid)
{
	for (size_t i = m->nth; i-- > 0;)
		if (m->th[i].tid == tid && m->th[i].trace == tr)
			return &m->th[i];
	if (LTT_GROW(m->th, m->nth + 1, m->capth))
		return NULL;
	memset(&m->th[m->nth], 0, sizeof(m->th[0]));
	m->th[m->nth].tid = tid;
	m->th[m->nth].trace = tr;
	return &m->th[m->nth++];
}

/* Closes the top frame of t at time ns. */
static int pop(struct calls_model *m, struct call_thread *t, uint64_t ns, int unfinished)
{
	struct call_frame *f = &t->fr[--t->n];
	struct call c = {
		.trace = t->trace,
		.tid = t->tid,
		.depth = (uint32_t)t->n,
		.func = f->func,
		.parent = t->n ? t->fr[t->n - 1].func : -1,
		.start_ns = f->start_ns,
		.dur_ns = ns > f->start_ns ? ns - f->start_ns : 0,
		.unfinished = unfinished,
		.outermost = 1,
		.cut = f->cut,
		.before = f->before,
		.args = f->args,
		.retval = f->retval,
	};
	int ret;

	if (f->before)
		c.dur_ns = 0;	/* entered before the trace: not known */
	if (f->cut) {
		/* a loss lies between its entry and this exit: which entry this exit ends is not known */
		c.dur_ns = 0;
		m->cut++;
	}
	c.self_ns = c.dur_ns > f->child_ns ? c.dur_ns - f->child_ns : 0;
	if (c.dur_ns) {
		/* off the CPU meanwhile (its thread's switches): the call's own part is not self time */
		c.off_ns = t->off_ns - f->off0;
		c.blocked_ns = t->blocked_ns - f->blocked0;
		if (t->out && t->out_ns < ns)	/* still out at its end (an unfinished call) */
			c.off_ns += ns - t->out_ns;
		if (c.off_ns > c.dur_ns)
			c.off_ns = c.dur_ns;
		if (c.blocked_ns > c.off_ns)
			c.blocked_ns = c.off_ns;
		if (c.off_ns > f->child_off)
			c.self_ns = c.self_ns > c.off_ns - f->child_off ? c.self_ns - (c.off_ns - f->child_off) : 0;
	}
	for (size_t i = 0; i < t->n; i++)
		if (t->fr[i].func == f->func && !t->fr[i].cut) {	/* a cut call counts no time */
			c.outermost = 0;
			break;
		}
	if (t->ncut > t->n)
		t->ncut = t->n;
	if (t->n && !f->cut) {
		t->fr[t->n - 1].child_ns += c.dur_ns;
		t->fr[t->n - 1].child_off += c.off_ns;
	}
	ret = m->on_call ? m->on_call(m->arg, &c) : 0;
	free(f->args);
	free(f->retval);
	f->args = f->retval = NULL;
	return ret;
}

/* The values of a func.args or func.retval (after tid and addr: types, values, strs; doc/format.md)
 * as uftrace's replay prints them, "3, 4": malloc'ed, NULL when malformed (-ENOMEM in *err). */
static char *values_text(const struct ltt_event *ev, int *err)
{
	const unsigned char *p = (const unsigned char *)ev->payload + 12,
			    *end = (const unsigned char *)ev->payload + ev->size;
	const unsigned char *types, *vals;
	const char *str;
	unsigned n, nv, ns;
	struct ltt_buf b = LTT_BUF_INIT;
	char one[LTT_ARG_STR_MAX * 4 + 64];

	if (p >= end)
		return NULL;
	n = *p++;
	if ((size_t)(end - p) < n + 1u)
		return NULL;
	types = p;
	p += n;
	nv = *p++;
	if (nv != n || (size_t)(end - p) < 8u * nv + 1)
		return NULL;
	vals = p;
	p += 8u * nv;
	ns = *p++;
	str = (const char *)p;
	for (unsigned i = 0; i < n; i++) {
		uint64_t v = dump_get_uint(vals + 8 * i, 8, ev->big_endian);
		const char *s = NULL;

		if (LTT_ARG_T_FMT(types[i]) == LTT_ARG_S && v && !(types[i] & LTT_ARG_T_BAD)) {
			const char *z =
				ns ? memchr(str, 0, (size_t)(end - (const unsigned char *)str)) : NULL;

			if (!z) {
				ltt_buf_free(&b);
				return NULL;
			}
			s = str;
			str = z + 1;
			ns--;
		}
		ltt_arg_print(one, sizeof(one), types[i], v, s);
		if (i)
			ltt_buf_puts(&b, ", ");
		ltt_buf_puts(&b, one);
	}
	if (!n)
		ltt_buf_puts(&b, "");
	if (b.nomem) {
		*err = -ENOMEM;
		ltt_buf_free(&b);
		return NULL;
	}
	return ltt_buf_detach(&b, NULL);
}

/* Keeps a core.mapping (0), or -ENOMEM. */
static int keep_map(struct calls_model *m, const struct ltt_event *ev)
{
	struct ltt_value body, f;
	const char *path;
	struct calls_map *n;

	if (LTT_GROW(m->maps, m->nmaps + 1, m->capmaps))
		return -ENOMEM;
	n = m->maps;
	if (ltt_event_body(ev, &body) || ltt_value_field(&body, "path", &f))
		return 0;
	path = ltt_value_string(&f, NULL);
	n[m->nmaps] = (struct calls_map){ .start = prof_field_u64(ev, "start"), .end = prof_field_u64(ev, "end"),
					  .offset = prof_field_u64(ev, "offset"), .path = strdup(path ? path : "") };
	if (!n[m->nmaps].path)
		return -ENOMEM;
	m->nmaps++;
	return 0;
}

/* The function of addr; one the symbolizer cannot name (its binary is missing, or another build) is
 * named MODULE+0xOFFSET, the offset in the module's file. */
static long func_of(struct calls_model *m, uint64_t addr)
{
	long f = prof_func_of(&m->pm, addr, 1);
	struct prof_func *pf;

	if (f < 0)
		return f;
	pf = &m->pm.funcs[f];
	if (pf->resolved || pf->user == 1)
		return f;
	pf->user = 1;
	/* a library call's stub (func.symbol): its function's name, as uftrace's replay shows it */
	for (size_t i = m->nsyms; i-- > 0;)
		if (m->syms[i].addr == addr) {
			char *name = strdup(m->syms[i].name);

			if (!name)
				return -ENOMEM;
			free(pf->name);
			pf->name = name;
			return f;
		}
	for (size_t i = m->nmaps; i-- > 0;) {
		const struct calls_map *mp = &m->maps[i];
		const char *base = strrchr(mp->path, '/');
		char *name;

		if (addr < mp->start || addr >= mp->end)
			continue;
		if (asprintf(&name, "%s+0x%" PRIx64, base ? base + 1 : mp->path, addr - mp->start + mp->offset) < 0)
			return -ENOMEM;
		free(pf->name);
		pf->name = name;
		break;
	}
	return f;
}

/* A loss record of a user tracefile of trace tr: every call open in tr is cut (toolkit/losses.h). */
static void cut_open(struct calls_model *m, const struct ltt_trace_info *tr)
{
	for (size_t i = 0; i < m->nth; i++)
		if (m->th[i].trace == tr) {
			struct call_thread *t = &m->th[i];

			for (size_t k = t->ncut; k < t->n; k++)
				t->fr[k].cut = 1;
			t->ncut = t->n;
		}
}

/* The thread of (tr, tid) if the model has it (switches of threads without calls are not kept). */
static struct call_thread *thread_find(struct calls_model *m, const struct ltt_trace_info *tr, uint32_t tid)
{
	for (size_t i = m->nth; i-- > 0;)
		if (m->th[i].tid == tid && m->th[i].trace == tr)
			return &m->th[i];
	return NULL;
}

/* A kernel event: a switch of a thread with calls counts its time off the CPU (doc/format.md section
 * 13: thread_switch, schedchange). 0, or -ENOMEM. */
static int switch_event(struct calls_model *m, const struct ltt_event *ev)
{
	struct sched_ev k;
	struct call_thread *t;
	int rc;

	if (!m->sd && (rc = sched_decoder_new(&m->sd)) < 0)
		return rc;
	if ((rc = sched_decode(m->sd, ev, &k)) < 0)
		return rc;
	if (k.kind != SCHED_EV_SWITCH)
		return 0;
	if (k.prev_tid != SCHED_TID_NONE && (t = thread_find(m, ev->trace, k.prev_tid)) && !t->out) {
		int blocked = k.prev_state != SCHED_PREV_UNKNOWN ? (k.prev_state & 3) != 0 : k.preempted == 0;

		t->out = blocked ? 2 : 1;
		t->out_ns = ev->time_ns;
	}
	if (k.next_tid != SCHED_TID_NONE && (t = thread_find(m, ev->trace, k.next_tid)) && t->out) {
		uint64_t d = ev->time_ns > t->out_ns ? ev->time_ns - t->out_ns : 0;

		t->off_ns += d;
		if (t->out == 2)
			t->blocked_ns += d;
		t->out = 0;
	}
	return 0;
}

int calls_event(struct calls_model *m, const struct ltt_event *ev)
{
	int kind, ret;
	uint32_t tid;
	uint64_t addr;
	struct call_thread *t;

	if ((ret = losses_event(&m->loss, ev)) != 0) {
		if (ret == 1 && losses_cut_user(&m->loss))
			cut_open(m, ev->trace);
		return ret < 0 ? ret : 0;
	}
	if (prof_model_event(&m->pm, ev))
		return prof_is_core(ev, "mapping") ? keep_map(m, ev) : 0;
	if (!ev->type->builtin && !strcmp(ev->type->facility, "kernel"))
		return switch_event(m, ev);
	kind = calls_kind(m, ev);
	if (!kind)
		return 0;
	if (ev->size < (kind == CALLS_CALL ? 20u : kind == CALLS_OPEN ? 16u : kind == CALLS_SYMBOL ? 13u :
			kind >= CALLS_ARGS ? 15u : 12u))
		return 1;	/* not the layout of eventdefs/func.xml: not ours to read */
	m->events++;
	tid = (uint32_t)dump_get_uint(ev->payload, 4, ev->big_endian);
	addr = dump_get_uint(ev->payload + 4, 8, ev->big_endian);
	if (kind == CALLS_SYMBOL) {
		const char *name = (const char *)ev->payload + 12, *z = memchr(name, 0, ev->size - 12);

		if (!z || LTT_GROW_FROM(m->syms, m->nsyms + 1, m->capsyms, 64))
			return z ? -ENOMEM : 1;
		if (!(m->syms[m->nsyms].name = strdup(name)))
			return -ENOMEM;
		m->syms[m->nsyms++].addr = addr;
		return 1;
	}
	t = thread_of(m, ev->trace, tid);
	if (!t)
		return -ENOMEM;
	if (!t->seen) {
		t->seen = 1;
		t->first_ns = ev->time_ns;
	}
	t->last_ns = ev->time_ns;
	if (kind == CALLS_OPEN) {
		uint32_t depth = (uint32_t)dump_get_uint(ev->payload + 12, 4, ev->big_endian);

		if (!depth) {
			t->nopen = 0;
			t->open_ns = ev->time_ns;
		}
		if (depth != t->nopen)
			return 1;	/* not the next of its list (a gap): the list stops there */
		if (LTT_GROW_FROM(t->open, t->nopen + 1, t->capopen, 64))
			return -ENOMEM;
		t->open[t->nopen++] = addr;
		return 1;
	}
	if (kind == CALLS_ARGS || kind == CALLS_RETVAL) {
		/* the values of the call on top (its entry just before, its exit just after) */
		struct call_frame *f = t->n ? &t->fr[t->n - 1] : NULL;
		char **to, *text;
		int err = 0;

		if (!f || f->addr != addr || f->before)
			return 1;
		to = kind == CALLS_ARGS ? &f->args : &f->retval;
		if (!(text = values_text(ev, &err)))
			return err ? err : 1;
		free(*to);
		*to = text;
		if (kind == CALLS_ARGS && m->on_args &&
		    (ret = m->on_args(m->arg, tid, (uint32_t)t->n - 1, text)))
			return ret;
		return 1;
	}
	if (kind == CALLS_ENTRY) {
		long f = func_of(m, addr);

		if (f < 0)
			return (int)f;
		if (LTT_GROW_FROM(t->fr, t->n + 1, t->cap, 64))
			return -ENOMEM;
		t->fr[t->n++] = (struct call_frame){ .addr = addr, .func = f, .start_ns = ev->time_ns,
						     .off0 = t->off_ns, .blocked0 = t->blocked_ns };
		if (m->on_enter && (ret = m->on_enter(m->arg, tid, (uint32_t)t->n - 1, f, ev->time_ns)))
			return ret;
		return 1;
	}
	if (kind == CALLS_EXIT) {
		size_t k = t->n;

		while (k && t->fr[k - 1].addr != addr)
			k--;
		if (!k) {
			m->unmatched++;
			return 1;
		}
		while (t->n >= k)
			if ((ret = pop(m, t, ev->time_ns, 0)))
				return ret;
		return 1;
	}
	/* func.call: cycles before its own time */
	{
		uint64_t cyc = dump_get_uint(ev->payload + 12, 8, ev->big_endian), dur;

		uint64_t cps = ev->trace ? ev->trace->cycles_per_second : 0;

		dur = cps ? (uint64_t)((unsigned __int128)cyc * 1000000000u / cps) : cyc;
		if (LTT_GROW_FROM(t->done, t->ndone + 1, t->capdone, 256))
			return -ENOMEM;
		t->done[t->ndone++] = (struct call_done){
			.start_ns = ev->time_ns > dur ? ev->time_ns - dur : 0, .dur_ns = dur, .addr = addr };
	}
	return 1;
}

static int by_start(const void *a, const void *b)
{
	const struct call_done *x = a, *y = b;

	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	return x->dur_ns > y->dur_ns ? -1 : x->dur_ns < y->dur_ns;	/* the enclosing one first */
}

/* Minimum-duration calls of t, nested by their intervals: each is reported when its last callee is. */
static int finish_done(struct calls_model *m, struct call_thread *t)
{
	int ret;

	qsort(t->done, t->ndone, sizeof(*t->done), by_start);
	t->n = 0;
	t->ncut = 0;
	for (size_t i = 0; i <= t->ndone; i++) {
		struct call_done *d = i < t->ndone ? &t->done[i] : NULL;

		/* close the frames that end before this call starts */
		while (t->n && (!d || t->fr[t->n - 1].start_ns + t->fr[t->n - 1].addr <= d->start_ns))
			if ((ret = pop(m, t, t->fr[t->n - 1].start_ns + t->fr[t->n - 1].addr, 0)))
				return ret;
		if (!d)
			break;
		long f = func_of(m, d->addr);

		if (f < 0)
			return (int)f;
		if (LTT_GROW_FROM(t->fr, t->n + 1, t->cap, 64))
			return -ENOMEM;
		/* .addr holds the duration here: frames of this pass are matched by time, not address */
		t->fr[t->n++] = (struct call_frame){ .addr = d->dur_ns, .func = f, .start_ns = d->start_ns };
		if (m->on_enter && (ret = m->on_enter(m->arg, t->tid, (uint32_t)t->n - 1, f, d->start_ns)))
			return ret;
	}
	t->ndone = 0;
	return 0;
}

/* The snapshot's open calls of t (t->open, outermost first) joined to the frames its events left open
 * (t->fr): the frames opened after the list was written stay on top; below them, the frames of the
 * events that match the list's innermost calls keep their entry times; the list's outer calls whose
 * entries the rings did not keep go under those (before: start not known); the event frames the list
 * does not hold returned with their exit lost: reported cut. */
static int join_open(struct calls_model *m, struct call_thread *t)
{
	size_t top = t->n, i, j = t->nopen, k, nn;
	struct call_frame *nf;
	int ret;

	while (top && t->fr[top - 1].start_ns > t->open_ns)
		top--;	/* opened after the list */
	i = top;
	while (i && j && t->fr[i - 1].addr == t->open[j - 1]) {
		i--;
		j--;
	}
	/* t->fr[0 .. i): open by the events, not by the list */
	for (k = 0; k < i; k++) {
		struct call_frame *f = &t->fr[k];
		struct call c = {
			.trace = t->trace,
			.tid = t->tid,
			.depth = (uint32_t)k,
			.func = f->func,
			.parent = k ? t->fr[k - 1].func : -1,
			.start_ns = f->start_ns,
			.cut = 1,
			.args = f->args,
		};

		m->cut++;
		ret = m->on_call ? m->on_call(m->arg, &c) : 0;
		free(f->args);
		free(f->retval);
		f->args = f->retval = NULL;
		if (ret)
			return ret;
	}
	nn = j + (t->n - i);
	nf = malloc((nn ? nn : 1) * sizeof(*nf));
	if (!nf)
		return -ENOMEM;
	for (k = 0; k < j; k++) {
		long f = func_of(m, t->open[k]);

		if (f < 0) {
			free(nf);
			return (int)f;
		}
		nf[k] = (struct call_frame){ .addr = t->open[k], .func = f, .start_ns = t->first_ns, .before = 1 };
	}
	memcpy(nf + j, t->fr + i, (t->n - i) * sizeof(*nf));
	free(t->fr);
	t->fr = nf;
	t->n = t->cap = nn;
	t->ncut = 0;
	t->nopen = 0;
	return 0;
}

int calls_finish(struct calls_model *m)
{
	int ret;

	for (size_t i = 0; i < m->nth; i++) {
		struct call_thread *t = &m->th[i];

		if (t->nopen && (ret = join_open(m, t)))
			return ret;
		while (t->n)
			if ((ret = pop(m, t, t->last_ns, 1)))
				return ret;
		if (t->ndone && (ret = finish_done(m, t)))
			return ret;
	}
	return 0;
}
