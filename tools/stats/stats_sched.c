/* SPDX-License-Identifier: MIT */
/* `ltt stats --sched`: the scheduling model's tables (toolkit/sched_model.h) per thread, process,
 * CPU and interrupt, as text or as one JSON object (doc/cli.md "ltt stats --sched"). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/escape_json.h"
#include "toolkit/losses.h"
#include "toolkit/reader_common.h"
#include "report.h"
#include "toolkit/sched_decode.h"
#include "toolkit/sched_model.h"

/* A row: one thread, or the threads of one process together. */
struct sc_row {
	unsigned trace;
	uint32_t tid, pid;
	const char *name;
	uint64_t ns[SCHED_NSTATES];
	uint64_t vol, invol, yields, migrations, wakeups, wait_max, irqs, softirqs, traps, calls, calls_done;
	unsigned threads;
	const struct sched_thread *t;	/* a thread row's thread */
	uint64_t rd_exact, rd_split, rd_unknown, rd_unknown_ns;	/* sched_thread's */
	int at_least;			/* runnable is at least the figure (sc_at_least) */
};

static int sc_source;	/* sched_model_runnable_source of the report */

/* Runnable only a lower bound: waits no sample covered, or no samples in a process-scope trace. */
static int sc_at_least(const struct sched_thread *t)
{
	return sc_source == 2 || (sc_source == 1 && t->rd_unknown_ns);
}

static uint32_t sc_pid(const struct sched_thread *t)
{
	return t->pid != SCHED_TID_NONE ? t->pid : t->tid;	/* a task is its own process unless told */
}

static uint64_t on_ns(const uint64_t *ns)
{
	uint64_t s = 0;

	for (int i = 0; i <= SCHED_ST_ONCPU_LAST; i++)
		s += ns[i];
	return s;
}

static void sc_add(struct sc_row *r, const struct sched_thread *t)
{
	for (int i = 0; i < SCHED_NSTATES; i++)
		r->ns[i] += t->ns[i];
	r->vol += t->vol;
	r->invol += t->invol;
	r->yields += t->yields;
	r->migrations += t->migrations;
	r->wakeups += t->wakeups;
	r->wait_max = t->wait_max_ns > r->wait_max ? t->wait_max_ns : r->wait_max;
	r->irqs += t->irqs;
	r->softirqs += t->softirqs;
	r->traps += t->traps;
	r->rd_exact += t->rd_exact;
	r->rd_split += t->rd_split;
	r->rd_unknown += t->rd_unknown;
	r->rd_unknown_ns += t->rd_unknown_ns;
	r->at_least |= sc_at_least(t);
	for (size_t k = 0; k < t->nsc; k++) {
		r->calls += t->sc[k].count;
		r->calls_done += t->sc[k].completed;
	}
	r->threads++;
}

/* A thread worth a row: it ran, called, was switched out or took a fault (a thread only seen woken,
 * in a recording of another process's threads, is not one: its state was never followed). */
static int sc_seen(const struct sched_thread *t)
{
	uint64_t s = 0;

	for (int i = 0; i <= SCHED_ST_ONCPU_LAST; i++)
		s += t->ns[i];
	return s || t->nsc || t->vol || t->invol || t->traps;
}

static const char *sc_name(const struct sched_model *m, unsigned trace, uint32_t tid)
{
	struct sched_thread *t = sched_model_thread((struct sched_model *)m, trace, tid);

	return tid == 0 ? "idle" : t && t->comm[0] ? t->comm : "";
}

static void sc_syscall_label(char *buf, size_t n, const struct ltt_reader *r, unsigned trace, uint32_t nr)
{
	const char *name = sched_syscall_name(ltt_reader_trace(r, trace), nr);

	if (name)
		snprintf(buf, n, "%s", name);
	else
		snprintf(buf, n, "syscall_%" PRIu32, nr);
}

