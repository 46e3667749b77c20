/* SPDX-License-Identifier: MIT */
/* The thread table (toolkit/thread_table.h): thread identity from the trace's own records. Field
 * meanings: doc/format.md sections 6 (core) and 13 (kernel). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"
#include "common/hashmap.h"
#include "toolkit/event_tid.h"
#include "toolkit/thread_table.h"
#include "toolkit/trace2_model.h"

enum tt_kind {
	T_OTHER, T_CORE_PROCESS, T_THREAD_START, T_THREAD_NAME, T_THREAD_EXIT, T_STATE_PROCESS, T_KPROCESS,
	T_SCHEDCHANGE, T_KOWN, T_KOTHER, T_APP, T_BUILTIN
};

LTT_MAP_DEFINE(ttmap, struct tt_key, struct tt_thread *, tt_key_hash, tt_key_eq)

static inline int ptr_eq(const void *a, const void *b)
{
	return a == b;
}
LTT_MAP_DEFINE(kindmap, const void *, int, ltt_hash_ptr, ptr_eq)

struct tt_trace {
	uint32_t pid;	/* ltt_pid, TT_NONE */
	int system;	/* a system-scope kernel recording */
};

struct thread_table {
	struct ttmap map;
	struct kindmap kinds;
	struct tt_thread **v;
	size_t n, cap;
	int sorted;
	struct tt_trace *traces;
	unsigned ntraces;
	struct t2_model *t2;
};

int thread_table_new(struct thread_table **out)
{
	struct thread_table *tt = calloc(1, sizeof(*tt));

	*out = tt;
	if (!tt)
		return -ENOMEM;
	return t2_model_new(&tt->t2);
}

void thread_table_free(struct thread_table *tt)
{
	if (!tt)
		return;
	for (size_t i = 0; i < tt->n; i++) {
		for (size_t k = 0; k < tt->v[i]->nnames; k++)
			free(tt->v[i]->names[k].name);
		free(tt->v[i]->names);
		free(tt->v[i]->trace2);
		free(tt->v[i]);
	}
	free(tt->v);
	free(tt->traces);
	ttmap_free(&tt->map);
	kindmap_free(&tt->kinds);
	if (tt->t2)
		t2_model_free(tt->t2);
	free(tt);
}

static int has_field(const struct ltt_event_type *ty, const char *name)
{
	for (unsigned k = 0; ty->body && k < ty->body->n_fields; k++)
		if (ty->body->fields[k].name && !strcmp(ty->body->fields[k].name, name))
			return 1;
	return 0;
}

static enum tt_kind classify(const struct ltt_event_type *ty)
{
	const char *f = ty->facility, *n = ty->name;

	if (ty->builtin || !f || !n)
		return T_BUILTIN;
	if (!strcmp(f, "core")) {
		if (!strcmp(n, "process"))	/* ltt's thread record, or the 2004 kernel's (event_sub_id) */
			return has_field(ty, "event_sub_id") ? T_OTHER : T_CORE_PROCESS;
		return !strcmp(n, "thread_start") ? T_THREAD_START : !strcmp(n, "thread_name") ? T_THREAD_NAME
			: !strcmp(n, "thread_exit") ? T_THREAD_EXIT : T_OTHER;
	}
	if (!strcmp(f, "kernel")) {
		if (!strcmp(n, "state_process"))
			return T_STATE_PROCESS;
		if (!strcmp(n, "process"))
			return T_KPROCESS;
		if (!strcmp(n, "schedchange"))
			return T_SCHEDCHANGE;
		if (!strcmp(n, "syscall_entry") || !strcmp(n, "syscall_exit") || !strcmp(n, "syscall") ||
		    !strcmp(n, "thread_switch") ||
		    !strcmp(n, "run_delay") || !strcmp(n, "trap_entry"))
			return T_KOWN;
		return T_KOTHER;	/* irq, soft_irq: the interrupted thread, not its own event */
	}
	if (!strcmp(f, "app"))
		return T_APP;
	return T_OTHER;
}

