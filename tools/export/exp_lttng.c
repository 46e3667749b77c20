/* SPDX-License-Identifier: MIT */
/* `ltt export --format=lttng`: the kernel events (the kernel facility, a 2004 trace's core events) as
 * an LTTng kernel trace: OUT/kernel/, a CTF 1.8 trace in the LTTng kernel tracer's vocabulary, so that
 * the tools made for LTTng kernel traces (lttng-analyses: lttng-cputop, lttng-schedtop,
 * lttng-syscallstats, lttng-irqstats; Trace Compass's kernel analysis) read it as they read one
 * (doc/viewing.md "LTTng kernel analyses").
 *
 * What those tools look for, learnt from lttng-analyses' and babeltrace's source (facts, not code):
 * the metadata's env says domain = "kernel", tracer_name = "lttng-modules" and the tracer version
 * (tracer_major, tracer_minor, tracer_patchlevel, read by lttng-analyses from the metadata text of the
 * directory named kernel); every stream's packet context has cpu_id; events are named as
 * lttng-modules names them, with its field names: sched_switch (prev_comm, prev_tid, prev_prio,
 * prev_state, next_comm, next_tid, next_prio), sched_wakeup (comm, tid, prio, target_cpu),
 * syscall_entry_NAME (the call's arguments by name, for the ones the I/O analysis reads) and
 * syscall_exit_NAME (ret), irq_handler_entry (irq, name), irq_handler_exit (irq, ret), softirq_entry,
 * softirq_exit, softirq_raise (vec), lttng_statedump_process_state.
 *
 * The analyses attribute a system call to the thread their sched_switch events last put on its CPU.
 * A recording of the traced program's threads only (perf's own-thread switch records) does not say
 * who ran between them, so a sched_switch is made: to the thread when it switches in (from the thread
 * last switched in there, or 0) and, before an event of a thread other than the CPU's current one
 * (its system calls), to that thread. Times are the trace's (ns since the Epoch, a clock of offset
 * 0). Memory: one 1 MiB packet per CPU, the names of the threads, one bit per event class used. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "toolkit/cmd.h"
#include "toolkit/export.h"
#include "toolkit/sched_decode.h"
#include "lttng_events.h"

#define LT_PACKET (1u << 20)	/* packet size in bytes */
#define LT_HEAD 68		/* header (magic, uuid, stream_id: 24) + context (5 x u64, u32: 44) */
#define LT_MAXCPU 1024

struct lt_stream {
	int fd;
	unsigned char *buf;	/* the open packet */
	size_t len;
	uint64_t begin, end;	/* times of its first and last event */
	uint64_t packets;
	uint32_t cur;		/* the thread the last sched_switch written put on this CPU */
	uint32_t irq;		/* the interrupt in progress (2004 traces' irq_exit has no number) */
};

struct lt {
	char dir[4096];
	struct sched_decoder *d;
	struct lt_stream *s[LT_MAXCPU];
	struct lt_names names;	/* lttng_events.c: comms by tid, event classes used */
	const struct ltt_trace_info *trace;
	unsigned char uuid[16];
	uint64_t first_ns, last_ns;	/* of the events written: every stream's first packet begins at
					 * first_ns and its last ends at last_ns, so that the streams cover the
					 * same time (the analyses take the range the streams have in common) */
	int ending;
};

static void put(struct lt_stream *s, const void *p, size_t n)
{
	memcpy(s->buf + s->len, p, n);
	s->len += n;
}

static void put_u32(struct lt_stream *s, uint32_t v)
{
	put(s, &v, 4);
}

static void put_u64(struct lt_stream *s, uint64_t v)
{
	put(s, &v, 8);
}

/* A string of at most 255 bytes and its NUL (callers keep room for 256 per string). */
static void put_str(struct lt_stream *s, const char *str)
{
	size_t n = 0;

	while (str && n < 255 && str[n])
		n++;
	if (n)
		put(s, str, n);
	s->buf[s->len++] = 0;
}