static void sc_json_times(FILE *out, const struct sc_row *r)
{
	fprintf(out, ",\"running_ns\":%" PRIu64, on_ns(r->ns));
	for (int i = 0; i < SCHED_NSTATES; i++)
		fprintf(out, ",\"%s_ns\":%" PRIu64, sched_state_name(i), r->ns[i]);
	fprintf(out, ",\"switches_voluntary\":%" PRIu64 ",\"switches_involuntary\":%" PRIu64
		",\"yields\":%" PRIu64 ",\"migrations\":%" PRIu64 ",\"wakeups\":%" PRIu64 ",\"wakeup_wait_max_ns\":%" PRIu64
		",\"irqs\":%" PRIu64 ",\"softirqs\":%" PRIu64 ",\"faults\":%" PRIu64 ",\"syscalls\":%" PRIu64
		",\"syscalls_completed\":%" PRIu64,
		r->vol, r->invol, r->yields, r->migrations, r->wakeups, r->wait_max, r->irqs, r->softirqs, r->traps, r->calls,
		r->calls_done);
	fprintf(out, ",\"runnable_at_least\":%s,\"waits_exact\":%" PRIu64 ",\"waits_split\":%" PRIu64
		",\"waits_unknown\":%" PRIu64 ",\"waits_unknown_max_ns\":%" PRIu64, r->at_least ? "true" : "false",
		r->rd_exact, r->rd_split, r->rd_unknown, r->rd_unknown_ns);
}

/* CPUs by number: the snapshots of one recording (--all-snapshots) share theirs. */
static size_t sc_distinct_cpus(struct sched_cpu **cpu, size_t ncpu)
{
	size_t n = 0;

	for (size_t i = 0; i < ncpu; i++) {
		size_t k;

		for (k = 0; k < i && cpu[k]->cpu != cpu[i]->cpu; k++)
			;
		n += k == i;
	}
	return n;
}

/* The common window of a trace whose streams kept different stretches (a flight snapshot). */
static void sc_window_line(FILE *out, const struct sched_model *m, const struct ltt_reader *r,
			   struct sched_cpu **cpu, size_t ncpu, uint64_t last)
{
	char b[24];

	for (unsigned i = 0; i < ltt_reader_ntraces(r); i++) {
		uint64_t h = sched_model_common_start(m, i);

		if (!h)
			continue;
		if (ltt_reader_ntraces(r) > 1)
			fprintf(out, "trace %u: ", i);
		fprintf(out, "kept history: every CPU's from %s before the end (",
			reader_format_duration(b, sizeof(b), last > h ? last - h : 0));
		for (size_t k = 0, any = 0; k < ncpu; k++)
			if (cpu[k]->trace == i && cpu[k]->history_ns)
				fprintf(out, "%scpu %d from %s", any++ ? ", " : "", cpu[k]->cpu,
					reader_format_duration(b, sizeof(b), last > cpu[k]->history_ns ? last - cpu[k]->history_ns : 0));
		fputs(" before the end); off-CPU time before it is not_recorded\n", out);
	}
}

static const char *const sc_source_names[] = { "recorded", "schedstat", "at_least" };

/* The line saying how runnable time is known (doc/viewing.md "What each scope knows"). */
static void sc_source_line(FILE *out, struct sched_thread **th, size_t nth)
{
	uint64_t ex = 0, sp = 0, un = 0, unns = 0;
	char b[24];

	for (size_t i = 0; i < nth; i++) {
		ex += th[i]->rd_exact;
		sp += th[i]->rd_split;
		un += th[i]->rd_unknown;
		unns += th[i]->rd_unknown_ns;
	}
	if (sc_source == 2)
		fputs("runnable: at least (process scope: a wakeup by another process or an interrupt is not "
		      "recorded, so the wait for a CPU after it counts as sleeping; record with --system, or with a "
		      "libltt that samples the kernel's run_delay)\n", out);
	else if (sc_source == 1)
		fprintf(out, "runnable: the kernel's own count (schedstat run_delay sampled by libltt): %" PRIu64
			" waits exact, %" PRIu64 " split by estimate (their total exact), %" PRIu64
			" before the first sample or after the last (runnable at least, up to %s more: marked >=)\n", ex, sp, un,
			reader_format_duration(b, sizeof(b), unns));
}

