/* SPDX-License-Identifier: MIT */
/* ltt stats: what a trace holds: events per facility.event and per tracefile, time span, rates,
 * blocks, heartbeats, lost and overwritten events, file sizes (doc/cli.md). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/escape_term.h"
#include "common/format.h"
#include "common/parse.h"
#include "toolkit/cli_hint.h"
#include "toolkit/cmd.h"
#include "toolkit/dump_out.h"
#include "toolkit/losses.h"
#include "toolkit/par.h"
#include "toolkit/reader_common.h"
#include "report.h"
#include "stats_report.h"
#include "stats_select.h"

extern const struct ltt_cmd ltt_cmd_stats;	/* at the end of this file */


int stats_counts_alloc(struct ltt_reader *r, struct trace_counts *tc)
{
	for (unsigned i = 0; i < ltt_reader_ntraces(r); i++) {
		const struct ltt_trace_info *t = ltt_reader_trace(r, i);

		tc[i].nids = 1;
		for (unsigned k = 0; k < t->nevent_types; k++)
			if (t->event_types[k]->id + 1u > tc[i].nids)
				tc[i].nids = t->event_types[k]->id + 1u;
		tc[i].n = calloc((size_t)tc[i].nids * (t->ntracefiles ? t->ntracefiles : 1), sizeof(uint64_t));
		if (!tc[i].n)
			return -ENOMEM;
	}
	return 0;
}

/* threads: --threads (0: the default, par_default_workers) */
static int count_all(struct ltt_reader *r, struct trace_counts *tc, unsigned threads)
{
	const struct ltt_tracefile_info *last_tf = NULL;
	uint64_t *row = NULL, *bytes = NULL, *tf_bytes = NULL;
	struct ltt_event ev;
	int ret;

	if (stats_counts_alloc(r, tc))
		return -ENOMEM;
	for (unsigned i = 0; i < ltt_reader_ntraces(r); i++) {
		const struct ltt_trace_info *t = ltt_reader_trace(r, i);
		const char *mode = ltt_trace_attr(t, "ltt_mode");

		if (!mode || strcmp(mode, "flight"))
			continue;
		/* a snapshot (ring-sized): bytes per event and per stream, read in one pass */
		tc[i].bytes = calloc(tc[i].nids, sizeof(uint64_t));
		tc[i].tf_bytes = calloc(t->ntracefiles ? t->ntracefiles : 1, sizeof(uint64_t));
		if (!tc[i].bytes || !tc[i].tf_bytes)
			return -ENOMEM;
		threads = 1;
	}
	threads = threads == 1 ? 1 : par_default_workers(r, threads);
	if (threads > 1) {	/* the CPU tracefiles by block ranges in threads, when that is exact */
		unsigned *nids = calloc(ltt_reader_ntraces(r), sizeof(*nids));
		uint64_t **n = calloc(ltt_reader_ntraces(r), sizeof(*n));

		for (unsigned i = 0; nids && n && i < ltt_reader_ntraces(r); i++) {
			nids[i] = tc[i].nids;
			n[i] = tc[i].n;
		}
		ret = nids && n ? par_count(r, threads, n, nids) : -ENOMEM;
		free(nids);
		free(n);
		if (ret < 0)
			return ret;
	}
	while ((ret = ltt_reader_next(r, &ev)) == 1) {
		if (__builtin_expect(ev.tracefile != last_tf, 0)) {
			const struct ltt_trace_info *t = ev.trace;
			unsigned k = 0;

			while (k < t->ntracefiles && t->tracefiles[k] != ev.tracefile)
				k++;
			row = tc[t->index].n + (size_t)k * tc[t->index].nids;
			bytes = tc[t->index].bytes;
			tf_bytes = tc[t->index].tf_bytes ? tc[t->index].tf_bytes + k : NULL;
			last_tf = ev.tracefile;
		}
		row[ev.id]++;
		if (bytes) {
			bytes[ev.id] += LTT_FMT_HEADER + ev.size;
			if (ev.type && !ev.type->builtin)
				*tf_bytes += LTT_FMT_HEADER + ev.size;
		}
		if (__builtin_expect(ev.type && !ev.type->builtin && ev.tracefile->cpu < 0, 0))
			select_note(&tc[ev.trace->index].rules, &ev);
	}
	for (unsigned i = 0; i < ltt_reader_ntraces(r); i++)
		if (tc[i].rules.nomem)
			return -ENOMEM;
	return ret;
}

