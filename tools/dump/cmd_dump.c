/* SPDX-License-Identifier: MIT */
/* ltt dump: prints the events of one or more traces, merged in time order (doc/cli.md). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "common/parse.h"
#include "toolkit/cli_hint.h"
#include "toolkit/cmd.h"
#include "toolkit/dump_format.h"
#include "toolkit/losses.h"
#include "toolkit/reader_common.h"
#include "toolkit/follow.h"
#include "toolkit/par.h"

extern const struct ltt_cmd ltt_cmd_dump;	/* at the end of this file */

#define LTT_FMT(n) extern const struct ltt_dump_format ltt_fmt_##n;
#include "ltt-fmts.h"
#undef LTT_FMT

static const struct ltt_dump_format *const formats[] = {
#define LTT_FMT(n) &ltt_fmt_##n,
#include "ltt-fmts.h"
#undef LTT_FMT
	NULL
};

struct dump_opts {
	const struct ltt_dump_format *fmt;
	struct reader_filter filter;	/* filter.all is --all */
	int brief;
	uint64_t limit;
	int have_limit;
	unsigned threads;	/* --threads: 0 automatic, 1 the single-thread path */
	unsigned time_mode;	/* --time: DUMP_TIME_* */
	unsigned capture_flags;
	int follow;
};

static const struct ltt_dump_format *find_format(const char *name)
{
	for (size_t i = 0; formats[i]; i++)
		if (!strcmp(formats[i]->name, name))
			return formats[i];
	return NULL;
}

static int parse_args(int argc, char **argv, struct dump_opts *o)
{
	static const struct option lo[] = {
		{ "format", required_argument, NULL, 'F' },
		{ "all", no_argument, NULL, 'a' },
		{ "brief", no_argument, NULL, 'B' },
		READER_FILTER_LONGOPTS,
		READER_TID_LONGOPT,
		{ "limit", required_argument, NULL, 'n' },
		{ "threads", required_argument, NULL, 'j' },
		{ "time", required_argument, NULL, 'T' },
		{ "all-snapshots", no_argument, NULL, 'S' },
		{ "follow", no_argument, NULL, 'W' },
		{ NULL, 0, NULL, 0 },
	};
	int c, f;

	o->fmt = find_format("text");
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":F:an:" READER_FILTER_SHORTOPTS, lo, NULL)) != -1) {
		switch (c) {
		case 'F':
			o->fmt = find_format(optarg);
			if (!o->fmt) {
				const char *names[sizeof(formats) / sizeof(formats[0])], *near;
				size_t n = 0;

				for (; formats[n]; n++)
					names[n] = formats[n]->name;
				near = ltt_cli_nearest(optarg, names, n);
				if (near)
					ltt_tool_error("dump", "--format=%s: unknown format; did you mean --format=%s? "
						       "(see ltt dump --help)", optarg, near);
				else	/* chrome, perfetto, ctf, ...: the viewers' formats are export's */
					ltt_tool_error("dump", "--format=%s: unknown format (see ltt dump --help; the viewers' "
						       "formats are ltt export's: ltt export --help)", optarg);
				return -1;
			}
			break;
		case 'a':
			o->filter.all = 1;
			break;
		case 'B':
			o->brief = 1;
			break;
		case 'T':
			if (!strcmp(optarg, "abs") || !strcmp(optarg, "rel") || !strcmp(optarg, "delta")) {
				o->time_mode = optarg[0] == 'a' ? DUMP_TIME_ABS : optarg[0] == 'r' ? DUMP_TIME_REL
												 : DUMP_TIME_DELTA;
				break;
			}
			ltt_tool_error("dump", "--time=%s: expected abs (seconds since the Epoch), rel (since the "
				       "trace start) or delta (since the previous event)", optarg);
			return -1;
		case 'S':
			o->capture_flags |= LTT_CAPTURE_ALL_SNAPSHOTS;
			break;
		case 'W':
			o->follow = 1;
			break;
		case 'n':
			if (ltt_parse_u64(optarg, &o->limit)) {
				ltt_tool_error("dump", "--limit %s: expected a number of events", optarg);
				return -1;
			}
			o->have_limit = 1;
			break;
		case 'j':
			if (reader_threads_option("dump", optarg, &o->threads))
				return -1;
			break;
		case '?':
		case ':':
			ltt_cli_option_error("dump", ltt_cmd_dump.usage, c, argc, argv, lo);
			return -1;
		default:
			f = reader_filter_option(&o->filter, "dump", c, optarg);
			if (f > 0)
				break;
			if (f < 0)
				return -1;
			ltt_tool_error("dump", "unknown or incomplete option '%s' (see ltt dump --help)",
				       argv[optind - 1]);
			return -1;
		}
	}
	if (optind >= argc) {
		ltt_tool_error("dump", "no trace given (see ltt dump --help)");
		return -1;
	}
	if (o->follow && argc - optind > 1) {
		ltt_tool_error("dump", "--follow reads one trace (%d given)", argc - optind);
		return -1;
	}
	return optind;
}