static void sc_json_thread(FILE *out, const struct sched_model *m, const struct ltt_reader *r,
			   const struct sched_thread *t, int first)
{
	struct sc_row row = { 0 };
	char label[48];

	sc_add(&row, t);
	fprintf(out, "%s{\"trace\":%u,\"tid\":%" PRIu32 ",\"pid\":%" PRIu32 ",\"name\":", first ? "" : ",",
		t->trace, t->tid, sc_pid(t));
	ltt_json_to_file(out, t->comm, strlen(t->comm));
	sc_json_times(out, &row);
	fputs(",\"preempted_by\":", out);
	if (t->npre) {
		const char *who = sc_name(m, t->trace, t->preempters[0].tid);

		if (!*who)
			who = t->preempters[0].comm;

		fprintf(out, "{\"tid\":%" PRIu32 ",\"name\":", t->preempters[0].tid);
		ltt_json_to_file(out, who, strlen(who));
		fprintf(out, ",\"count\":%" PRIu64 "}", t->preempters[0].n);
	} else {
		fputs("null", out);
	}
	fputs(",\"calls\":[", out);
	for (size_t k = 0; k < t->nsc; k++) {
		const struct sched_syscall *s = &t->sc[k];

		sc_syscall_label(label, sizeof(label), r, t->trace, s->nr);
		fprintf(out, "%s{\"nr\":%" PRIu32 ",\"name\":", k ? "," : "", s->nr);
		ltt_json_to_file(out, label, strlen(label));
		fprintf(out, ",\"count\":%" PRIu64 ",\"completed\":%" PRIu64 ",\"cut\":%" PRIu64 ",\"total_ns\":%" PRIu64,
			s->count, s->completed, s->cut, s->total_ns);
		if (s->completed)
			fprintf(out, ",\"min_ns\":%" PRIu64 ",\"p50_ns\":%" PRIu64 ",\"p99_ns\":%" PRIu64
				",\"max_ns\":%" PRIu64 "}", s->min_ns, sched_pct(s->dur, s->completed, 50),
				sched_pct(s->dur, s->completed, 99), s->max_ns);
		else
			fputs(",\"min_ns\":null,\"p50_ns\":null,\"p99_ns\":null,\"max_ns\":null}", out);
	}
	fputs("]}", out);
}

/* Process rows: threads grouped by (trace, pid), in the threads' order of first appearance. */
static size_t sc_processes(struct sched_thread **th, size_t nth, struct sc_row *rows, const struct sched_model *m)
{
	size_t n = 0;

	for (size_t i = 0; i < nth; i++) {
		uint32_t pid = sc_pid(th[i]);
		size_t k;

		if (!sc_seen(th[i]))
			continue;
		for (k = 0; k < n; k++)
			if (rows[k].pid == pid && rows[k].trace == th[i]->trace)
				break;
		if (k == n) {
			memset(&rows[n], 0, sizeof(rows[n]));
			rows[n].trace = th[i]->trace;
			rows[n].pid = rows[n].tid = pid;
			rows[n].name = sc_name(m, th[i]->trace, pid);
			if (!*rows[n].name)
				rows[n].name = th[i]->comm;
			n++;
		}
		sc_add(&rows[k], th[i]);
	}
	return n;
}