/* Kernel events (doc/format.md section 13): what was recorded and what could not be, and why. */
static void kernel_text(struct dump_out *o, const struct ltt_trace_info *t)
{
	const char *rec = ltt_trace_attr(t, "ltt_kernel"), *scope = ltt_trace_attr(t, "ltt_kernel_scope");
	const char *miss = ltt_trace_attr(t, "ltt_kernel_missing"), *why = ltt_trace_attr(t, "ltt_kernel_why");

	if (!rec)
		return;
	dump_out_str(o, "  kernel      recorded ");
	dump_out_str(o, *rec ? rec : "nothing");
	dump_out_str(o, " (");
	dump_out_str(o, scope ? scope : "process");
	dump_out_str(o, " scope)\n");
	if (miss && *miss) {
		dump_out_str(o, "  kernel      not recorded: ");
		dump_out_str(o, why && *why ? why : miss);
		dump_out_str(o, "\n");
	}
}

static double span_s(uint64_t a, uint64_t b)
{
	return b > a ? (double)(b - a) / 1e9 : 0.0;
}

void stats_print_text(struct dump_out *o, struct ltt_reader *r, const struct trace_counts *tc)
{
	char line[512], cell[600];

	for (unsigned i = 0; i < ltt_reader_ntraces(r); i++) {
		const struct ltt_trace_info *t = ltt_reader_trace(r, i);
		uint64_t first = UINT64_MAX, last = 0, size = 0, blocks = 0, hb = 0;
		uint64_t lost[LTT_LOST_NCAUSES] = { 0 }, gaps = 0, damaged = 0;
		struct ltt_counts n;	/* events, lost, overwritten: as ltt check and the manifest count */
		const char *v, *m;
		char nb[256], mb[128];

		ltt_trace_counts(t, &n);
		for (unsigned k = 0; k < t->ntracefiles; k++) {
			const struct ltt_tracefile_info *f = t->tracefiles[k];

			size += f->file_size;
			blocks += f->blocks_read;
			hb += f->heartbeats;
			gaps += f->gap_blocks;
			damaged += f->blocks_damaged + f->blocks_cut;
			for (unsigned c = 0; c < LTT_LOST_NCAUSES; c++)
				lost[c] += f->events_lost[c];
			if (f->records) {
				first = f->first_ns < first ? f->first_ns : first;
				last = f->last_ns > last ? f->last_ns : last;
			}
		}
		dump_out_str(o, "trace ");
		dump_out_term(o, t->path, strlen(t->path));
		dump_out_char(o, '\n');
		v = ltt_trace_attr(t, "node_name");
		m = ltt_trace_attr(t, "machine");
		snprintf(line, sizeof(line), "  system      %s, %s, %s, %s endian, %u CPUs, format 2.%u\n",
			 v ? ltt_term_str(nb, sizeof(nb), v) : "?", m ? ltt_term_str(mb, sizeof(mb), m) : "?", ltt_arch_size_name(t->arch_size),
			 t->big_endian ? "big" : "little", t->ncpus, t->minor_version);
		dump_out_str(o, line);
		if (first != UINT64_MAX) {
			dump_out_str(o, "  time        ");
			dump_out_time(o, first);
			dump_out_str(o, " .. ");
			dump_out_time(o, last);
			snprintf(line, sizeof(line), " (%.6f s)\n", span_s(first, last));
			dump_out_str(o, line);
		}
		snprintf(line, sizeof(line), "  events      %llu (builtin records not counted: %llu), %.1f events/s\n",
			 (unsigned long long)n.events, (unsigned long long)n.builtin_records,
			 span_s(first, last) > 0 ? (double)n.events / span_s(first, last) : 0.0);
		dump_out_str(o, line);
		snprintf(line, sizeof(line), "  blocks      %llu of %u bytes, %llu heartbeats, %llu bytes in files\n",
			 (unsigned long long)blocks, t->block_size, (unsigned long long)hb,
			 (unsigned long long)size);
		dump_out_str(o, line);
		snprintf(line, sizeof(line), "  lost        %llu events (buffer_full %llu, too_big %llu, nested %llu, "
			 "torn %llu, internal %llu, kernel %llu, unknown %llu)\n",
			 (unsigned long long)n.lost,
			 (unsigned long long)lost[0], (unsigned long long)lost[1], (unsigned long long)lost[2],
			 (unsigned long long)lost[3], (unsigned long long)lost[4], (unsigned long long)lost[5],
			 (unsigned long long)lost[6]);
		dump_out_str(o, line);
		kernel_text(o, t);
		snprintf(line, sizeof(line), "  overwritten %llu blocks holding %llu events; %llu blocks missing "
			 "without a record; %llu damaged blocks\n", (unsigned long long)n.overwritten_blocks,
			 (unsigned long long)n.overwritten, (unsigned long long)gaps, (unsigned long long)damaged);
		dump_out_str(o, line);
		for (unsigned b = 0; b < t->nbookmarks; b++) {
			const struct ltt_bookmark *bm = &t->bookmarks[b];

			snprintf(line, sizeof(line), "  bookmark    %s", bm->name ? bm->name : "(no name)");
			dump_out_str(o, line);
			if (bm->cpu >= 0) {
				snprintf(line, sizeof(line), " cpu/%d", bm->cpu);
				dump_out_str(o, line);
			}
			if (bm->has_time) {
				dump_out_char(o, ' ');
				dump_out_time(o, bm->start_ns);
				dump_out_str(o, " .. ");
				dump_out_time(o, bm->end_ns);
			}
			if (bm->has_cycles) {
				snprintf(line, sizeof(line), " cycles %llu .. %llu", (unsigned long long)bm->start_cycles,
					 (unsigned long long)bm->end_cycles);
				dump_out_str(o, line);
			}
			dump_out_str(o, ": ");
			dump_out_c_string(o, bm->text, strlen(bm->text));
			dump_out_char(o, '\n');
		}
		select_print_text(o, t, (struct select_log *)&tc[i].rules);
		snprintf(line, sizeof(line), "  %-22s %12s %8s %10s %10s %10s %10s\n", "tracefile", "bytes",
			 "blocks", "events", "lost", "overwr.", "heartbeats");
		dump_out_str(o, line);
		for (unsigned k = 0; k < t->ntracefiles; k++) {
			const struct ltt_tracefile_info *f = t->tracefiles[k];
			struct ltt_counts fc = { 0 };

			ltt_counts_add(&fc, f);
			snprintf(line, sizeof(line), "  %-22s %12llu %8llu %10llu %10llu %10llu %10llu\n", f->name,
				 (unsigned long long)f->file_size, (unsigned long long)f->blocks_read,
				 (unsigned long long)fc.events, (unsigned long long)fc.lost,
				 (unsigned long long)fc.overwritten, (unsigned long long)f->heartbeats);
			dump_out_str(o, line);
		}
		snprintf(line, sizeof(line), "  %-32s %10s", "event", "total");
		dump_out_str(o, line);
		for (unsigned k = 0; k < t->ntracefiles; k++) {
			snprintf(line, sizeof(line), " %10.10s", t->tracefiles[k]->name +
				 (t->tracefiles[k]->cpu < 0 ? 8 : 0));
			dump_out_str(o, line);
		}
		dump_out_char(o, '\n');
		for (unsigned id = 0; id < tc[i].nids; id++) {
			const struct ltt_event_type *ty = ltt_trace_event_type(t, id);
			uint64_t sum = 0;

			for (unsigned k = 0; k < t->ntracefiles; k++)
				sum += tc[i].n[(size_t)k * tc[i].nids + id];
			if (!ty || !sum)
				continue;
			snprintf(line, sizeof(line), "%s.%s", ty->facility, ty->name);
			dump_out_str(o, "  ");
			snprintf(cell, sizeof(cell), "%-32s %10llu", line, (unsigned long long)sum);
			dump_out_str(o, cell);
			for (unsigned k = 0; k < t->ntracefiles; k++) {
				snprintf(cell, sizeof(cell), " %10llu",
					 (unsigned long long)tc[i].n[(size_t)k * tc[i].nids + id]);
				dump_out_str(o, cell);
			}
			dump_out_char(o, '\n');
		}
		stats_history_text(o, t, &tc[i]);
	}
}

