/* SPDX-License-Identifier: MIT */
/* `ltt stats --io`: the I/O model's rows (toolkit/io_model.h) per process, thread and file, then per
 * process, as text or one JSON object (doc/cli.md "ltt stats --io"), after lttng-analyses'
 * iousagetop (calls and bytes) and iolatencytop (latency percentiles). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/escape_json.h"
#include "common/grow.h"
#include "toolkit/io_model.h"
#include "toolkit/losses.h"
#include "toolkit/reader_common.h"
#include "toolkit/sched_decode.h"
#include "toolkit/sched_model.h"
#include "report.h"

struct io_scan {
	struct io_model *io;
	struct sched_model *sm;
	struct losses loss;
	int has_syscalls;	/* some trace recorded kernel system calls */
};

/* sched_scan's hook: every event, after the scheduling model took it. */
static int io_other(void *arg, const struct ltt_event *ev, const struct sched_ev *kev)
{
	struct io_scan *s = arg;
	int l = losses_event(&s->loss, ev);

	(void)kev;
	if (l < 0)
		return -ENOMEM;
	return io_model_event(s->io, s->sm, ev, l == 1 && s->loss.last.kernel);
}

/* A thread's or process's name: the scheduling model's ("" when not known). */
static const char *io_name(struct sched_model *sm, unsigned trace, uint32_t tid)
{
	struct sched_thread *t = sched_model_thread(sm, trace, tid);

	return t && t->comm[0] ? t->comm : "?";
}

/* Per (trace, pid, op): the rows of the process added up (rows are sorted by trace, pid). */
struct io_sum {
	unsigned trace;
	uint32_t pid;
	enum io_op op;
	uint64_t calls, errors, bytes, max;
	uint64_t *dur;
	size_t n, cap;
};

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The process sums of rows [0, n) into *out (sorted latencies): their count, or -ENOMEM. */
static long io_sums(struct io_row **rows, size_t n, struct io_sum **out)
{
	struct io_sum *s = NULL;
	size_t ns = 0, cap = 0;

	for (size_t i = 0; i < n; i++) {
		struct io_sum *p = NULL;

		for (size_t k = ns; k-- > 0 && s[k].trace == rows[i]->trace && s[k].pid == rows[i]->pid;)
			if (s[k].op == rows[i]->op) {
				p = &s[k];
				break;
			}
		if (!p) {
			if (LTT_GROW(s, ns + 1, cap))
				goto nomem;
			p = &s[ns++];
			memset(p, 0, sizeof(*p));
			p->trace = rows[i]->trace;
			p->pid = rows[i]->pid;
			p->op = rows[i]->op;
		}
		p->calls += rows[i]->calls;
		p->errors += rows[i]->errors;
		p->bytes += rows[i]->bytes;
		if (LTT_GROW(p->dur, p->n + rows[i]->ndur, p->cap))
			goto nomem;
		memcpy(p->dur + p->n, rows[i]->dur, rows[i]->ndur * sizeof(uint64_t));
		p->n += rows[i]->ndur;
	}
	for (size_t k = 0; k < ns; k++)
		qsort(s[k].dur, s[k].n, sizeof(uint64_t), u64_cmp);
	*out = s;
	return (long)ns;
nomem:
	for (size_t k = 0; k < ns; k++)
		free(s[k].dur);
	free(s);
	return -ENOMEM;
}

static char *dur(char *buf, uint64_t ns)
{
	return reader_format_duration(buf, 24, ns);
}

static void lat_text(FILE *out, const uint64_t *d, size_t n)
{
	char b[3][24];

	if (!n) {
		fprintf(out, " %9s %9s %9s", "-", "-", "-");
		return;
	}
	fprintf(out, " %9s %9s %9s", dur(b[0], sched_pct(d, n, 50)), dur(b[1], sched_pct(d, n, 99)),
		dur(b[2], d[n - 1]));
}

static void lat_json(FILE *out, const uint64_t *d, size_t n)
{
	if (!n) {
		fputs(",\"p50_ns\":null,\"p99_ns\":null,\"max_ns\":null", out);
		return;
	}
	fprintf(out, ",\"p50_ns\":%" PRIu64 ",\"p99_ns\":%" PRIu64 ",\"max_ns\":%" PRIu64, sched_pct(d, n, 50),
		sched_pct(d, n, 99), d[n - 1]);
}

static void json_str(FILE *out, const char *key, const char *s)
{
	fprintf(out, ",\"%s\":", key);
	ltt_json_to_file(out, s, strlen(s));
}