/* Writes the open packet (its header filled in now) and starts the next. 0 or -errno. */
static int lt_flush(struct lt *t, struct lt_stream *s, int cpu)
{
	unsigned char *h = s->buf;
	uint32_t magic = 0xC1FC1FC1u, sid = 0;
	uint64_t bits = (uint64_t)s->len * 8, pbits = (uint64_t)LT_PACKET * 8, zero = 0;
	uint32_t cpu32 = (uint32_t)cpu;
	size_t off = 0;

	if (s->len <= LT_HEAD && !(t->ending && !s->packets))
		return 0;
	if (!s->packets && t->first_ns)
		s->begin = t->first_ns;
	if (t->ending)
		s->end = t->last_ns;
	memcpy(h + off, &magic, 4), off += 4;
	memcpy(h + off, t->uuid, 16), off += 16;
	memcpy(h + off, &sid, 4), off += 4;
	memcpy(h + off, &s->begin, 8), off += 8;
	memcpy(h + off, &s->end, 8), off += 8;
	memcpy(h + off, &bits, 8), off += 8;
	memcpy(h + off, &pbits, 8), off += 8;	/* packet_size: the padded size written below */
	memcpy(h + off, &zero, 8), off += 8;
	memcpy(h + off, &cpu32, 4);
	memset(s->buf + s->len, 0, LT_PACKET - s->len);
	for (size_t w = 0; w < LT_PACKET;) {
		ssize_t n = write(s->fd, s->buf + w, LT_PACKET - w);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		w += (size_t)n;
	}
	s->packets++;
	s->len = LT_HEAD;
	s->begin = s->end = 0;
	return 0;
}

static struct lt_stream *lt_stream(struct lt *t, int cpu, int *err)
{
	struct lt_stream *s;
	char path[4200];

	if (cpu < 0 || cpu >= LT_MAXCPU)
		return NULL;
	if (t->s[cpu])
		return t->s[cpu];
	s = calloc(1, sizeof(*s));
	if (s)
		s->buf = malloc(LT_PACKET);
	if (!s || !s->buf) {
		free(s);
		*err = -ENOMEM;
		return NULL;
	}
	snprintf(path, sizeof(path), "%s/channel0_%d", t->dir, cpu);
	s->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (s->fd < 0) {
		*err = -errno;
		free(s->buf);
		free(s);
		return NULL;
	}
	s->len = LT_HEAD;
	t->s[cpu] = s;
	return s;
}

/* Room for an event of at most need bytes in s's packet: the packet is written when full. */
static int lt_room(struct lt *t, struct lt_stream *s, int cpu, size_t need)
{
	return s->len + need > LT_PACKET ? lt_flush(t, s, cpu) : 0;
}

static void lt_header(struct lt *t, struct lt_stream *s, uint32_t id, uint64_t ts)
{
	if (!t->first_ns)
		t->first_ns = ts;
	t->last_ns = ts > t->last_ns ? ts : t->last_ns;
	if (!s->begin)
		s->begin = ts;
	s->end = ts;
	put_u32(s, id);
	put_u64(s, ts);
}

static int lt_switch(struct lt *t, struct lt_stream *s, int cpu, uint64_t ts, uint32_t prev, int64_t state,
		     uint32_t next, const char *prev_comm, const char *next_comm)
{
	int rc = lt_room(t, s, cpu, 12 + 2 * 256 + 28);

	if (rc)
		return rc;
	lt_header(t, s, LT_EV_SCHED_SWITCH, ts);
	put_str(s, prev_comm ? prev_comm : lt_comm(&t->names, prev));
	put_u32(s, prev);
	put_u32(s, 120);
	put_u64(s, (uint64_t)state);
	put_str(s, next_comm ? next_comm : lt_comm(&t->names, next));
	put_u32(s, next);
	put_u32(s, 120);
	s->cur = next;
	t->names.used[LT_EV_SCHED_SWITCH] = 1;
	return 0;
}

static uint64_t lt_arg(const struct ltt_event *ev, unsigned i)
{
	struct ltt_value b, a, e;

	if (ltt_event_body(ev, &b) || ltt_value_field(&b, "args", &a) || ltt_value_element(&a, i, &e))
		return 0;
	return ltt_value_uint(&e);
}