static int sc_print_json(FILE *out, struct sched_model *m, const struct ltt_reader *r, const struct losses *loss)
{
	struct sched_thread **th;
	struct sched_cpu **cpu;
	struct sched_irq **irq;
	size_t nth = sched_model_threads(m, &th), ncpu = sched_model_cpus(m, &cpu), nirq = sched_model_irqs(m, &irq);
	struct sc_row *rows = calloc(nth ? nth : 1, sizeof(*rows));
	size_t np, k;
	uint64_t first, last;
	int any = 0;

	if (!rows)
		return -ENOMEM;
	sched_model_span(m, &first, &last);
	fprintf(out, "{\"version\":1,\"first_ns\":%" PRIu64 ",\"last_ns\":%" PRIu64 ",", first, last);
	losses_print_json(loss, out, NULL, 0);
	fprintf(out, ",\"cpus_distinct\":%zu,\"common_start_ns\":[", sc_distinct_cpus(cpu, ncpu));
	for (unsigned i = 0; i < ltt_reader_ntraces(r); i++)
		fprintf(out, "%s%" PRIu64, i ? "," : "", sched_model_common_start(m, i));
	fprintf(out, "],\"runnable_source\":\"%s\",\"threads\":[", sc_source_names[sc_source]);
	for (size_t i = 0; i < nth; i++)
		if (sc_seen(th[i])) {
			sc_json_thread(out, m, r, th[i], !any);
			any = 1;
		}
	fputs("],\"processes\":[", out);
	np = sc_processes(th, nth, rows, m);
	for (k = 0; k < np; k++) {
		fprintf(out, "%s{\"trace\":%u,\"pid\":%" PRIu32 ",\"name\":", k ? "," : "", rows[k].trace, rows[k].pid);
		ltt_json_to_file(out, rows[k].name, strlen(rows[k].name));
		fprintf(out, ",\"threads\":%u", rows[k].threads);
		sc_json_times(out, &rows[k]);
		fputc('}', out);
	}
	fputs("],\"cpus\":[", out);
	for (k = 0; k < ncpu; k++) {
		const struct sched_cpu *c = cpu[k];

		fprintf(out, "%s{\"trace\":%u,\"cpu\":%d,\"busy_ns\":%" PRIu64, k ? "," : "", c->trace, c->cpu,
			on_ns(c->ns));
		for (int i = 0; i <= SCHED_ST_ONCPU_LAST; i++)
			fprintf(out, ",\"%s_ns\":%" PRIu64, sched_state_name(i), c->ns[i]);
		fprintf(out, ",\"history_start_ns\":%" PRIu64 ",\"losses\":%" PRIu64 ",\"irqs_unclosed\":%" PRIu64,
			c->history_ns, c->losses, c->irqs_unclosed);
		fprintf(out, ",\"idle_ns\":%" PRIu64 ",\"unknown_ns\":%" PRIu64 ",\"switches\":%" PRIu64
			",\"irqs\":%" PRIu64 ",\"softirqs\":%" PRIu64 ",\"syscalls_unknown\":%" PRIu64 "}", c->idle_ns,
			c->unknown_ns, c->switches, c->irqs, c->softirqs, c->syscalls_unknown);
	}
	fputs("],\"interrupts\":[", out);
	for (k = 0; k < nirq; k++)
	{
		fprintf(out, "%s{\"trace\":%u,\"kind\":\"%s\",\"nr\":%" PRIu32 ",\"name\":", k ? "," : "", irq[k]->trace,
			irq[k]->soft ? "softirq" : "irq", irq[k]->nr);
		ltt_json_to_file(out, irq[k]->name, strlen(irq[k]->name));
		fprintf(out, ",\"count\":%" PRIu64 ",\"total_ns\":%" PRIu64 ",\"max_ns\":%" PRIu64 "}", irq[k]->count,
			irq[k]->total_ns, irq[k]->max_ns);
	}
	fputs("]}\n", out);
	free(rows);
	return 0;
}

/* ---- text ---------------------------------------------------------------------------------- */

static char *dur(char *buf, uint64_t ns)
{
	return reader_format_duration(buf, 24, ns);
}

static void sc_text_head(FILE *out, const char *first)
{
	fprintf(out, "  %7s %7s %-16s %9s %9s %9s %9s %9s %9s %9s %9s %9s %6s %6s %5s %6s %9s %8s %6s %9s %9s\n", first,
		"pid", "name", "running", "user", "syscall", "trap", "irq", "softirq", "runnable", "sleeping", "blocked",
		"vol", "invol", "migr", "wakeup", "maxwait", "syscalls", "faults", "other", "notrec");
}

/* The runnable column: ">=" before a lower bound. */
static char *sc_runnable(char *buf, const struct sc_row *r)
{
	size_t n = 0;

	if (r->at_least) {
		memcpy(buf, ">=", 2);
		n = 2;
	}
	reader_format_duration(buf + n, 24 - n, r->ns[SCHED_ST_RUNNABLE]);
	return buf;
}

