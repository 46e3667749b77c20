/* SPDX-License-Identifier: MIT */
/* ltt dump --format=tracelog: any trace as CoreProfiler's TraceLog text (doc/tracelog.md): one record
 * per line, `type subtype` then fields; internal ids are counters from 0 per kind, printed 0x%x; times
 * are milliseconds from the start of the trace; CPU usage in microseconds; `?` where undefined.
 * Profiler records (prf stm, prf cfg, prf tps/trs), threads (thr crt/aos/dst, thr cpu), process CPU
 * (prc cpu), modules (mod ldf), functions (fun inf, fun nam: before the first sample naming them) and
 * stack samples (sam str, delta-encoded against the thread's previous sam str line at the level of
 * functions) come from the core facility's events; every other event is one `ltt evt` line, left out
 * by --brief. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/grow.h"

#include "toolkit/dump_format.h"
#include "toolkit/profile.h"

enum kind { K_OTHER, K_PROCESS, K_THREAD_START, K_THREAD_EXIT, K_SAMPLING, K_PROCESS_CPU, K_THREAD_CPU,
	    K_PAUSE, K_RESUME, K_MAPPING, K_STACK, K_RULES, K_NKINDS };
static const char *const kind_names[K_NKINDS] = {
	NULL, "process", "thread_start", "thread_exit", "sampling", "process_cpu", "thread_cpu", "pause",
	"resume", "mapping", "stack_sample", "event_rules",
};

struct tl_type {
	enum kind kind;
	size_t hlen;
	char head[];		/* "\"facility.event\"" for ltt evt */
};

struct tl_stack {		/* a thread's stack as its last sam str line gave it */
	uint32_t funcs[PROF_MAX_DEPTH];
	uint64_t ips[PROF_MAX_DEPTH];
	unsigned depth;
};

struct tl_mod {
	const char *path;	/* the symbolizer's copy, or ours (owned) */
	uint64_t start;
	char *own;
};

struct tl {
	struct prof_model m;
	uint64_t t0;
	int64_t next_thread, next_func;
	struct tl_stack *stacks;	/* parallel to m.threads (by index) */
	size_t nstacks;
	struct tl_mod *mods;
	size_t nmods, cap_mods;
	uint64_t skipped;		/* samples without a known stack */
};

static const char hexd[] = "0123456789abcdef";

