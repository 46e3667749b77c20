/* ltt dump: prints the events of one or more traces, merged in time order (doc/cli.md). */
#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cmd.h"
#include "dump/dump_format.h"
#include "reader_common.h"

static const struct ltt_dump_format *const formats[] = {
#define LTT_FMT(n) &ltt_fmt_##n,
#include "ltt-fmts.h"
#undef LTT_FMT
	NULL
};

#define MAX_PATTERNS 64

struct dump_opts {
	const struct ltt_dump_format *fmt;
	int all;
	int brief;
	const char *facilities[MAX_PATTERNS];
	unsigned nfacilities;
	const char *events[MAX_PATTERNS];
	unsigned nevents;
	int cpus[MAX_PATTERNS];
	unsigned ncpus;
	const char *from, *to;
	uint64_t limit;
	int have_limit;
};

static const struct ltt_dump_format *find_format(const char *name)
{
	for (size_t i = 0; formats[i]; i++)
		if (!strcmp(formats[i]->name, name))
			return formats[i];
	return NULL;
}

/* Whether the filters let events of type ty through. */
static int type_shown(const struct dump_opts *o, const struct ltt_event_type *ty)
{
	char full[512];
	int ok;

	if (ty->builtin && !o->all)
		return 0;
	if (o->nfacilities) {
		ok = 0;
		for (unsigned i = 0; i < o->nfacilities && !ok; i++)
			ok = !fnmatch(o->facilities[i], ty->facility, 0);
		if (!ok)
			return 0;
	}
	if (o->nevents) {
		snprintf(full, sizeof(full), "%s.%s", ty->facility, ty->name);
		ok = 0;
		for (unsigned i = 0; i < o->nevents && !ok; i++)
			ok = strchr(o->events[i], '.') ? !fnmatch(o->events[i], full, 0) :
							  !fnmatch(o->events[i], ty->name, 0);
		if (!ok)
			return 0;
	}
	return 1;
}

static int apply_filters(struct ltt_reader *r, const struct dump_opts *o)
{
	uint64_t first = 0, last = 0, from = 0, to = UINT64_MAX;

	for (unsigned i = 0; i < ltt_reader_ntraces(r); i++) {
		const struct ltt_trace_info *t = ltt_reader_trace(r, i);

		for (unsigned k = 0; k < t->nevent_types; k++)
			ltt_reader_hide_event_type(r, t->event_types[k], !type_shown(o, t->event_types[k]));
		if (o->ncpus)
			for (unsigned k = 0; k < t->ntracefiles; k++) {
				int keep = 0;

				for (unsigned c = 0; c < o->ncpus; c++)
					keep |= t->tracefiles[k]->cpu == o->cpus[c];
				ltt_reader_skip_tracefile(r, t->tracefiles[k], !keep);
			}
	}
	if (o->from || o->to) {
		if (((o->from && o->from[0] == '+') || (o->to && o->to[0] == '+')) &&
		    ltt_reader_time_bounds(r, &first, &last))
			first = 0;
		if (o->from && reader_parse_time(o->from, first, &from)) {
			ltt_tool_error("dump", "--from %s: expected SECONDS[.FRACTION] or +SECONDS", o->from);
			return -EINVAL;
		}
		if (o->to && reader_parse_time(o->to, first, &to)) {
			ltt_tool_error("dump", "--to %s: expected SECONDS[.FRACTION] or +SECONDS", o->to);
			return -EINVAL;
		}
		ltt_reader_set_time_range(r, from, to);
	}
	return 0;
}

static int parse_args(int argc, char **argv, struct dump_opts *o)
{
	static const struct option lo[] = {
		{ "format", required_argument, NULL, 'F' },
		{ "all", no_argument, NULL, 'a' },
		{ "brief", no_argument, NULL, 'B' },
		{ "facility", required_argument, NULL, 'f' },
		{ "event", required_argument, NULL, 'e' },
		{ "cpu", required_argument, NULL, 'c' },
		{ "from", required_argument, NULL, 'b' },
		{ "to", required_argument, NULL, 't' },
		{ "limit", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t v;
	int c;

	o->fmt = find_format("text");
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "F:af:e:c:b:t:n:", lo, NULL)) != -1) {
		switch (c) {
		case 'F':
			o->fmt = find_format(optarg);
			if (!o->fmt) {
				ltt_tool_error("dump", "--format=%s: unknown format (see ltt dump --help)", optarg);
				return -1;
			}
			break;
		case 'a':
			o->all = 1;
			break;
		case 'B':
			o->brief = 1;
			break;
		case 'f':
		case 'e':
			if ((c == 'f' ? o->nfacilities : o->nevents) >= MAX_PATTERNS) {
				ltt_tool_error("dump", "too many --%s options", c == 'f' ? "facility" : "event");
				return -1;
			}
			if (c == 'f')
				o->facilities[o->nfacilities++] = optarg;
			else
				o->events[o->nevents++] = optarg;
			break;
		case 'c':
			if (reader_parse_u64(optarg, &v) || v > 1u << 20 || o->ncpus >= MAX_PATTERNS) {
				ltt_tool_error("dump", "--cpu %s: expected a CPU number", optarg);
				return -1;
			}
			o->cpus[o->ncpus++] = (int)v;
			break;
		case 'b':
			o->from = optarg;
			break;
		case 't':
			o->to = optarg;
			break;
		case 'n':
			if (reader_parse_u64(optarg, &o->limit)) {
				ltt_tool_error("dump", "--limit %s: expected a number of events", optarg);
				return -1;
			}
			o->have_limit = 1;
			break;
		default:
			ltt_tool_error("dump", "unknown or incomplete option '%s' (see ltt dump --help)",
				       argv[optind - 1]);
			return -1;
		}
	}
	if (optind >= argc) {
		ltt_tool_error("dump", "no trace given (see ltt dump --help)");
		return -1;
	}
	return optind;
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
	uint64_t n = 0;
	int first, ret, status = 0;

	memset(&o, 0, sizeof(o));
	first = parse_args(argc, argv, &o);
	if (first < 0)
		return 2;
	if (o.all)
		ropt.flags |= LTT_READ_BUILTIN;
	ret = reader_tool_open(&tool, &r, argv + first, (unsigned)(argc - first), &ropt);
	if (ret)
		return 1;
	if (apply_filters(r, &o)) {
		ltt_reader_close(r);
		return 2;
	}
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
	ctx.all = (unsigned)o.all;
	ctx.brief = (unsigned)o.brief;
	ret = o.fmt->begin ? o.fmt->begin(&ctx) : 0;
	while (!ret && (!o.have_limit || n < o.limit) && (ret = ltt_reader_next(r, &ev)) == 1) {
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
	if (tool.problems || tool.skipped)
		status = 1;
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
	"                    json: JSON Lines with keys time, cycles, cpu, facility, event, fields\n"
	"                    (and trace, with several traces); see doc/cli.md for every format\n"
	"  --all             also print the builtin events (block_start, block_end, time_heartbeat,\n"
	"                    facility_load, events_lost, blocks_lost)\n"
	"  --brief           normal, perf, event: leave out time, file and line (Trace2's brief mode)\n"
	"  --facility NAME   only events of facility NAME (repeatable, * globs)\n"
	"  --event NAME      only events named NAME or FACILITY.NAME (repeatable, * globs)\n"
	"  --cpu N           only events of cpu/N (repeatable)\n"
	"  --from T, --to T  only events from / up to time T: seconds since the Epoch (1062609024.3)\n"
	"                    or +S seconds after the start of the trace (+0.5)\n"
	"  --limit N         stop after N events\n",
	.run = run,
};
