/* SPDX-License-Identifier: MIT */
/* ltt check: validates traces completely and prints every problem with its file and offset
 * (doc/cli.md); exit status 0 only for a clean trace. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/escape_term.h"
#include "reader/archive.h"
#include "reader/write_losses.h"
#include "toolkit/cli_hint.h"
#include "toolkit/cmd.h"
#include "toolkit/reader_common.h"

extern const struct ltt_cmd ltt_cmd_check;	/* at the end of this file */

/* What a trace must hold beyond what the reader needs (doc/format.md section 1); 0 or problems. */
static unsigned check_layout(const struct ltt_trace_info *t)
{
	static const char *const control[] = { "control/facilities", "control/processes",
						"control/interrupts" };
	unsigned problems = 0;
	char path[4096];

	if (!t->ntracefiles) {	/* control/ or cpu/ present but empty (otherwise ltt_capture_expand says) */
		ltt_tool_error("check", "%s: no tracefiles (control/ and cpu/ are empty: not a trace?)", t->path);
		return 1;
	}
	for (size_t i = 0; i < sizeof(control) / sizeof(*control); i++) {
		snprintf(path, sizeof(path), "%s/%s", t->dir, control[i]);
		if (access(path, F_OK) && errno == ENOENT) {
			ltt_tool_error("check", "%s/%s: missing (ltt always writes it, doc/format.md section 1)",
				       t->path, control[i]);
			problems++;
		}
	}
	return problems;
}

/* info/write-losses, non-empty: blocks the recorder could not write (the disk was full or failed;
 * counted in the trace) or losses it could not even record (doc/recorder.md "Full disk"): each line is
 * a problem, so such a trace is never "ok". */
static unsigned check_write_losses(const struct ltt_trace_info *t)
{
	char path[4096], line[512];
	unsigned problems = 0;
	FILE *f;

	f = ltt_write_losses_open(t->dir);	/* a regular file only: never blocks on a FIFO */
	if (!f) {
		if (errno == ENOENT)
			return 0;
		snprintf(path, sizeof(path), "%s/info/write-losses", t->path);
		ltt_tool_error("check", "%s: %s", path, errno == EINVAL ? "not a regular file" : strerror(errno));
		return 1;
	}
	while (problems < 100 && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (!line[0])
			continue;
		ltt_tool_error("check", "%s/info/write-losses: %s", t->path, line);
		problems++;
	}
	fclose(f);
	return problems;
}

/* The counts of the trace at dir read alone (n is left as it is when it cannot be read). */
static void snapshot_counts(const char *dir, struct ltt_counts *n)
{
	struct ltt_reader_options o = { 0 };
	struct ltt_reader *r;
	struct ltt_event ev;
	char err[256];
	int ret;

	if (ltt_reader_open(&r, &dir, 1, &o, err, sizeof(err)))
		return;
	while ((ret = ltt_reader_next(r, &ev)) == 1)
		;
	if (ret == 0 && ltt_reader_ntraces(r) == 1)
		ltt_trace_counts(ltt_reader_trace(r, 0), n);
	ltt_reader_close(r);
}