static void json_u64(struct dump_out *o, const char *key, uint64_t v, int comma)
{
	if (comma)
		dump_out_char(o, ',');
	dump_out_json_string(o, key, strlen(key));
	dump_out_char(o, ':');
	dump_out_u64(o, v);
}

void stats_print_json(struct dump_out *o, struct ltt_reader *r, const struct trace_counts *tc)
{
	for (unsigned i = 0; i < ltt_reader_ntraces(r); i++) {
		const struct ltt_trace_info *t = ltt_reader_trace(r, i);
		struct ltt_counts tn;
		int first_ev = 1;

		ltt_trace_counts(t, &tn);
		dump_out_str(o, "{\"trace\":");
		dump_out_json_string(o, t->path, strlen(t->path));
		json_u64(o, "block_size", t->block_size, 1);
		json_u64(o, "cpus", t->ncpus, 1);
		dump_out_str(o, ",\"counts\":{");
		json_u64(o, "events", tn.events, 0);
		json_u64(o, "builtin_records", tn.builtin_records, 1);
		json_u64(o, "lost", tn.lost, 1);
		json_u64(o, "overwritten", tn.overwritten, 1);
		json_u64(o, "overwritten_blocks", tn.overwritten_blocks, 1);
		dump_out_char(o, '}');
		dump_out_str(o, ",\"tracefiles\":[");
		for (unsigned k = 0; k < t->ntracefiles; k++) {
			const struct ltt_tracefile_info *f = t->tracefiles[k];

			dump_out_str(o, k ? ",{\"name\":" : "{\"name\":");
			dump_out_json_string(o, f->name, strlen(f->name));
			json_u64(o, "bytes", f->file_size, 1);
			json_u64(o, "blocks", f->blocks_read, 1);
			json_u64(o, "damaged_blocks", f->blocks_damaged, 1);
			json_u64(o, "cut_blocks", f->blocks_cut, 1);
			json_u64(o, "summary_blocks", f->summary_blocks, 1);
			json_u64(o, "events", f->events, 1);
			json_u64(o, "builtin_records", f->records - f->events, 1);
			json_u64(o, "heartbeats", f->heartbeats, 1);
			dump_out_str(o, ",\"events_lost\":{");
			for (unsigned c = 0; c < LTT_LOST_NCAUSES; c++)
				json_u64(o, ltt_lost_cause_name(c), f->events_lost[c], c > 0);
			dump_out_char(o, '}');
			json_u64(o, "blocks_lost", f->blocks_lost, 1);
			json_u64(o, "blocks_lost_events", f->blocks_lost_events, 1);
			json_u64(o, "unexplained_gap_blocks", f->gap_blocks, 1);
			if (f->records) {
				dump_out_str(o, ",\"first_time\":\"");
				dump_out_time(o, f->first_ns);
				dump_out_str(o, "\",\"last_time\":\"");
				dump_out_time(o, f->last_ns);
				dump_out_char(o, '"');
				json_u64(o, "first_cycles", f->first_cycles, 1);
				json_u64(o, "last_cycles", f->last_cycles, 1);
			}
			dump_out_char(o, '}');
		}
		dump_out_str(o, "],\"events\":{");
		for (unsigned id = 0; id < tc[i].nids; id++) {
			const struct ltt_event_type *ty = ltt_trace_event_type(t, id);
			char name[300];
			int first_tf = 1;
			uint64_t sum = 0;

			for (unsigned k = 0; k < t->ntracefiles; k++)
				sum += tc[i].n[(size_t)k * tc[i].nids + id];
			if (!ty || !sum)
				continue;
			snprintf(name, sizeof(name), "%s.%s", ty->facility, ty->name);
			if (!first_ev)
				dump_out_char(o, ',');
			first_ev = 0;
			dump_out_json_string(o, name, strlen(name));
			dump_out_str(o, ":{");
			json_u64(o, "total", sum, 0);
			for (unsigned k = 0; k < t->ntracefiles; k++) {
				uint64_t n = tc[i].n[(size_t)k * tc[i].nids + id];

				if (!n)
					continue;
				json_u64(o, t->tracefiles[k]->name, n, 1);
				first_tf = 0;
			}
			(void)first_tf;
			dump_out_char(o, '}');
		}
		dump_out_char(o, '}');
		select_print_json(o, t, (struct select_log *)&tc[i].rules);
		stats_history_json(o, t, &tc[i]);
		dump_out_str(o, "}\n");
	}
}