static void sc_text_row(FILE *out, const struct sc_row *r, uint32_t first)
{
	char b[12][24];

	fprintf(out, "  %7" PRIu32 " %7" PRIu32 " %-16.16s %9s %9s %9s %9s %9s %9s %9s %9s %9s %6" PRIu64 " %6" PRIu64
		" %5" PRIu64 " %6" PRIu64 " %9s %8" PRIu64 " %6" PRIu64 " %9s %9s\n",
		first, r->pid, r->name && *r->name ? r->name : "-", dur(b[0], on_ns(r->ns)), dur(b[1], r->ns[SCHED_ST_USER]),
		dur(b[2], r->ns[SCHED_ST_SYSCALL]), dur(b[3], r->ns[SCHED_ST_TRAP]), dur(b[4], r->ns[SCHED_ST_IRQ]),
		dur(b[5], r->ns[SCHED_ST_SOFTIRQ]), sc_runnable(b[6], r),
		dur(b[7], r->ns[SCHED_ST_SLEEPING]), dur(b[8], r->ns[SCHED_ST_BLOCKED]), r->vol, r->invol,
		r->migrations, r->wakeups, dur(b[9], r->wait_max), r->calls, r->traps, dur(b[10], r->ns[SCHED_ST_OTHER]),
		dur(b[11], r->ns[SCHED_ST_NOTREC]));
}

static int sc_print_text(FILE *out, struct sched_model *m, const struct ltt_reader *r, const struct losses *loss)
{
	struct sched_thread **th;
	struct sched_cpu **cpu;
	struct sched_irq **irq;
	size_t nth = sched_model_threads(m, &th), ncpu = sched_model_cpus(m, &cpu), nirq = sched_model_irqs(m, &irq);
	struct sc_row *rows = calloc(nth ? nth : 1, sizeof(*rows));
	uint64_t first, last;
	char b[8][24], label[48];
	size_t np;

	if (!rows)
		return -ENOMEM;
	sched_model_span(m, &first, &last);
	losses_print_text(loss, out, NULL, 0);
	fprintf(out, "scheduling: %zu CPUs, %s of kernel events\n", sc_distinct_cpus(cpu, ncpu), dur(b[0], last - first));
	sc_window_line(out, m, r, cpu, ncpu, last);
	sc_source_line(out, th, nth);
	fputs("\nthreads (time on CPU by mode, off CPU by state; switches voluntary and involuntary; migrations; "
	      "wakeups and the longest wait after one):\n", out);
	sc_text_head(out, "tid");
	for (size_t i = 0; i < nth; i++) {
		struct sc_row row = { 0 };

		if (!sc_seen(th[i]))
			continue;
		sc_add(&row, th[i]);
		row.pid = sc_pid(th[i]);
		row.name = th[i]->comm;
		sc_text_row(out, &row, th[i]->tid);
	}
	fputs("\npreempted most by:\n", out);
	for (size_t i = 0; i < nth; i++)
		if (sc_seen(th[i]) && th[i]->npre)
			fprintf(out, "  %7" PRIu32 " %-16.16s by %" PRIu32 " %s (%" PRIu64 " of %" PRIu64 " preemptions)\n",
				th[i]->tid, th[i]->comm, th[i]->preempters[0].tid,
				*sc_name(m, th[i]->trace, th[i]->preempters[0].tid) ?
				sc_name(m, th[i]->trace, th[i]->preempters[0].tid) : th[i]->preempters[0].comm,
				th[i]->preempters[0].n, th[i]->invol);
	for (size_t i = 0; i < nth; i++) {
		if (!th[i]->nsc)
			continue;
		fprintf(out, "\nsystem calls of thread %" PRIu32 " %s:\n  %-24s %8s %9s %9s %9s %9s %9s %9s %6s\n",
			th[i]->tid, th[i]->comm, "call", "count", "completed", "total", "min", "p50", "p99", "max", "cut");
		for (size_t k = 0; k < th[i]->nsc; k++) {
			const struct sched_syscall *s = &th[i]->sc[k];
			int done = s->completed > 0;

			sc_syscall_label(label, sizeof(label), r, th[i]->trace, s->nr);
			fprintf(out, "  %-24s %8" PRIu64 " %9" PRIu64 " %9s %9s %9s %9s %9s %6" PRIu64 "\n", label,
				s->count, s->completed, dur(b[0], s->total_ns), done ? dur(b[1], s->min_ns) : "-",
				done ? dur(b[2], sched_pct(s->dur, s->completed, 50)) : "-",
				done ? dur(b[3], sched_pct(s->dur, s->completed, 99)) : "-",
				done ? dur(b[4], s->max_ns) : "-", s->cut);
		}
	}
	fputs("\nprocesses:\n", out);
	sc_text_head(out, "threads");
	np = sc_processes(th, nth, rows, m);
	for (size_t k = 0; k < np; k++)
		sc_text_row(out, &rows[k], rows[k].threads);
	fprintf(out, "\nCPUs:\n  %4s %9s %9s %9s %9s %9s %9s %9s %9s %8s %8s %8s\n", "cpu", "busy", "user", "syscall",
		"trap", "irq", "softirq", "idle", "unknown", "switches", "irqs", "softirqs");
	for (size_t k = 0; k < ncpu; k++) {
		const struct sched_cpu *c = cpu[k];

		fprintf(out, "  %4d %9s %9s %9s %9s %9s %9s %9s %9s %8" PRIu64 " %8" PRIu64 " %8" PRIu64 "\n", c->cpu,
			dur(b[0], on_ns(c->ns)), dur(b[1], c->ns[SCHED_ST_USER]), dur(b[2], c->ns[SCHED_ST_SYSCALL]),
			dur(b[3], c->ns[SCHED_ST_TRAP]), dur(b[4], c->ns[SCHED_ST_IRQ]),
			dur(b[5], c->ns[SCHED_ST_SOFTIRQ]), dur(b[6], c->idle_ns), dur(b[7], c->unknown_ns),
			c->switches, c->irqs, c->softirqs);
	}
	for (size_t k = 0; k < ncpu; k++)
		if (cpu[k]->irqs_unclosed)
			fprintf(out, "\nwarning: cpu %d: %" PRIu64 " interrupts entered with no exit before the next switch "
				"or system call: each closed at the CPU's previous event (a guess)\n", cpu[k]->cpu,
				cpu[k]->irqs_unclosed);
	if (nirq) {
		fprintf(out, "\ninterrupts:\n  %-8s %5s %8s %9s %9s  %s\n", "kind", "nr", "count", "total", "max", "name");
		for (size_t k = 0; k < nirq; k++)
			fprintf(out, "  %-8s %5" PRIu32 " %8" PRIu64 " %9s %9s  %s\n", irq[k]->soft ? "softirq" : "irq",
				irq[k]->nr, irq[k]->count, dur(b[0], irq[k]->total_ns), dur(b[1], irq[k]->max_ns),
				irq[k]->name[0] ? irq[k]->name : "-");
	}
	free(rows);
	return 0;
}