#define LT_CALL_THREAD 0x40000000u	/* names' call: a clone with CLONE_THREAD */

/* The pid of a process-scope recording's threads (0: a system-wide one, or not said). */
static uint32_t lt_scope_pid(const struct ltt_event *ev)
{
	const char *scope = ltt_trace_attr(ev->trace, "ltt_kernel_scope");
	const char *pid = ltt_trace_attr(ev->trace, "ltt_pid");

	return scope && !strcmp(scope, "process") && pid ? (uint32_t)strtoul(pid, NULL, 10) : 0;
}

/* A thread named (state dump, ltt's thread records), made (fork) or running a new program (exec):
 * written as lttng-modules does, so that lttng-analyses names the processes (a state dump record per
 * thread, on CPU 0's stream; fork and exec on their CPU's). */
static int lt_process(struct lt *t, const struct sched_ev *k, const struct ltt_event *ev)
{
	uint32_t tid = k->kind == SCHED_EV_FORK ? k->target : k->tid, spid = lt_scope_pid(ev);
	int cpu = k->cpu >= 0 ? k->cpu : 0, err = 0, rc;
	struct lt_stream *s;

	lt_learn(&t->names, tid, k->comm);
	if (tid == SCHED_TID_NONE || !tid || !(s = lt_stream(t, cpu, &err)))
		return err;
	if ((rc = lt_room(t, s, cpu, 12 + 3 * 256 + 64)))
		return rc;
	if (k->kind == SCHED_EV_THREAD) {
		uint32_t pid = k->pid != SCHED_TID_NONE && k->pid ? k->pid : spid ? spid : tid;

		lt_header(t, s, LT_EV_STATEDUMP, ev->time_ns);
		put_u32(s, tid);
		put_u32(s, tid);
		put_u32(s, pid);
		put_u32(s, pid);
		put_u32(s, 0);
		put_u32(s, 0);
		put_str(s, lt_comm(&t->names, tid));
		put_u32(s, 0);	/* type: user thread */
		put_u32(s, 0);
		put_u32(s, 0);
		put_u32(s, 0);
		put_u32(s, (uint32_t)cpu);
		t->names.used[LT_EV_STATEDUMP] = 1;
	} else if (k->kind == SCHED_EV_FORK) {
		/* the kernel's record has no thread group: in process scope every thread followed is the
		 * process's; system-wide, the child is taken to be a process of its own */
		uint32_t call = lt_call(&t->names, k->tid), ppid = spid ? spid : k->tid, cpid = spid ? spid : tid;
		const char *via = sched_syscall_name(ev->trace, call & ~LT_CALL_THREAD);

		if (!spid && ((call & LT_CALL_THREAD) || (via && !strcmp(via, "clone3"))))
			cpid = ppid;	/* clone(CLONE_THREAD), or clone3 (pthread_create's): a thread */

		lt_header(t, s, LT_EV_FORK, ev->time_ns);
		put_str(s, lt_comm(&t->names, k->tid));
		put_u32(s, k->tid);
		put_u32(s, ppid);
		put_str(s, lt_comm(&t->names, tid));
		put_u32(s, tid);
		put_u32(s, cpid);
		t->names.used[LT_EV_FORK] = 1;
	} else {
		lt_header(t, s, LT_EV_EXEC, ev->time_ns);
		put_str(s, k->comm ? k->comm : "");
		put_u32(s, tid);
		put_u32(s, tid);
		put_str(s, lt_comm(&t->names, tid));
		t->names.used[LT_EV_EXEC] = 1;
	}
	return 0;
}