/* "--a", "--a and --b", "--a, --b and --c": the options of the reports with one of flags (all: 0). */
static void report_names(char *buf, size_t size, unsigned flags)
{
	unsigned n = 0, k = 0;
	size_t len = 0;

	for (unsigned i = 0; i < stats_nreports; i++)
		n += !flags || (stats_reports[i]->flags & flags);
	buf[0] = 0;
	for (unsigned i = 0; i < stats_nreports && len < size; i++) {
		if (flags && !(stats_reports[i]->flags & flags))
			continue;
		len += (size_t)snprintf(buf + len, size - len, "%s--%s", !k ? "" : k + 1 == n ? " and " : ", ",
					stats_reports[i]->option);
		k++;
	}
}

/* Runs the report rep on the traces opened in r: its output flushed, its failure said. */
static int run_report(const struct stats_report *rep, struct ltt_reader *r, struct stats_args *a)
{
	struct dump_out *o = malloc(sizeof(*o));
	int ret;

	if (!o)
		return -ENOMEM;
	o->fd = 1;
	o->error = 0;
	o->len = 0;
	a->o = o;
	a->out = stdout;
	losses_reader(r);	/* of the builtin records, the loss records only */
	ret = rep->run(r, a);
	if (ret < 0)
		ltt_tool_error("stats", "--%s: %s", rep->option, strerror(-ret));
	if (dump_out_flush(o)) {
		ltt_tool_error("stats", "standard output: %s", strerror(-o->error));
		ret = -EIO;
	}
	if (fflush(stdout)) {
		ltt_tool_error("stats", "standard output: %s", strerror(errno));
		ret = -EIO;
	}
	free(o);
	return ret;
}