/* par_run's worker callback: the format's event, writing to the worker's own output. */
struct par_dump {
	struct ltt_dump_ctx *ctx;
	const struct ltt_dump_format *fmt;
	const struct reader_filter *filter;
};

static int par_event(void *arg, struct dump_out *o, const struct ltt_event *ev)
{
	struct par_dump *pd = arg;

	if (!reader_filter_tid_shown(pd->filter, ev))
		return 0;
	pd->ctx->out = o;
	return pd->fmt->event(pd->ctx, ev);
}

/* --follow (toolkit/follow.h): the filters again for what the reader took in (event types,
 * tracefiles, chunks), the buffered output written out whenever it waits. */
struct follow_dump {
	struct dump_opts *o;
	struct dump_out *out;
	int bad;		/* a filter's value is bad (reported) */
};

static void follow_filters(void *arg, struct ltt_reader *r)
{
	struct follow_dump *fd = arg;

	if (!fd->bad && reader_filter_apply(r, &fd->o->filter, "dump", NULL, NULL))
		fd->bad = 1;
	if (fd->o->fmt->losses && !fd->o->filter.all)
		losses_reader(r);	/* the loss records too (toolkit/losses.h) */
}

static void follow_idle(void *arg)
{
	struct follow_dump *fd = arg;

	dump_out_flush(fd->out);
}

/* ltt dump --follow: prints the events while the recorder writes them, until the recording ended
 * (and everything is printed) or SIGINT/SIGTERM (then 130). */
static int run_follow(struct dump_opts *o, const char *path, struct dump_out *out)
{
	struct reader_tool tool = { .cmd = "dump" };
	struct follow_dump fd = { o, out, 0 };
	struct follow f = { .tool = &tool, .flags = o->filter.all || o->fmt->losses ? LTT_READ_BUILTIN : 0,
			    .changed = follow_filters, .idle = follow_idle, .arg = &fd };
	struct ltt_dump_ctx ctx;
	struct ltt_event ev;
	uint64_t n = 0, late = 0, last = 0;
	int ret, status;

	status = follow_open(&f, path);
	if (status)
		return status;
	if (fd.bad) {
		follow_close(&f);
		return 2;
	}
	memset(&ctx, 0, sizeof(ctx));
	ctx.out = out;
	ctx.reader = f.r;
	ctx.ntraces = f.chunked ? 2 : 1;	/* chunks are named on every line, as when read whole */
	ctx.all = (unsigned)o->filter.all;
	ctx.brief = (unsigned)o->brief;
	ctx.time_mode = o->time_mode;
	ret = o->fmt->begin ? o->fmt->begin(&ctx) : 0;
	while (!ret && !fd.bad && (!o->have_limit || n < o->limit) && (ret = follow_next(&f, &ev)) > 0) {
		if (ret == FOLLOW_TICK) {
			ret = 0;
			continue;
		}
		if (!n && o->time_mode == DUMP_TIME_REL && ltt_reader_time_bounds(f.r, &ctx.time_base, &last))
			ctx.time_base = 0;
		if (ev.time_ns < last)
			late++;
		last = ev.time_ns;
		if (o->fmt->losses && ev.type->builtin && !o->filter.all) {
			ret = o->fmt->event(&ctx, &ev);	/* a loss record: every thread's */
			continue;
		}
		if (!reader_filter_tid_shown(&o->filter, &ev)) {
			ret = 0;
			continue;
		}
		ret = o->fmt->event(&ctx, &ev);
		n++;
	}
	status = fd.bad ? 2 : ret == -EINTR ? 130 : ret < 0 && !out->error ? 1 : 0;
	if (ret < 0 && ret != -EINTR && !out->error)
		ltt_tool_error("dump", "%s: %s", path, strerror(-ret));
	if (o->fmt->end && o->fmt->end(&ctx) && !status)
		status = 1;
	if (dump_out_flush(out)) {
		if (out->error != -EPIPE)
			ltt_tool_error("dump", "standard output: %s", strerror(-out->error));
		if (status != 130)
			status = 1;
	}
	if (late)
		ltt_tool_error("dump", "%s: %llu events printed after later ones: they reached the disk more than "
			       "%.2f s after them (the recorder was slow to write them)", path, (unsigned long long)late,
			       (double)f.hold_ns / 1e9);
	if (!status)	/* 2 and 130 stay */
		status = reader_tool_status(&tool, 0);
	follow_close(&f);
	return status;
}