static struct tt_trace *trace_of(struct thread_table *tt, const struct ltt_trace_info *t)
{
	if (t->index >= tt->ntraces) {
		unsigned n = t->index + 1;
		struct tt_trace *v = realloc(tt->traces, n * sizeof(*v));

		if (!v)
			return NULL;
		for (unsigned i = tt->ntraces; i < n; i++)
			v[i].pid = TT_NONE, v[i].system = -1;
		tt->traces = v;
		tt->ntraces = n;
	}
	if (tt->traces[t->index].system < 0) {
		const char *pid = ltt_trace_attr(t, "ltt_pid"), *scope = ltt_trace_attr(t, "ltt_kernel_scope");

		tt->traces[t->index].pid = pid ? (uint32_t)strtoul(pid, NULL, 10) : TT_NONE;
		tt->traces[t->index].system = scope && !strcmp(scope, "system");
	}
	return &tt->traces[t->index];
}

static struct tt_thread *get(struct thread_table *tt, unsigned trace, uint64_t tid)
{
	struct tt_key k = { trace, (uint32_t)tid };
	struct tt_thread **p;
	int added;

	if (tid > UINT32_MAX - 1)
		return NULL;
	if (!(p = ttmap_put(&tt->map, k, &added)))
		return NULL;
	if (added) {
		if (LTT_GROW(tt->v, tt->n + 1, tt->cap) || !(*p = calloc(1, sizeof(**p)))) {
			*p = NULL;
			return NULL;
		}
		(*p)->trace = trace;
		(*p)->tid = (uint32_t)tid;
		(*p)->pid = TT_NONE;
		tt->v[tt->n++] = *p;
		tt->sorted = 0;
	}
	return *p;
}

static int set_name(struct tt_thread *t, uint64_t ns, const char *name)
{
	char *copy;

	if (!name || !name[0] || (t->nnames && !strcmp(t->names[t->nnames - 1].name, name)))
		return 0;
	if (LTT_GROW(t->names, t->nnames + 1, t->capnames) || !(copy = strdup(name)))
		return -ENOMEM;
	t->names[t->nnames].ns = ns;
	t->names[t->nnames++].name = copy;
	return 0;
}

static uint64_t fu(const struct ltt_value *body, const char *name, uint64_t def)
{
	struct ltt_value v;

	return ltt_value_field(body, name, &v) ? def : ltt_value_uint(&v);
}

static const char *fs(const struct ltt_value *body, const char *name)
{
	struct ltt_value v;

	return ltt_value_field(body, name, &v) ? NULL : ltt_value_string(&v, NULL);
}

/* A thread told by name only (the other side of a switch, a fork's child, a wakeup's target). */
static int named(struct thread_table *tt, unsigned trace, uint64_t tid, uint64_t ns, const char *name)
{
	struct tt_thread *t;

	if (!name || !name[0])
		return 0;
	if (!(t = get(tt, trace, tid)))
		return tid > UINT32_MAX - 1 ? 0 : -ENOMEM;
	return set_name(t, ns, name);
}