static char *put_hex(char *p, uint64_t v)
{
	char tmp[16];
	int n = 0;

	*p++ = '0';
	*p++ = 'x';
	do {
		tmp[n++] = hexd[v & 15];
		v >>= 4;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

static void out_hex(struct dump_out *o, uint64_t v)
{
	dump_out_commit(o, put_hex(dump_out_reserve(o, 18), v));
}

static void out_u(struct dump_out *o, uint64_t v)
{
	dump_out_commit(o, dump_put_u64(dump_out_reserve(o, 20), v));
}

static uint64_t ms_of(const struct tl *tl, uint64_t ns)
{
	return ns > tl->t0 ? (ns - tl->t0) / 1000000u : 0;
}

/* ---- begin: prf stm, prf cfg ---------------------------------------------------------------------- */

static void cfg(struct dump_out *o, const char *name, const char *value)
{
	dump_out_str(o, "prf cfg ");
	dump_out_str(o, name);
	dump_out_char(o, ' ');
	dump_out_str(o, value);
	dump_out_char(o, '\n');
}

static int tl_begin(struct ltt_dump_ctx *ctx)
{
	const struct ltt_trace_info *t = ltt_reader_trace(ctx->reader, 0);
	struct tl *tl = calloc(1, sizeof(*tl));
	struct dump_out *o = ctx->out;
	const char *v;
	char buf[96], zone[16];
	uint64_t last;
	struct tm tm;
	time_t sec;
	int ret;

	if (!tl)
		return -ENOMEM;
	ret = prof_model_init(&tl->m);
	if (ret) {
		free(tl);
		return ret;
	}
	ctx->priv = tl;
	v = t ? ltt_trace_attr(t, "ltt_start_time") : NULL;
	if (!v || ltt_parse_seconds(v, &tl->t0))
		ltt_reader_time_bounds(ctx->reader, &tl->t0, &last);
	sec = (time_t)(tl->t0 / 1000000000u);
	localtime_r(&sec, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S", &tm);
	strftime(zone, sizeof(zone), "%z", &tm);
	dump_out_str(o, "prf stm ");
	dump_out_str(o, buf);
	snprintf(buf, sizeof(buf), ".%03u %s\n", (unsigned)(tl->t0 / 1000000u % 1000u), zone);
	dump_out_str(o, buf);
	if (t) {
		if ((v = ltt_trace_attr(t, "ltt_mode")))
			cfg(o, "Mode", v);
		snprintf(buf, sizeof(buf), "%" PRIu32, t->block_size);
		cfg(o, "BlockSize", buf);
		snprintf(buf, sizeof(buf), "%u", t->ncpus);
		cfg(o, "Cpus", buf);
		if ((v = ltt_trace_attr(t, "ltt_program")))
			cfg(o, "Program", v);
	}
	return o->error;
}

/* ---- threads, modules, functions ------------------------------------------------------------------- */

static int stacks_fit(struct tl *tl)
{
	return LTT_GROW_ZERO(tl->stacks, tl->m.nthreads, tl->nstacks);	/* nstacks: the capacity, zeroed */
}

/* The thread of tid, with its thr crt / thr aos printed the first time. */
static struct prof_thread *thread_of(struct tl *tl, struct dump_out *o, uint32_t tid)
{
	struct prof_thread *t = prof_thread(&tl->m, tid, NULL);

	if (!t || stacks_fit(tl))
		return NULL;
	if (t->user < 0) {
		t->user = tl->next_thread++;
		dump_out_str(o, "thr crt ");
		out_hex(o, tid);
		dump_out_char(o, ' ');
		out_hex(o, (uint64_t)t->user);
		dump_out_str(o, "\nthr aos ");
		out_hex(o, (uint64_t)t->user);
		dump_out_char(o, ' ');
		out_u(o, tid);
		dump_out_char(o, '\n');
	}
	return t;
}

static int64_t mod_iid(struct tl *tl, const char *path, uint64_t start, int add, int *added)
{
	*added = 0;
	for (size_t i = 0; i < tl->nmods; i++)
		if (!strcmp(tl->mods[i].path, path) && (!add || tl->mods[i].start == start))
			return (int64_t)i;
	if (!add)
		return -1;
	if (LTT_GROW(tl->mods, tl->nmods + 1, tl->cap_mods))
		return -ENOMEM;
	tl->mods[tl->nmods].own = strdup(path);
	if (!tl->mods[tl->nmods].own)
		return -ENOMEM;
	tl->mods[tl->nmods].path = tl->mods[tl->nmods].own;
	tl->mods[tl->nmods].start = start;
	*added = 1;
	return (int64_t)tl->nmods++;
}

static void quoted(struct dump_out *o, const char *s)
{
	dump_out_char(o, '"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			dump_out_char(o, '\\');
		dump_out_char(o, *s == '\n' ? ' ' : *s);
	}
	dump_out_char(o, '"');
}

/* fun inf / fun nam of function f the first time a sample names it. */
static int func_iid(struct tl *tl, struct dump_out *o, long f)
{
	struct prof_func *fn = &tl->m.funcs[f];
	int64_t mod;
	int added;

	if (fn->user >= 0)
		return 0;
	fn->user = tl->next_func++;
	mod = fn->module ? mod_iid(tl, fn->module, 0, 0, &added) : -1;
	/* class id and token do not exist for native code: 0x0, as the client's grammar wants an <id>
	 * there; the module id is the module's load address (0x0: in no module) */
	dump_out_str(o, "fun inf ");
	out_hex(o, (uint64_t)fn->user);
	dump_out_char(o, ' ');
	out_hex(o, fn->start);
	dump_out_str(o, " 0x0 ");
	out_hex(o, mod >= 0 ? tl->mods[mod].start : 0);
	dump_out_str(o, " 0x0");
	if (fn->resolved && fn->size) {
		dump_out_char(o, ' ');
		out_hex(o, fn->start);
		dump_out_char(o, ':');
		out_hex(o, fn->size);
	}
	dump_out_str(o, "\nfun nam ");
	out_hex(o, (uint64_t)fn->user);
	dump_out_char(o, ' ');
	quoted(o, fn->name);
	dump_out_str(o, " \"?\" \"?\"\n");
	return 0;
}

/* ---- records -------------------------------------------------------------------------------------- */

static int sample(struct tl *tl, struct dump_out *o, const struct ltt_event *ev)
{
	uint32_t funcs[PROF_MAX_DEPTH];
	struct prof_sample s;
	struct prof_thread *t;
	struct tl_stack *prev;
	unsigned n, k = 0;
	int ret = prof_model_sample(&tl->m, ev, &t, &s);

	if (ret < 0)
		return ret == -EINVAL ? 0 : ret;
	t = thread_of(tl, o, s.tid);
	if (!t)
		return -ENOMEM;
	if (!ret) {
		tl->skipped++;
		return 0;
	}
	n = t->stack.depth;
	for (unsigned i = 0; i < n; i++) {
		long f = prof_func_of(&tl->m, t->stack.ips[i], i + 1 == n);

		if (f < 0)
			return (int)f;
		func_iid(tl, o, f);
		funcs[i] = (uint32_t)tl->m.funcs[f].user;
	}
	prev = &tl->stacks[t - tl->m.threads];
	while (k < n && k < prev->depth && prev->funcs[k] == funcs[k])
		k++;
	dump_out_str(o, "sam str ");
	out_hex(o, (uint64_t)t->user);
	dump_out_char(o, ' ');
	out_u(o, ms_of(tl, ev->time_ns));
	dump_out_char(o, ' ');
	out_u(o, s.ticks);
	dump_out_char(o, ' ');
	out_u(o, k);
	dump_out_char(o, ':');
	out_u(o, prev->depth);
	if (k && prev->ips[k - 1] != t->stack.ips[k - 1]) {
		dump_out_char(o, ':');
		out_hex(o, t->stack.ips[k - 1]);	/* the call point of the last kept frame moved */
	}
	for (unsigned i = k; i < n; i++) {
		dump_out_char(o, ' ');
		out_hex(o, funcs[i]);
		dump_out_char(o, ':');
		out_hex(o, t->stack.ips[i]);
	}
	dump_out_char(o, '\n');
	memcpy(prev->funcs, funcs, sizeof(uint32_t) * n);
	memcpy(prev->ips, t->stack.ips, sizeof(uint64_t) * n);
	prev->depth = n;
	return 0;
}

static void value(struct dump_out *o, const struct ltt_value *v)
{
	struct ltt_value c;
	const char *s;
	size_t n;
	int ret, first = 1;

	switch (v->type->kind) {
	case LTT_TYPE_INT:
		dump_out_i64(o, ltt_value_int(v));
		return;
	case LTT_TYPE_UINT:
		out_u(o, ltt_value_uint(v));
		return;
	case LTT_TYPE_FLOAT:
		dump_out_double(o, ltt_value_float(v));
		return;
	case LTT_TYPE_ENUM:
		s = ltt_value_enum_label(v);
		if (s)
			dump_out_str(o, s);
		else
			out_u(o, ltt_value_uint(v));
		return;
	case LTT_TYPE_STRING:
		s = ltt_value_string(v, &n);
		dump_out_c_string(o, s, n);
		return;
	case LTT_TYPE_ARRAY:
	case LTT_TYPE_SEQUENCE:
	case LTT_TYPE_STRUCT:
	case LTT_TYPE_UNION: {
		int brace = v->type->kind == LTT_TYPE_STRUCT || v->type->kind == LTT_TYPE_UNION;

		dump_out_char(o, brace ? '{' : '[');
		for (ret = ltt_value_first(v, &c); !ret; ret = ltt_value_next(v, &c)) {
			if (!first)
				dump_out_char(o, ' ');
			first = 0;
			if (c.name) {
				dump_out_str(o, c.name);
				dump_out_char(o, '=');
			}
			value(o, &c);
		}
		dump_out_char(o, brace ? '}' : ']');
		return;
	}
	default:
		dump_out_char(o, '?');
	}
}

/* ltt evt TIMESTAMP CPU "facility.event" field=value ... (CPU: N for cpu/N, ? for control files) */
static void other(struct tl *tl, struct dump_out *o, const struct ltt_event *ev, const struct tl_type *ty)
{
	struct ltt_value body, c;
	int ret;

	dump_out_str(o, "ltt evt ");
	out_u(o, ms_of(tl, ev->time_ns));
	dump_out_char(o, ' ');
	if (ev->tracefile->cpu >= 0)
		out_u(o, (uint64_t)ev->tracefile->cpu);
	else
		dump_out_char(o, '?');
	dump_out_char(o, ' ');
	dump_out_mem(o, ty->head, ty->hlen);
	if (!ltt_event_body(ev, &body)) {
		if (body.type->kind == LTT_TYPE_STRUCT) {
			for (ret = ltt_value_first(&body, &c); !ret; ret = ltt_value_next(&body, &c)) {
				dump_out_char(o, ' ');
				dump_out_str(o, c.name);
				dump_out_char(o, '=');
				value(o, &c);
			}
		} else {
			dump_out_str(o, " value=");
			value(o, &body);
		}
	}
	dump_out_char(o, '\n');
}

static struct tl_type *type_of(const struct ltt_event *ev)
{
	const struct ltt_event_type *ty = ev->type;
	struct tl_type *t = *ty->user;
	size_t n;

	if (__builtin_expect(t != NULL, 1))
		return t;
	n = strlen(ty->facility) + strlen(ty->name) + 4;
	t = malloc(sizeof(*t) + n);
	if (!t)
		return NULL;
	t->kind = K_OTHER;
	if (!ty->builtin && !strcmp(ty->facility, "core"))
		for (int k = 1; k < K_NKINDS; k++)
			if (!strcmp(ty->name, kind_names[k]))
				t->kind = (enum kind)k;
	t->hlen = (size_t)snprintf(t->head, n, "\"%s.%s\"", ty->facility, ty->name);
	*ty->user = t;
	return t;
}

static int tl_event(struct ltt_dump_ctx *ctx, const struct ltt_event *ev)
{
	struct tl *tl = ctx->priv;
	struct dump_out *o = ctx->out;
	struct tl_type *ty = type_of(ev);
	struct prof_thread *t;
	struct ltt_value body, f;
	char buf[32];
	int added, ret = 0;
	int64_t mod;

	if (!ty)
		return -ENOMEM;
	switch (ty->kind) {
	case K_OTHER:
		if (!ctx->brief)
			other(tl, o, ev, ty);
		break;
	case K_PROCESS:
	case K_THREAD_START:
		if (!thread_of(tl, o, (uint32_t)prof_field_u64(ev, ty->kind == K_PROCESS ? "pid" : "tid")))
			return -ENOMEM;
		break;
	case K_THREAD_EXIT:
		t = thread_of(tl, o, (uint32_t)prof_field_u64(ev, "tid"));
		if (!t)
			return -ENOMEM;
		dump_out_str(o, "thr dst ");
		out_hex(o, t->tid);
		dump_out_char(o, ' ');
		out_hex(o, (uint64_t)t->user);
		dump_out_char(o, '\n');
		break;
	case K_SAMPLING:
		prof_model_event(&tl->m, ev);
		snprintf(buf, sizeof(buf), "%" PRIu64, prof_field_u64(ev, "cpu_sample_ms"));
		cfg(o, "CpuSampleMs", buf);
		snprintf(buf, sizeof(buf), "%" PRIu64, prof_field_u64(ev, "stack_sample_hz"));
		cfg(o, "StackSampleHz", buf);
		snprintf(buf, sizeof(buf), "%" PRIu64, prof_field_u64(ev, "signal"));
		cfg(o, "StackSignal", buf);
		break;
	case K_RULES:
		if (!ltt_event_body(ev, &body) && !ltt_value_first(&body, &f) && f.type->kind == LTT_TYPE_STRING) {
			dump_out_str(o, "prf cfg EventRules ");
			quoted(o, ltt_value_string(&f, NULL));
			dump_out_char(o, '\n');
		} else if (!ctx->brief) {
			other(tl, o, ev, ty);
		}
		break;
	case K_PROCESS_CPU:
		dump_out_str(o, "prc cpu ");
		out_u(o, ms_of(tl, ev->time_ns));
		dump_out_char(o, ' ');
		out_u(o, prof_field_u64(ev, "usage_us"));
		dump_out_char(o, '\n');
		break;
	case K_THREAD_CPU:
		t = thread_of(tl, o, (uint32_t)prof_field_u64(ev, "tid"));
		if (!t)
			return -ENOMEM;
		dump_out_str(o, "thr cpu ");
		out_hex(o, (uint64_t)t->user);
		dump_out_char(o, ' ');
		out_u(o, ms_of(tl, ev->time_ns));
		dump_out_char(o, ' ');
		out_u(o, prof_field_u64(ev, "usage_us"));
		dump_out_char(o, '\n');
		break;
	case K_PAUSE:
	case K_RESUME:
		dump_out_str(o, ty->kind == K_PAUSE ? "prf tps " : "prf trs ");
		out_u(o, ms_of(tl, ev->time_ns));
		dump_out_char(o, '\n');
		break;
	case K_MAPPING:
		prof_model_event(&tl->m, ev);
		if (ltt_event_body(ev, &body) || ltt_value_field(&body, "path", &f))
			break;
		mod = mod_iid(tl, ltt_value_string(&f, NULL), prof_field_u64(ev, "start"), 1, &added);
		if (mod < 0)
			return (int)mod;
		if (!added)
			break;	/* the same mapping recorded again (the map changed elsewhere) */
		/* module id: the load address (CoreCLR's module ids are pointers too); assembly id 0x0 */
		dump_out_str(o, "mod ldf ");
		out_hex(o, prof_field_u64(ev, "start"));
		dump_out_char(o, ' ');
		out_hex(o, prof_field_u64(ev, "start"));
		dump_out_str(o, " 0x0 0x00000000 ");
		quoted(o, tl->mods[mod].path);
		dump_out_char(o, '\n');
		break;
	case K_STACK:
		ret = sample(tl, o, ev);
		break;
	default:
		break;
	}
	return ret ? ret : o->error;
}

static int tl_end(struct ltt_dump_ctx *ctx)
{
	struct tl *tl = ctx->priv;

	for (unsigned i = 0; i < ltt_reader_ntraces(ctx->reader); i++) {
		const struct ltt_trace_info *t = ltt_reader_trace(ctx->reader, i);

		for (unsigned k = 0; k < t->nevent_types; k++) {
			const struct ltt_event_type *ty = t->event_types[k];

			free(*ty->user);
			*ty->user = NULL;
		}
	}
	if (!tl)
		return 0;
	for (size_t i = 0; i < tl->nmods; i++)
		free(tl->mods[i].own);
	free(tl->mods);
	free(tl->stacks);
	prof_model_free(&tl->m);
	free(tl);
	ctx->priv = NULL;
	return 0;
}

const struct ltt_dump_format ltt_fmt_tracelog = {
	.name = "tracelog",
	.summary = "CoreProfiler's TraceLog (doc/tracelog.md): prf, thr, prc, mod, fun, sam records; other "
		   "events as `ltt evt` lines (--brief: left out)",
	.begin = tl_begin,
	.event = tl_event,
	.end = tl_end,
};
