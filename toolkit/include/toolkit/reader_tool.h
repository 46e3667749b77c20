/* SPDX-License-Identifier: MIT */
/* The trace set of a reader command (dump, stats, check, export, sql): opened once with its captures
 * expanded, its problems counted and shown once ("ltt CMD: ..."), the recordings that never stopped
 * said, --threads, and the exit status every reader command gives. */
#ifndef LTT_TOOLKIT_READER_TOOL_H
#define LTT_TOOLKIT_READER_TOOL_H

#include <stddef.h>
#include <stdint.h>

#include <ltt/reader.h>

struct reader_tool {
	const char *cmd;	/* "dump", "stats", "check" */
	uint64_t problems;
	int silent;		/* count problems without printing them */
	unsigned skipped;	/* traces of the set that could not be opened (reported, left out) */
	int hold;		/* keep problem lines in held[] instead of printing them */
	char **held;
	size_t nheld, capheld;
	unsigned capture_flags;	/* LTT_CAPTURE_* for the paths' snapshots and chunks (ltt/reader.h) */
};

/* Opens the trace set of paths, each expanded first by ltt_capture_expand() (a flight-recorder
 * directory: its newest snapshot, or all with LTT_CAPTURE_ALL_SNAPSHOTS; a chunked capture: its chunks
 * in order), saying on stderr in one line each what was read from a capture and what was skipped
 * (incomplete snapshots, chunks being written, chunks removed by the size bound). A trace that cannot be opened is reported on one line
 * ("ltt CMD: ...") and left out, the others are opened (tool->skipped counts those left out, the
 * command must then exit non-zero). Returns 0, or a negative errno when no trace could be opened
 * (reported too). */
int reader_tool_open(struct reader_tool *tool, struct ltt_reader **r, char **paths, unsigned npaths,
		     const struct ltt_reader_options *opt);

/* Each trace of r whose recording never stopped (reader/write_losses.h) is a problem: one line
 * "ltt CMD: TRACE: recording did not stop: its end may be missing (...)" on stderr each, counted in
 * tool->problems. Returns how many. */
unsigned reader_tool_not_stopped(struct reader_tool *tool, struct ltt_reader *r);

/* The exit status of a reader command: 1 when it failed (failed nonzero), when the traces had
 * problems or when some could not be opened (tool->skipped), else 0. */
static inline int reader_tool_status(const struct reader_tool *tool, int failed)
{
	return failed || tool->problems || tool->skipped ? 1 : 0;
}

/* --threads=N of the commands that decode the CPU tracefiles in threads (dump, export, stats): 0, or
 * -1 after the line "ltt CMD: --threads=ARG: expected a number from 0 (automatic) to 16". */
int reader_threads_option(const char *cmd, const char *arg, unsigned *threads);

/* Problem callback: prints "ltt CMD: TRACE/FILE: offset N: what" on stderr. arg is a reader_tool. */
void reader_tool_problem(void *arg, const struct ltt_problem *p);

#endif