static int run(int argc, char **argv)
{
	struct reader_tool tool = { .cmd = "dump" };
	struct ltt_reader_options ropt = { .problem = reader_tool_problem, .problem_arg = &tool };
	struct dump_opts o;
	struct ltt_dump_ctx ctx;
	struct ltt_reader *r;
	struct ltt_event ev;
	struct dump_out *out;
	uint64_t n = 0, skip = 0;
	unsigned workers;
	int first, ret, status = 0;

	memset(&o, 0, sizeof(o));
	first = parse_args(argc, argv, &o);
	if (first < 0)
		return 2;
	if (o.follow) {
		out = malloc(sizeof(*out));
		if (!out) {
			ltt_tool_error("dump", "out of memory");
			return 1;
		}
		out->fd = STDOUT_FILENO;
		out->error = 0;
		out->len = 0;
		status = run_follow(&o, argv[first], out);
		free(out);
		return status;
	}
	if (o.filter.all || o.fmt->losses)
		ropt.flags |= LTT_READ_BUILTIN;
	tool.capture_flags = o.capture_flags;
	ret = reader_tool_open(&tool, &r, argv + first, (unsigned)(argc - first), &ropt);
	if (ret)
		return 1;
	if (reader_filter_apply(r, &o.filter, "dump", NULL, NULL)) {
		ltt_reader_close(r);
		return 2;
	}
	if (o.fmt->losses && !o.filter.all)
		losses_reader(r);	/* the loss records only (toolkit/losses.h) */
	out = malloc(sizeof(*out));
	if (!out) {
		ltt_tool_error("dump", "out of memory");
		ltt_reader_close(r);
		return 1;
	}
	out->fd = STDOUT_FILENO;
	out->error = 0;
	out->len = 0;
	memset(&ctx, 0, sizeof(ctx));
	ctx.out = out;
	ctx.reader = r;
	ctx.ntraces = ltt_reader_ntraces(r);
	ctx.all = (unsigned)o.filter.all;
	ctx.brief = (unsigned)o.brief;
	ctx.time_mode = o.time_mode;
	if (o.time_mode == DUMP_TIME_REL) {
		uint64_t last;

		if (ltt_reader_time_bounds(r, &ctx.time_base, &last))
			ctx.time_base = 0;
	}
	ret = o.fmt->begin ? o.fmt->begin(&ctx) : 0;
	if (!ret)
		ret = dump_out_flush(out);	/* before any worker writes */
	/* --limit, delta times and small traces: the single-thread path; formats whose output for an
	 * event depends on earlier ones: always (toolkit/par.h). Windows of block ranges decoded in
	 * parallel (par_dump) without a time range, else formatting processes fed by this one (par_run). */
	workers = o.fmt->per_event && !o.have_limit && o.time_mode != DUMP_TIME_DELTA ? par_default_workers(r, o.threads) : 1;
	if (!ret && workers > 1) {
		struct par_dump pd = { &ctx, o.fmt, &o.filter };
		struct par_opts po = { .workers = workers, .out_fd = STDOUT_FILENO, .limit = UINT64_MAX,
				       .event = par_event, .arg = &pd };

		if (!o.filter.from && !o.filter.to) {
			ret = par_dump(r, &po, &skip);
			if (ret == 1)	/* read with r, after the events written */
				ret = 0, workers = 1;
		} else {
			po.workers = par_default_format_workers(r, o.threads);
			if (po.workers > 1)
				ret = par_run(r, &po, &n);
			else
				workers = 1;
		}
		ctx.out = out;
		if (ret == -EPIPE)
			out->error = ret;	/* as the single-thread path: no message, status 1 */
		else if (ret < 0)
			ltt_tool_error("dump", "parallel output: %s (--threads=1 reads without workers)",
				       strerror(-ret));
	}
	while (!ret && workers <= 1 && n < skip && (ret = ltt_reader_next(r, &ev)) == 1) {
		ret = 0;
		n++;
	}
	while (!ret && workers <= 1 && (!o.have_limit || n < o.limit) && (ret = ltt_reader_next(r, &ev)) == 1) {
		if (o.fmt->losses && ev.type->builtin && !o.filter.all) {
			ret = o.fmt->event(&ctx, &ev);	/* a loss record: every thread's */
			continue;
		}
		if (!reader_filter_tid_shown(&o.filter, &ev)) {
			ret = 0;
			continue;
		}
		ret = o.fmt->event(&ctx, &ev);
		n++;
	}
	if (ret < 0 && !out->error)
		status = 1;
	if (o.fmt->end && o.fmt->end(&ctx))
		status = 1;
	if (dump_out_flush(out)) {
		if (out->error != -EPIPE)
			ltt_tool_error("dump", "standard output: %s", strerror(-out->error));
		status = 1;
	}
	status = reader_tool_status(&tool, status);
	free(out);
	ltt_reader_close(r);
	return status;
}