static int lt_event(struct ltt_export_ctx *ctx, const struct ltt_event *ev)
{
	struct lt *t = ctx->priv;
	struct sched_ev k;
	struct lt_stream *s;
	int err = 0, rc = sched_decode(t->d, ev, &k);

	if (rc <= 0)
		return rc;
	t->trace = ev->trace;
	if (k.kind == SCHED_EV_THREAD || k.kind == SCHED_EV_EXEC || k.kind == SCHED_EV_FORK)
		return lt_process(t, &k, ev);
	s = lt_stream(t, k.cpu, &err);
	if (!s)
		return err;
	switch (k.kind) {
	case SCHED_EV_SWITCH: {
		uint32_t prev = k.prev_tid != SCHED_TID_NONE ? k.prev_tid : s->cur;
		uint32_t next = k.next_tid != SCHED_TID_NONE ? k.next_tid
			      : k.next_other != SCHED_TID_NONE ? k.next_other : 0;
		int64_t state = k.prev_state != SCHED_PREV_UNKNOWN ? (int64_t)(k.prev_state & 0xff)
			      : k.preempted == 1 ? 0 : 1;

		lt_learn(&t->names, prev, k.prev_comm);
		lt_learn(&t->names, next, k.comm);
		return lt_switch(t, s, k.cpu, ev->time_ns, prev, state, next, NULL, NULL);
	}
	case SCHED_EV_WAKEUP:
		if ((rc = lt_room(t, s, k.cpu, 12 + 256 + 12)))
			return rc;
		lt_learn(&t->names, k.target, k.comm);
		lt_header(t, s, LT_EV_SCHED_WAKEUP, ev->time_ns);
		put_str(s, lt_comm(&t->names, k.target));
		put_u32(s, k.target);
		put_u32(s, 120);
		put_u32(s, (uint32_t)(k.cpu >= 0 ? k.cpu : 0));
		t->names.used[LT_EV_SCHED_WAKEUP] = 1;
		return 0;
	case SCHED_EV_SYSCALL_ENTRY:
	case SCHED_EV_SYSCALL_EXIT: {
		const char *name = sched_syscall_name(ev->trace, k.nr);
		uint32_t id;

		/* 2004 traces: the call is the CPU's current thread's, and its exit has no number */
		uint32_t who = k.tid != SCHED_TID_NONE ? k.tid : s->cur;

		if (k.kind == SCHED_EV_SYSCALL_ENTRY)	/* a clone making a thread: marked for its fork */
			lt_set_call(&t->names, who, k.nr | (name && !strcmp(name, "clone") &&
							    (lt_arg(ev, 0) & 0x10000u) ? LT_CALL_THREAD : 0));
		else if (!strcmp(ev->type->facility, "core"))
			k.nr = lt_call(&t->names, who);
		name = sched_syscall_name(ev->trace, k.nr);
		if (!name || k.nr >= LT_MAX_SYSCALL)
			return 0;	/* a call the trace's machine does not name: no LTTng event for it */
		if (k.tid != SCHED_TID_NONE && k.tid != s->cur &&
		    (rc = lt_switch(t, s, k.cpu, k.entry_ns ? k.entry_ns : ev->time_ns, s->cur, 0, k.tid, NULL, NULL)))
			return rc;
		if (k.entry_ns) {	/* a whole call (kernel.syscall): its entry first, at its time */
			const struct lt_args *a = lt_syscall_args(name);

			if ((rc = lt_room(t, s, k.cpu, 12 + 8 * 6 + 256)))
				return rc;
			lt_header(t, s, LT_EV_SYSCALL + 2 * k.nr, k.entry_ns);
			for (unsigned i = 0; a && i < a->n; i++)
				if (a->is_str[i])
					put_str(s, "");
				else
					put_u64(s, lt_arg(ev, a->arg[i]));
			t->names.used_sys[k.nr] |= 1;
		}
		if ((rc = lt_room(t, s, k.cpu, 12 + 8 * 6 + 256)))
			return rc;
		id = LT_EV_SYSCALL + 2 * k.nr + (k.kind == SCHED_EV_SYSCALL_EXIT);
		lt_header(t, s, id, ev->time_ns);
		if (k.kind == SCHED_EV_SYSCALL_EXIT) {
			put_u64(s, (uint64_t)k.ret);
		} else {
			const struct lt_args *a = lt_syscall_args(name);

			for (unsigned i = 0; a && i < a->n; i++)
				if (a->is_str[i])
					put_str(s, "");	/* a user-space string: not recorded */
				else
					put_u64(s, lt_arg(ev, a->arg[i]));
		}
		t->names.used_sys[k.nr] |= k.kind == SCHED_EV_SYSCALL_EXIT ? 2 : 1;
		return 0;
	}
	case SCHED_EV_IRQ_ENTRY:
	case SCHED_EV_IRQ_EXIT:
		if ((rc = lt_room(t, s, k.cpu, 12 + 8 + 256)))
			return rc;
		if (k.kind == SCHED_EV_IRQ_ENTRY) {
			struct ltt_value b, v;
			const char *n = !ltt_event_body(ev, &b) && !ltt_value_field(&b, "name", &v) &&
					v.type->kind == LTT_TYPE_STRING ? ltt_value_string(&v, NULL) : "";

			lt_header(t, s, LT_EV_IRQ_ENTRY, ev->time_ns);
			put_u32(s, k.nr);
			s->irq = k.nr;
			put_str(s, n);
			t->names.used[LT_EV_IRQ_ENTRY] = 1;
		} else {
			lt_header(t, s, LT_EV_IRQ_EXIT, ev->time_ns);
			put_u32(s, strcmp(ev->type->facility, "core") ? k.nr : s->irq);
			put_u32(s, 1);
			t->names.used[LT_EV_IRQ_EXIT] = 1;
		}
		return 0;
	case SCHED_EV_SOFTIRQ_ENTRY:
	case SCHED_EV_SOFTIRQ_EXIT: {
		unsigned id = k.kind == SCHED_EV_SOFTIRQ_ENTRY ? LT_EV_SOFTIRQ_ENTRY : LT_EV_SOFTIRQ_EXIT;

		if ((rc = lt_room(t, s, k.cpu, 16)))
			return rc;
		lt_header(t, s, id, ev->time_ns);
		put_u32(s, k.nr);
		t->names.used[id] = 1;
		return 0;
	}
	case SCHED_EV_EXIT:	/* its time ends here, as in ltt stats --sched (no switch-out may follow) */
		if (k.tid == SCHED_TID_NONE || k.tid != s->cur)
			return 0;
		return lt_switch(t, s, k.cpu, ev->time_ns, k.tid, 16, 0, NULL, NULL);
	default:
		return 0;
	}
}