static int io_print(FILE *out, struct io_scan *s, const struct ltt_reader *r, int json)
{
	struct io_row **rows;
	size_t n = io_model_rows(s->io, &rows);
	struct io_sum *sums = NULL;
	long ns = io_sums(rows, n, &sums);
	uint64_t cut = io_model_cut(s->io);

	if (ns < 0)
		return -ENOMEM;
	if (json) {
		fputs("{\"version\":1,", out);
		losses_print_json(&s->loss, out, "calls", cut);
		fprintf(out, ",\"syscalls_recorded\":%s,\"fd_names\":%s,\"files\":[", s->has_syscalls ? "true" : "false",
			io_model_named(s->io) ? "true" : "false");
		for (size_t i = 0; i < n; i++) {
			const struct io_row *w = rows[i];

			fprintf(out, "%s{\"trace\":%u,\"pid\":%" PRIu32, i ? "," : "", w->trace, w->pid);
			json_str(out, "process", io_name(s->sm, w->trace, w->pid));
			fprintf(out, ",\"tid\":%" PRIu32, w->tid);
			json_str(out, "thread", io_name(s->sm, w->trace, w->tid));
			json_str(out, "file", w->file);
			fprintf(out, ",\"op\":\"%s\",\"calls\":%" PRIu64 ",\"errors\":%" PRIu64 ",\"bytes\":%" PRIu64,
				io_op_name(w->op), w->calls, w->errors, w->bytes);
			lat_json(out, w->dur, w->ndur);
			fputc('}', out);
		}
		fputs("],\"processes\":[", out);
		for (long k = 0; k < ns; k++) {
			fprintf(out, "%s{\"trace\":%u,\"pid\":%" PRIu32, k ? "," : "", sums[k].trace, sums[k].pid);
			json_str(out, "process", io_name(s->sm, sums[k].trace, sums[k].pid));
			fprintf(out, ",\"op\":\"%s\",\"calls\":%" PRIu64 ",\"errors\":%" PRIu64 ",\"bytes\":%" PRIu64,
				io_op_name(sums[k].op), sums[k].calls, sums[k].errors, sums[k].bytes);
			lat_json(out, sums[k].dur, sums[k].n);
			fputc('}', out);
		}
		fputs("]}\n", out);
	} else {
		(void)r;
		if (!s->has_syscalls)
			fputs("no kernel system calls in the trace: record with --kernel (LTT_KERNEL=syscalls)\n", out);
		else if (!io_model_named(s->io))
			fputs("no fd names in the trace (no fd facility: recorded before it existed): files are "
			      "shown as \"fd N\"\n", out);
		losses_print_text(&s->loss, out, "calls", cut);
		if (s->loss.kernel_events)
			fputs("kernel events were lost: the calls and bytes below are at least what was done (a lost "
			      "call is not counted), and an fd whose open, dup or close was lost may be misnamed\n", out);
		if (cut && !losses_total(&s->loss))
			fprintf(out, "%" PRIu64 " calls whose entry is not in the window are counted apart, without a "
				"duration\n", cut);
		fputs("I/O by process, thread and file (read and write system calls; latency: entry to exit):\n", out);
		fprintf(out, "  %7s %-16s %7s %-16s %-5s %9s %7s %12s %9s %9s %9s  %s\n", "pid", "process", "tid",
			"thread", "op", "calls", "errors", "bytes", "p50", "p99", "max", "file");
		for (size_t i = 0; i < n; i++) {
			const struct io_row *w = rows[i];

			fprintf(out, "  %7" PRIu32 " %-16s %7" PRIu32 " %-16s %-5s %9" PRIu64 " %7" PRIu64 " %12" PRIu64,
				w->pid, io_name(s->sm, w->trace, w->pid), w->tid, io_name(s->sm, w->trace, w->tid),
				io_op_name(w->op), w->calls, w->errors, w->bytes);
			lat_text(out, w->dur, w->ndur);
			fprintf(out, "  %s\n", w->file);
		}
		fprintf(out, "\nI/O by process:\n  %7s %-16s %-5s %9s %7s %12s %9s %9s %9s\n", "pid", "process", "op",
			"calls", "errors", "bytes", "p50", "p99", "max");
		for (long k = 0; k < ns; k++) {
			fprintf(out, "  %7" PRIu32 " %-16s %-5s %9" PRIu64 " %7" PRIu64 " %12" PRIu64, sums[k].pid,
				io_name(s->sm, sums[k].trace, sums[k].pid), io_op_name(sums[k].op), sums[k].calls,
				sums[k].errors, sums[k].bytes);
			lat_text(out, sums[k].dur, sums[k].n);
			fputc('\n', out);
		}
	}
	for (long k = 0; k < ns; k++)
		free(sums[k].dur);
	free(sums);
	return 0;
}

static int stats_io_report(struct ltt_reader *r, const struct stats_args *a)
{
	FILE *out = a->out;
	int json = a->json;
	struct io_scan s = { 0 };
	int rc;

	for (unsigned i = 0; i < ltt_reader_ntraces(r); i++) {	/* only what the models take is decoded */
		const struct ltt_trace_info *t = ltt_reader_trace(r, i);
		const char *k = ltt_trace_attr(t, "ltt_kernel");

		if (k && strstr(k, "sys_enter"))
			s.has_syscalls = 1;
		for (unsigned j = 0; j < t->nevent_types; j++)
			if (!sched_decode_wants(t->event_types[j]) && !io_model_wants(t->event_types[j]))
				ltt_reader_hide_event_type(r, t->event_types[j], 1);
	}
	losses_reader(r);
	losses_init(&s.loss);
	if ((rc = sched_model_new(&s.sm, NULL, 0)) || (rc = io_model_new(&s.io, NULL, 1)))
		goto out;
	rc = sched_scan(r, s.sm, io_other, &s);
	if (!rc)
		rc = io_model_finish(s.io);
	if (!rc)
		rc = io_print(out, &s, r, json);
out:
	io_model_free(s.io);
	sched_model_free(s.sm);
	losses_free(&s.loss);
	return rc;
}

const struct stats_report stats_report_io = {
	.option = "io",
	.run = stats_io_report,
};