enum { OPT_REPORT = 0x100 };	/* + the report's index in stats_reports */

static int run(int argc, char **argv)
{
	static const struct option fixed[] = {
		{ "format", required_argument, NULL, 'F' },
		{ "graph", required_argument, NULL, 'g' },
		{ "all-snapshots", no_argument, NULL, 'S' },
		{ "threads", required_argument, NULL, 'T' },
		{ "follow", no_argument, NULL, 'W' },
		{ "region", required_argument, NULL, 'G' },
		{ "from", required_argument, NULL, 'b' },
		{ "to", required_argument, NULL, 't' },
		READER_TID_LONGOPT,
	};
	enum { NFIXED = sizeof(fixed) / sizeof(fixed[0]) };
	struct option lo[NFIXED + 32 + 1];
	struct reader_tool tool = { .cmd = "stats" };
	struct ltt_reader_options ropt = {
		.flags = LTT_READ_BUILTIN | LTT_READ_UNORDERED,
		.problem = reader_tool_problem,
		.problem_arg = &tool,
	};
	struct trace_counts *tc = NULL;
	struct ltt_reader *r;
	struct dump_out *out = NULL;
	const struct stats_report *rep = NULL;
	unsigned nrep = 0;
	int json = 0, follow = 0, c, ret, status = 0;
	const char *graph = NULL;
	unsigned threads = 0;
	struct reader_filter lf = { 0 };	/* --tid, --from, --to */
	struct prof_limits lim = { .tids = &lf.tids, .to_ns = UINT64_MAX };
	char names[512];

	memcpy(lo, fixed, sizeof(fixed));
	for (unsigned i = 0; i < stats_nreports && i < 32; i++)
		lo[NFIXED + i] = (struct option){ stats_reports[i]->option, no_argument, NULL, OPT_REPORT + (int)i };
	lo[NFIXED + (stats_nreports < 32 ? stats_nreports : 32)] = (struct option){ NULL, 0, NULL, 0 };
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":F:", lo, NULL)) != -1) {
		if (c == 'F' && (!strcmp(optarg, "json") || !strcmp(optarg, "text"))) {
			json = !strcmp(optarg, "json");
			continue;
		}
		if (c >= OPT_REPORT && c < OPT_REPORT + (int)stats_nreports) {
			if (rep != stats_reports[c - OPT_REPORT])
				nrep++;
			rep = stats_reports[c - OPT_REPORT];
			continue;
		}
		if (c == 'g') {	/* --functions --graph FUNC: its callers and callees (uftrace graph) */
			graph = optarg;
			continue;
		}
		if (c == 'S') {
			tool.capture_flags |= LTT_CAPTURE_ALL_SNAPSHOTS;
			continue;
		}
		if (c == 'W') {
			follow = 1;
			continue;
		}
		if (c == 'G') {
			lim.region = optarg;
			continue;
		}
		if (c == 'I' || c == 'b' || c == 't') {
			if (reader_filter_option(&lf, "stats", c, optarg) < 0)
				return 2;
			continue;
		}
		if (c == 'T') {
			if (reader_threads_option("stats", optarg, &threads))
				return 2;
			continue;
		}
		if (c == 'F') {
			ltt_tool_error("stats", "--format=%s: unknown format (text or json)", optarg);
			return 2;
		}
		return ltt_cli_option_error("stats", ltt_cmd_stats.usage, c, argc, argv, lo);
	}
	if (optind >= argc) {
		ltt_tool_error("stats", "no trace given (see ltt stats --help)");
		return 2;
	}
	/* which options go with which report: the table's flags */
	if (nrep > 1) {
		report_names(names, sizeof(names), 0);
		ltt_tool_error("stats", "%s are separate reports: give one", names);
		return 2;
	}
	if (graph && !(rep && (rep->flags & STATS_TAKES_GRAPH))) {
		ltt_tool_error("stats", "--graph FUNC goes with --functions (ltt stats --functions --graph FUNC TRACE)");
		return 2;
	}
	if ((lf.tids.n || lf.from || lf.to) && !(rep && (rep->flags & STATS_TAKES_LIMITS))) {
		report_names(names, sizeof(names), STATS_TAKES_LIMITS);
		ltt_tool_error("stats", "--tid, --from and --to limit %s: give one of them", names);
		return 2;
	}
	if (lim.region && !(rep && (rep->flags & STATS_TAKES_REGION))) {
		report_names(names, sizeof(names), STATS_TAKES_REGION);
		ltt_tool_error("stats", "--region=%s limits %s: give %s too", lim.region, names, names);
		return 2;
	}
	if (follow && (rep || argc - optind > 1)) {
		ltt_tool_error("stats", "--follow reads one trace and counts its events (no --regions, --profile)");
		return 2;
	}
	if (follow)
		return stats_follow(argv[optind], json);
	if (rep)	/* merged in time order, with the loss records (toolkit/losses.h): each report shows them */
		ropt.flags = LTT_READ_BUILTIN;
	ret = reader_tool_open(&tool, &r, argv + optind, (unsigned)(argc - optind), &ropt);
	if (ret)
		return 1;
	reader_tool_not_stopped(&tool, r);
	if ((lf.from || lf.to) && reader_filter_times(r, &lf, "stats", &lim.from_ns, &lim.to_ns)) {
		ltt_reader_close(r);
		return 2;
	}
	if (rep) {
		struct stats_args a = {
			.json = json,
			.graph = graph,
			.tids = &lf.tids,
			.lim = lf.tids.n || lf.from || lf.to || lim.region ? &lim : NULL,
		};

		if ((rep->flags & STATS_TIME_RANGE) && (lf.from || lf.to))
			ltt_reader_set_time_range(r, lim.from_ns, lim.to_ns);
		ret = run_report(rep, r, &a);
		ltt_reader_close(r);
		return reader_tool_status(&tool, ret < 0);
	}
	tc = calloc(ltt_reader_ntraces(r), sizeof(*tc));
	out = malloc(sizeof(*out));
	if (!tc || !out || (ret = count_all(r, tc, threads)) == -ENOMEM) {
		ltt_tool_error("stats", "out of memory");
		status = 1;
		goto out;
	}
	out->fd = 1;
	out->error = 0;
	out->len = 0;
	if (json)
		stats_print_json(out, r, tc);
	else
		stats_print_text(out, r, tc);
	if (dump_out_flush(out)) {
		ltt_tool_error("stats", "standard output: %s", strerror(-out->error));
		status = 1;
	}
	status = reader_tool_status(&tool, status || ret < 0);