static int lt_begin(struct ltt_export_ctx *ctx)
{
	struct lt *t = calloc(1, sizeof(*t));

	if (!t)
		return -ENOMEM;
	ctx->priv = t;
	snprintf(t->dir, sizeof(t->dir), "%s/kernel", ctx->path);
	if (mkdir(t->dir, 0777) < 0)
		return -errno;
	for (unsigned i = 0; i < 16; i++)	/* a stable uuid: the trace's start time */
		t->uuid[i] = (unsigned char)(ctx->first_ns >> (8 * (i % 8))) ^ (unsigned char)(0x5a + i);
	t->uuid[6] = (unsigned char)((t->uuid[6] & 0x0f) | 0x40);	/* version 4 */
	t->uuid[8] = (unsigned char)((t->uuid[8] & 0x3f) | 0x80);
	return sched_decoder_new(&t->d) ? -ENOMEM : 0;
}

static int lt_end(struct ltt_export_ctx *ctx, int failed)
{
	struct lt *t = ctx->priv;
	int rc = 0;

	if (!t)
		return 0;
	t->ending = 1;
	for (int i = 0; i < LT_MAXCPU; i++) {
		if (!t->s[i])
			continue;
		if (!failed && !rc)
			rc = lt_flush(t, t->s[i], i);
		close(t->s[i]->fd);
		free(t->s[i]->buf);
		free(t->s[i]);
	}
	if (!failed && !rc)
		rc = lt_metadata(t->dir, t->uuid, &t->names, t->trace);
	lt_names_free(&t->names);
	sched_decoder_free(t->d);
	free(t);
	return rc;
}

const struct ltt_exporter ltt_exp_lttng = {
	.name = "lttng",
	.summary = "the kernel events as an LTTng kernel trace (OUT/kernel/, CTF): lttng-analyses, Trace Compass",
	.suffix = ".lttng",
	.dir = 1,
	.begin = lt_begin,
	.event = lt_event,
	.end = lt_end,
};
