/* SPDX-License-Identifier: MIT */
/* Parallel formatting of a trace set's events (issue 17): this process reads the events in merge
 * order, exactly as the single-thread path does (one ltt_reader, ltt_reader_next), and hands them in
 * batches to worker processes forked from it, which format them (each with its own copy of the
 * formats' caches: no format needs to be thread-safe); the workers write their batches' output in
 * batch order (a token passed round the ring of workers), so the bytes that reach the output are
 * those the single-thread path writes. Used by `ltt dump --threads`; any command whose output for an
 * event depends on that event only (the per_event formats of dump, export formats alike) can use it. */
#ifndef LTT_TOOLKIT_PAR_H
#define LTT_TOOLKIT_PAR_H

#include <stdint.h>

#include <ltt/reader.h>

#include "toolkit/dump_out.h"

struct par_opts {
	unsigned workers;	/* >= 2 */
	int out_fd;		/* where the output goes, in event order */
	uint64_t limit;		/* stop after this many events (UINT64_MAX: none) */
	/* In a worker: formats ev into o (a dump_out of the worker's own); 0 or a negative errno. */
	int (*event)(void *arg, struct dump_out *o, const struct ltt_event *ev);
	void *arg;
};

/* The number of workers for --threads=0 (the default: the CPUs online) and whether a trace set is
 * worth it (bytes of its tracefiles); 1 means the single-thread path. */
unsigned par_default_workers(struct ltt_reader *r, unsigned threads);
/* The same for formatting processes fed by this process (par_run: ltt dump --threads with a time
 * range): one CPU fewer (this process reads and merges), and 1 (the single-thread path) below 2
 * workers. */
unsigned par_default_format_workers(struct ltt_reader *r, unsigned threads);

/* Reads every event of r (ltt_reader_next) here and formats them in opts->workers processes.
 * Returns 0; -EPIPE when the output was closed (the single-thread path's dump_out error); another
 * negative errno (reported by the caller) when the workers could not be started or failed, or the
 * reader's own error. *nevents gets the events read. The caller's problem callback runs in this
 * process, as on the single-thread path. */
int par_run(struct ltt_reader *r, const struct par_opts *opts, uint64_t *nevents);

/* ltt dump by block ranges (par_dump.c): the trace set's time cut into windows at block boundaries,
 * each window's blocks decoded, merged and formatted (opts->event) by one of opts->workers processes,
 * the windows' output written to opts->out_fd in order (opts->limit is not used: --limit reads with
 * the reader). Needs a reader not started, without a time range. Returns 0 when every event was
 * written (*nevents of them); 1 when the caller must read the trace set with r, skipping the first
 * *nevents events (already written, the same bytes; 0 when the trace set does not split): a window
 * found a problem or could not prove it decodes what r decodes, and r then reports the problems;
 * -EPIPE when the output was closed; another negative errno when the workers failed. */
int par_dump(struct ltt_reader *r, const struct par_opts *opts, uint64_t *nevents);

/* ltt stats (par_count.c): counts the events of every CPU tracefile of r per (tracefile, id) with
 * block ranges (ltt_range_open) decoded in `workers` threads. Returns 1 when that was exact (no
 * problem, every range followed its predecessor): n[trace][k * nids[trace] + id] has the counts of
 * CPU tracefile k added, the tracefiles' counters are the reader's (ltt_range_add_counts) and r skips
 * them (read the control tracefiles with r). Returns 0 when the parallel path does not apply or was not
 * exact (nothing changed: read everything with r, which reports the problems), or -ENOMEM. */
int par_count(struct ltt_reader *r, unsigned workers, uint64_t *const *n, const unsigned *nids);

#endif