/* sched_scan's hook: the loss records of the window (toolkit/losses.h). */
static int sc_loss(void *arg, const struct ltt_event *ev, const struct sched_ev *kev)
{
	(void)kev;
	return losses_event(arg, ev) < 0 ? -ENOMEM : 0;
}

static int stats_sched_report(struct ltt_reader *r, const struct stats_args *a)
{
	FILE *out = a->out;
	int json = a->json;
	struct sched_model *m;
	struct losses loss;
	int rc = sched_model_new(&m, NULL, 1);

	if (rc)
		return rc;
	for (unsigned i = 0; i < ltt_reader_ntraces(r); i++) {	/* only what the model takes is decoded */
		const struct ltt_trace_info *t = ltt_reader_trace(r, i);

		for (unsigned k = 0; k < t->nevent_types; k++)
			if (!sched_decode_wants(t->event_types[k]))
				ltt_reader_hide_event_type(r, t->event_types[k], 1);
	}
	losses_reader(r);	/* and the loss records (the reader was opened with LTT_READ_BUILTIN) */
	losses_init(&loss);
	rc = sched_scan(r, m, sc_loss, &loss);
	sc_source = sched_model_runnable_source(m);
	if (!rc)
		rc = json ? sc_print_json(out, m, r, &loss) : sc_print_text(out, m, r, &loss);
	sched_model_free(m);
	losses_free(&loss);
	return rc;
}

const struct stats_report stats_report_sched = {
	.option = "sched",
	.run = stats_sched_report,
};