static int run(int argc, char **argv)
{
	struct reader_tool tool = { .cmd = "check" };
	struct ltt_reader_options ropt = {
		.flags = LTT_READ_BUILTIN | LTT_READ_UNORDERED | LTT_READ_CHECK,
		.problem = reader_tool_problem,
		.problem_arg = &tool,
	};
	struct ltt_reader *r;
	struct ltt_event ev;
	uint64_t events = 0;
	static const struct option lo[] = {
		{ "quiet", no_argument, NULL, 'q' },
		{ "all-snapshots", no_argument, NULL, 'S' },
		{ NULL, 0, NULL, 0 },
	};
	char err[1024];
	int ret, quiet = 0, first, c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":q", lo, NULL)) != -1) {
		if (c == 'q') {
			quiet = 1;
			continue;
		}
		if (c == 'S') {
			tool.capture_flags |= LTT_CAPTURE_ALL_SNAPSHOTS;
			continue;
		}
		return ltt_cli_option_error("check", ltt_cmd_check.usage, c, argc, argv, lo);
	}
	first = optind;
	if (first >= argc) {
		ltt_tool_error("check", "no trace given (see ltt check --help)");
		return 2;
	}
	ret = reader_tool_open(&tool, &r, argv + first, (unsigned)(argc - first), &ropt);
	if (ret)
		return 1;
	for (unsigned i = 0; i < ltt_reader_ntraces(r); i++) {
		const struct ltt_trace_info *t = ltt_reader_trace(r, i);
		char path[4096];

		tool.problems += check_layout(t);
		tool.problems += check_write_losses(t);
		snprintf(path, sizeof(path), "%s/info/manifest.xml", t->dir);
		if (!access(path, F_OK) && ltt_manifest_verify_as(t->dir, t->path, err, sizeof(err))) {
			ltt_tool_error("check", "%s", err);	/* "TRACE/cpu/1: ...", TRACE as given */
			tool.problems++;
		}
	}
	reader_tool_not_stopped(&tool, r);
	while ((ret = ltt_reader_next(r, &ev)) == 1)
		events++;
	if (!tool.problems && ret == 0 && !quiet)
		for (unsigned i = 0; i < ltt_reader_ntraces(r); i++) {
			const struct ltt_trace_info *t = ltt_reader_trace(r, i);
			struct ltt_counts n;
			uint64_t b = 0;

			ltt_trace_counts(t, &n);
			/* snapshots of one recording read together: each block was read from the newest
			 * snapshot holding it, so an older one's counts miss the blocks it shares; what a
			 * snapshot holds is counted by reading it alone */
			if ((tool.capture_flags & LTT_CAPTURE_ALL_SNAPSHOTS) && ltt_trace_attr(t, "ltt_snapshot"))
				snapshot_counts(t->dir, &n);
			for (unsigned k = 0; k < t->ntracefiles; k++)
				b += t->tracefiles[k]->blocks_read;
			ltt_term_to_file(stdout, t->path, strlen(t->path));
			printf(": ok (%u tracefiles, %llu blocks, %llu events, %llu lost, %llu overwritten)\n",
			       t->ntracefiles, (unsigned long long)b, (unsigned long long)n.events,
			       (unsigned long long)n.lost, (unsigned long long)n.overwritten);
		}
	ltt_reader_close(r);
	if (fflush(stdout) || ferror(stdout)) {
		ltt_tool_error("check", "standard output: %s", strerror(errno ? errno : EIO));
		return 1;
	}
	return reader_tool_status(&tool, ret < 0);
}

const struct ltt_cmd ltt_cmd_check = {
	.name = "check",
	.summary = "validate traces; print every problem with its file and offset",
	.usage =
	"usage: ltt check [-q|--quiet] [--all-snapshots] TRACE...\n"
	"\n"
	"Validates everything in the traces: info/system.xml, the layout (at least one tracefile;\n"
	"control/facilities, control/processes, control/interrupts present), the facilities (each\n"
	"facility_load against eventdefs/, checksums), every block (trailer, block_start, block_end,\n"
	"block_id sequence, zero fill), every event (known id, size within the block, strings,\n"
	"sequences, union codes), time monotonicity, and the manifest of packed traces; each line of\n"
	"info/write-losses (blocks the recorder could not write: the disk was full) is a problem too.\n"
	"Prints each problem on stderr as\n"
	"'ltt check: TRACE/FILE: offset N: what', and one line per clean trace on stdout (not with -q):\n"
	"'TRACE: ok (T tracefiles, B blocks, E events, L lost, O overwritten)', counted as ltt stats and\n"
	"the manifest count them (doc/format.md section 7, \"Counts\": builtin records are not events).\n"
	"Exit status: 0 when every trace is clean, 1 otherwise.\n"
	"\n"
	"  -q, --quiet       no 'ok' lines\n"
	"  --all-snapshots   every snapshot of a flight-recorder trace directory (default: the newest);\n"
	"                    each snapshot's line counts what it holds (as when checked alone)\n"
	"                    a chunked capture (TRACE/chunk-NNNN/) is checked as all its chunks\n",
	.run = run,
};