int thread_table_event(struct thread_table *tt, const struct ltt_event *ev)
{
	struct tt_trace *tr = trace_of(tt, ev->trace);
	unsigned trace = ev->trace->index;
	struct tt_thread *t = NULL;
	struct ltt_value body;
	const char *base;
	int64_t tid;
	int *kp, added, kind, rc = 0;

	if (!tr || !(kp = kindmap_put(&tt->kinds, ev->type, &added)))
		return -ENOMEM;
	if (added)
		*kp = classify(ev->type);
	kind = *kp;
	if (kind == T_BUILTIN)
		return 0;
	if (event_tid(ev, &tid) && tid >= 0) {
		if (!(t = get(tt, trace, (uint64_t)tid)))
			return tid > UINT32_MAX - 1 ? 0 : -ENOMEM;
		if (!t->events++)
			t->first_ns = ev->time_ns;
		t->last_ns = ev->time_ns;
		/* the thread's own records: the traced process's thread (a user event of its trace, a kernel
		 * event of its own perf streams in process scope) */
		if ((kind == T_OTHER || kind == T_APP || (kind == T_KOWN && !tr->system)) && tid != 0) {
			t->own = 1;
			if (t->pid == TT_NONE)
				t->pid = tr->pid;
		}
	}
	if (kind == T_OTHER || kind == T_KOTHER || kind == T_KOWN || ltt_event_body(ev, &body))
		return 0;
	switch (kind) {
	case T_CORE_PROCESS:	/* one per thread alive at start; pid is its tid */
		if (!(t = get(tt, trace, fu(&body, "pid", UINT64_MAX))))
			return 0;
		t->pid = tr->pid != TT_NONE ? tr->pid : t->tid;
		t->own = 1;
		return set_name(t, ev->time_ns, fs(&body, "name"));
	case T_THREAD_START:
	case T_THREAD_NAME:
	case T_THREAD_EXIT:
		if (!t)
			return 0;
		if (kind == T_THREAD_EXIT) {
			t->end_ns = ev->time_ns;
			return 0;
		}
		if (kind == T_THREAD_START) {
			uint64_t pid = fu(&body, "pid", UINT64_MAX);

			t->start_ns = ev->time_ns;
			if (pid < TT_NONE)
				t->pid = (uint32_t)pid;
		}
		t->own = 1;
		return set_name(t, ev->time_ns, fs(&body, "name"));
	case T_STATE_PROCESS:
		if (!t)
			return 0;
		if (fu(&body, "pid", UINT64_MAX) < TT_NONE)
			t->pid = (uint32_t)fu(&body, "pid", 0);
		return set_name(t, ev->time_ns, fs(&body, "comm"));
	case T_SCHEDCHANGE:
		if ((rc = named(tt, trace, fu(&body, "out", UINT64_MAX), ev->time_ns, fs(&body, "out_comm"))))
			return rc;
		return named(tt, trace, fu(&body, "in", UINT64_MAX), ev->time_ns, fs(&body, "in_comm"));
	case T_KPROCESS: {
		const char *sub, *name = fs(&body, "name");
		struct ltt_value v;

		if (!t || ltt_value_field(&body, "event_sub_id", &v) || !(sub = ltt_value_enum_label(&v)))
			return 0;
		if (!strcmp(sub, "fork")) {
			struct tt_thread *c = get(tt, trace, fu(&body, "event_data1", UINT64_MAX));

			if (!c)
				return 0;
			c->start_ns = ev->time_ns;
			/* a child of the traced process's thread in process scope: perf records only that
			 * process's threads, so the child is recorded later only if it is one of them (own) */
			return set_name(c, ev->time_ns, name);
		}
		if (!strcmp(sub, "exit")) {
			t->end_ns = ev->time_ns;
			return 0;
		}
		if (!strcmp(sub, "exec")) {	/* the new comm: the file's base name, as the kernel cuts it */
			char comm[16];

			base = name ? strrchr(name, '/') : NULL;
			base = base ? base + 1 : name;
			if (!base)
				return 0;
			strncpy(comm, base, sizeof(comm) - 1);
			comm[sizeof(comm) - 1] = 0;
			return set_name(t, ev->time_ns, comm);
		}
		return set_name(t, ev->time_ns, name);	/* wakeup, migrate: the thread's comm */
	}
	case T_APP: {
		struct t2_event e;

		if (t && t2_model_event(tt->t2, ev, &e) == 1 && e.thread &&
		    (strncmp(e.thread, "tid:", 4) || !t->trace2) && (!t->trace2 || strcmp(t->trace2, e.thread))) {
			free(t->trace2);
			if (!(t->trace2 = strdup(e.thread)))
				return -ENOMEM;
		}
		return 0;
	}
	default:
		return 0;
	}
}

static int by_first(const void *a, const void *b)
{
	const struct tt_thread *x = *(struct tt_thread *const *)a, *y = *(struct tt_thread *const *)b;

	if (x->trace != y->trace)
		return x->trace < y->trace ? -1 : 1;
	if (x->first_ns != y->first_ns)
		return x->first_ns < y->first_ns ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

size_t thread_table_threads(struct thread_table *tt, struct tt_thread ***out)
{
	if (!tt->sorted && tt->n) {
		qsort(tt->v, tt->n, sizeof(*tt->v), by_first);
		tt->sorted = 1;
	}
	*out = tt->v;
	return tt->n;
}

struct tt_thread *thread_table_find(const struct thread_table *tt, unsigned trace, uint32_t tid)
{
	struct tt_thread **p = ttmap_find(&tt->map, (struct tt_key){ trace, tid });

	return p ? *p : NULL;
}

const char *tt_name_at(const struct tt_thread *t, uint64_t ns)
{
	const char *best = NULL;

	if (!t || !t->nnames)
		return NULL;
	best = t->names[0].name;
	for (size_t i = 1; i < t->nnames && t->names[i].ns <= ns; i++)
		best = t->names[i].name;
	return best;
}

const char *thread_table_process_name(const struct thread_table *tt, unsigned trace, uint32_t pid)
{
	return tt_name_at(thread_table_find(tt, trace, pid), UINT64_MAX);
}