const struct ltt_cmd ltt_cmd_dump = {
	.name = "dump",
	.summary = "print the events of traces, merged in time order (text or JSON)",
	.usage =
	"usage: ltt dump [OPTIONS] TRACE...\n"
	"\n"
	"Prints the events of the traces (directories or packed .tar.gz traces), merged in time order,\n"
	"one per line. Problems in the traces are reported on stderr as 'FILE: offset N: what'; every good\n"
	"event is still printed, and the exit status is then 1.\n"
	"\n"
	"  --format=FORMAT   text (default): facility.event: SECONDS.NANOSECONDS (cpu/N) { field = value }\n"
	"                    json: JSON Lines with keys time, ts_ns, cycles, cpu, facility, event,\n"
	"                    fields (and trace, with several traces)\n"
	"                    csv: one row per event (RFC 4180), fields as a JSON column;\n"
	"                    see doc/cli.md for every format\n"
	"  --time=MODE       abs (default): seconds since the Epoch; rel: since the trace start (its\n"
	"                    earliest block_start); delta: since the previous event printed\n"
	"  --all             also print the builtin events (block_start, block_end, time_heartbeat,\n"
	"                    facility_load, events_lost, blocks_lost)\n"
	"  --brief           normal, perf, event: leave out time, file and line (Trace2's brief mode)\n"
	READER_FILTER_HELP
	READER_TID_HELP
	"  --limit N         stop after N events\n"
	"  --threads=N       decode and format events in N processes (text and json; default 0: one\n"
	"                    per CPU for a trace set of 8 MiB or more, else 1: this process only); the\n"
	"                    output is the same\n"

	"  --all-snapshots   every snapshot of a flight-recorder trace directory (default: the newest)\n"
	"  --follow          print the events while the recorder writes them (one TRACE, recorded in\n"
	"                    discard mode, with or without rotation), in time order: an event is held\n"
	"                    until every tracefile has data past it, at most the trace's flush period\n"
	"                    (ltt_flush_ms, LTT_FLUSH_MS) + 0.25 s; waits for TRACE to appear; ends by\n"
	"                    itself once the recording process has ended and everything is printed\n"
	"                    (saying so when it ended without stopping the recording), or on ^C (SIGINT)\n"
	"                    or SIGTERM: what was printed is written out, exit status 130\n"
	"\n"
	"A TRACE holding snapshot-NNNN/ (flight recorder) is read as its newest snapshot; one holding\n"
	"chunk-NNNN/ (rotation) as all its chunks in order (doc/cli.md).\n",
	.run = run,
};