out:
	if (tc)
		for (unsigned i = 0; i < ltt_reader_ntraces(r); i++) {
			free(tc[i].n);
			free(tc[i].bytes);
			free(tc[i].tf_bytes);
			select_free(&tc[i].rules);
		}
	free(tc);
	free(out);
	ltt_reader_close(r);
	return status;
}

const struct ltt_cmd ltt_cmd_stats = {
	.name = "stats",
	.summary = "summarize traces: events per type and CPU, time span, rates, lost data",
	.usage =
	"usage: ltt stats [--format=text|json] [--regions] [--profile] [--sched] [--io] [--waits] [--functions [--graph FUNC]] [--all-snapshots] [--threads=N] TRACE...\n"
	"       ltt stats --profile [--tid=LIST] [--from T] [--to T] [--region=LABEL] TRACE...\n"
	"       ltt stats --per-thread [--format=text|json] [--tid=LIST] [--from T] [--to T] TRACE...\n"
	"       ltt stats --follow [--format=text|json] TRACE\n"
	"\n"
	"Reads every event of the traces and prints, per trace: the system, the time span, events and\n"
	"rate, blocks and heartbeats, lost events by cause, overwritten blocks and their events, blocks\n"
	"missing without a record, damaged blocks, the event rules in effect over time with the events\n"
	"they did not select (LTT_EVENTS, ltt_events_set()), the trigger of a snapshot taken for\n"
	"LTT_SNAPSHOT_ON, then a table per tracefile and a table of events per facility.event and\n"
	"tracefile. Events, lost and overwritten are counted as ltt check and the manifest of ltt pack\n"
	"count them (doc/format.md section 7, \"Counts\"): builtin records (block_start, block_end,\n"
	"time_heartbeat, facility_load, events_lost, blocks_lost) are not events; core's records are.\n"
	"Problems found are reported on stderr (exit status 1).\n"
	"\n"
	"  --format=json   one JSON object per trace instead of the text tables, the same figures with\n"
	"                  the rules and the trigger (with --regions: one object; schema in doc/cli.md;\n"
	"                  durations in integer ns)\n"
	"  --regions       time in the app facility's regions (doc/app-api.md) per category and label,\n"
	"                  per thread and for all threads: count, children (regions completed directly\n"
	"                  inside, on the same thread), total, self (total minus the children's time),\n"
	"                  min, p50, p90, p99, max. Percentiles are exact, from all the durations kept in\n"
	"                  memory: the duration of rank floor(p/100 * (count - 1)) in sorted order, one\n"
	"                  that occurred (p50 is the lower median). Text durations are in the unit that\n"
	"                  suits each value: 20ns, 1.50µs, 12.35ms, 2.50s (2 decimals, rounded)\n"
	"  --profile       the stack samples (LTT_STACK_SAMPLE_HZ, doc/recorder.md) per thread and for all\n"
	"                  threads: ticks with each function on top (self) and anywhere on the stack\n"
	"                  (total), symbolized from the binaries when present, and the hottest stacks\n"
	"  --tid=LIST      --profile, --per-thread: only these threads (thread ids, comma-separated;\n"
	"                  an event's thread is its top-level tid field, as in ltt dump --tid)\n"
	"  --from T, --to T  --profile: only samples taken from / up to T; --per-thread: only events\n"
	"                  of that time (T as in ltt dump: seconds since the Epoch, or +S from the start)\n"
	"  --region=LABEL  --profile: only samples taken while a region whose label matches LABEL (*\n"
	"                  globs) was open on the sample's thread (every sample still builds the stack)\n"
	"  --per-thread    per thread (tid, as ltt sql's threads table counts them): its name, pid,\n"
	"                  events, first and last time, events per facility.event (JSON: one object\n"
	"                  per trace, doc/cli.md)\n"
	"  --functions     the calls function tracing recorded (LTT_FUNCTIONS, ltt record --functions;\n"
	"                  doc/recorder.md): per function, completed calls, total time (on the stack,\n"
	"                  nested calls of the same function counted once), self time (less callees),\n"
	"                  min/avg/max of a call, and its callers (JSON); sorted by total time\n"

	"  --sched         from the kernel events (the kernel facility, or a 2004 trace's core events):\n"
	"                  per thread, process and CPU the time on CPU in user mode, system calls,\n"
	"                  traps, interrupts, and off CPU runnable, sleeping, blocked; switches\n"
	"                  voluntary and involuntary, migrations, wakeups, who preempted it most;\n"
	"                  per thread and system call: count, completed, total, min, p50, p99, max\n"
	"  --io            read and write system calls (kernel events recorded with syscalls) per\n"
	"                  process, thread and file (paths from the program's open calls and the fd\n"
	"                  facility's links, followed through dup and close; socket:[INODE], pipe:[INODE]):\n"
	"                  calls, errors, bytes, latency p50, p99, max; then per process\n"
	"  --waits         the waits on locks recorded with LTT_WAITS=1 (ltt record --waits): per lock\n"
	"                  (mutex, condition variable, semaphore, rwlock), ranked by the total wait,\n"
	"                  its waits, total and longest, the threads that held it and that waited\n"
	"  --all-snapshots every snapshot of a flight-recorder trace directory (default: the newest);\n"
	"                  a chunked capture (TRACE/chunk-NNNN/) is read as all its chunks in order\n"
	"  --threads=N     decode the CPU tracefiles in N threads, by ranges of blocks (0, the default:\n"
	"                  the CPUs online for traces of 8 MiB and more, else 1); the figures are those\n"
	"                  of one thread, which reads the trace again when a range found a problem\n"
	"  --follow        while the recorder writes TRACE (as ltt dump --follow): every second, a\n"
	"                  summary (events and events/s over the last second per facility.event and per\n"
	"                  tracefile, lost events), redrawn in place on a terminal, else one block per\n"
	"                  second, each begun by a line '--- ltt stats --follow: S s ---'; at the end\n"
	"                  (the recording ended, ^C: exit 130) a line '--- final ---' and the report\n"
	"                  `ltt stats TRACE` prints (--format=json: its JSON)\n",
	.run = run,
};
