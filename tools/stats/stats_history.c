// SPDX-License-Identifier: MIT
/* ltt stats of a flight-recorder snapshot (doc/flight-recorder.md "Memory per second of history"):
 * how far back each stream (cpu/N, kernel/N) goes, in seconds and per MiB of its kept blocks, the
 * window every stream holds, and the bytes per event of each type (headers included). A stream whose
 * older blocks were overwritten starts at its first kept block; one that never wrapped holds the
 * recording from its start, and does not narrow the common window. A stream's history runs to the
 * snapshot's last event, whichever stream holds it: a CPU with nothing to say after its last event
 * still covers that time. */
#include <stdio.h>
#include <string.h>

#include "stats_report.h"

/* A stream that may have kept a window: cpu/N or kernel/N holding events. */
static int is_stream(const struct ltt_tracefile_info *f)
{
	return f->events && (f->cpu >= 0 || (f->name && !strncmp(f->name, "kernel/", 7)));
}

/* Bytes of blocks the stream kept (summary blocks are not ring blocks). */
static uint64_t kept_bytes(const struct ltt_trace_info *t, const struct ltt_tracefile_info *f)
{
	uint64_t b = f->blocks_read > f->summary_blocks ? f->blocks_read - f->summary_blocks : 0;

	return b * t->block_size;
}

/* The window every stream holds: from the latest start of a stream that lost older blocks (none: the
 * earliest start), to the last event. 0 when no stream holds events. */
static int common_window(const struct ltt_trace_info *t, uint64_t *from, uint64_t *to)
{
	uint64_t wrapped_from = 0, min_from = UINT64_MAX;
	int any = 0, wrapped = 0;

	*to = 0;
	for (unsigned k = 0; k < t->ntracefiles; k++) {
		const struct ltt_tracefile_info *f = t->tracefiles[k];

		if (!is_stream(f))
			continue;
		any = 1;
		*to = f->last_ns > *to ? f->last_ns : *to;
		min_from = f->first_ns < min_from ? f->first_ns : min_from;
		if (f->blocks_lost) {
			wrapped = 1;
			wrapped_from = f->first_ns > wrapped_from ? f->first_ns : wrapped_from;
		}
	}
	*from = wrapped ? wrapped_from : min_from;
	if (*from > *to)
		*from = *to;
	return any;
}

static double secs(uint64_t a, uint64_t b)
{
	return b > a ? (double)(b - a) / 1e9 : 0.0;
}

void stats_history_text(struct dump_out *o, const struct ltt_trace_info *t, const struct trace_counts *tc)
{
	char line[512];
	uint64_t from, to;

	if (!tc->bytes || !tc->tf_bytes || !common_window(t, &from, &to))
		return;
	for (unsigned k = 0; k < t->ntracefiles; k++) {
		const struct ltt_tracefile_info *f = t->tracefiles[k];
		uint64_t kb = kept_bytes(t, f);
		double s = secs(f->first_ns, to), mib = (double)kb / 1048576.0;

		if (!is_stream(f))
			continue;
		snprintf(line, sizeof(line), "  history     %-10s %10.6f s from ", f->name, s);
		dump_out_str(o, line);
		dump_out_time(o, f->first_ns);
		snprintf(line, sizeof(line), " (%s), %.2f MiB of blocks: %.4f s per MiB, %.1f bytes per event\n",
			 f->blocks_lost ? "older blocks overwritten" : "all it recorded", mib,
			 mib > 0 ? s / mib : 0.0, (double)tc->tf_bytes[k] / (double)f->events);
		dump_out_str(o, line);
	}
	dump_out_str(o, "  history     every stream holds ");
	dump_out_time(o, from);
	dump_out_str(o, " .. ");
	dump_out_time(o, to);
	snprintf(line, sizeof(line), " (%.6f s)\n", secs(from, to));
	dump_out_str(o, line);
	for (unsigned id = 0; id < tc->nids; id++) {
		const struct ltt_event_type *ty = ltt_trace_event_type(t, id);
		uint64_t n = 0;

		for (unsigned k = 0; k < t->ntracefiles; k++)
			n += tc->n[(size_t)k * tc->nids + id];
		if (!ty || ty->builtin || !n || !tc->bytes[id])
			continue;
		snprintf(line, sizeof(line), "  bytes       %s.%s: %.1f per event (%llu events, %llu bytes, headers included)\n",
			 ty->facility, ty->name, (double)tc->bytes[id] / (double)n, (unsigned long long)n,
			 (unsigned long long)tc->bytes[id]);
		dump_out_str(o, line);
	}
}

static void num(struct dump_out *o, const char *key, double v, const char *fmt)
{
	char b[64];

	snprintf(b, sizeof(b), fmt, v);
	dump_out_str(o, ",\"");
	dump_out_str(o, key);
	dump_out_str(o, "\":");
	dump_out_str(o, b);
}

void stats_history_json(struct dump_out *o, const struct ltt_trace_info *t, const struct trace_counts *tc)
{
	uint64_t from, to;
	int first = 1;

	if (!tc->bytes || !tc->tf_bytes)
		return;
	if (!common_window(t, &from, &to))
		from = to = 0;
	dump_out_str(o, ",\"history\":{\"streams\":[");
	for (unsigned k = 0; k < t->ntracefiles; k++) {
		const struct ltt_tracefile_info *f = t->tracefiles[k];
		uint64_t kb = kept_bytes(t, f);
		double s = secs(f->first_ns, to), mib = (double)kb / 1048576.0;

		if (!is_stream(f))
			continue;
		dump_out_str(o, first ? "{\"name\":" : ",{\"name\":");
		first = 0;
		dump_out_json_string(o, f->name, strlen(f->name));
		dump_out_str(o, ",\"from\":\"");
		dump_out_time(o, f->first_ns);
		dump_out_str(o, "\",\"last\":\"");
		dump_out_time(o, f->last_ns);
		dump_out_str(o, "\",\"ns\":");
		dump_out_u64(o, to > f->first_ns ? to - f->first_ns : 0);
		dump_out_str(o, ",\"overwritten_before\":");
		dump_out_str(o, f->blocks_lost ? "true" : "false");
		dump_out_str(o, ",\"kept_bytes\":");
		dump_out_u64(o, kb);
		dump_out_str(o, ",\"event_bytes\":");
		dump_out_u64(o, tc->tf_bytes[k]);
		num(o, "seconds_per_mib", mib > 0 ? s / mib : 0.0, "%.6f");
		num(o, "bytes_per_event", (double)tc->tf_bytes[k] / (double)f->events, "%.2f");
		dump_out_char(o, '}');
	}
	dump_out_char(o, ']');
	if (to) {
		dump_out_str(o, ",\"common_from\":\"");
		dump_out_time(o, from);
		dump_out_str(o, "\",\"to\":\"");
		dump_out_time(o, to);
		dump_out_str(o, "\",\"common_ns\":");
		dump_out_u64(o, to - from);
	}
	dump_out_str(o, ",\"event_bytes\":{");
	first = 1;
	for (unsigned id = 0; id < tc->nids; id++) {
		const struct ltt_event_type *ty = ltt_trace_event_type(t, id);
		char name[300];
		uint64_t n = 0;

		for (unsigned k = 0; k < t->ntracefiles; k++)
			n += tc->n[(size_t)k * tc->nids + id];
		if (!ty || ty->builtin || !n || !tc->bytes[id])
			continue;
		snprintf(name, sizeof(name), "%s.%s", ty->facility, ty->name);
		if (!first)
			dump_out_char(o, ',');
		first = 0;
		dump_out_json_string(o, name, strlen(name));
		dump_out_str(o, ":{\"events\":");
		dump_out_u64(o, n);
		dump_out_str(o, ",\"bytes\":");
		dump_out_u64(o, tc->bytes[id]);
		dump_out_char(o, '}');
	}
	dump_out_str(o, "}}");
}
