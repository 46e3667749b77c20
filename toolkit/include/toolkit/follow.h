/* SPDX-License-Identifier: MIT */
/* Following a trace while it is recorded (`ltt dump --follow`, `ltt stats --follow`; doc/recorder.md
 * "Following a live trace"): waits for the trace to appear, opens it with LTT_READ_FOLLOW, looks at it
 * again every 100 ms (new blocks, tracefiles, facilities, chunks), and tells when the recording has
 * ended (stopped, or its process gone without stopping it) so that the reader reads to the end. */
#ifndef LTT_TOOLKIT_FOLLOW_H
#define LTT_TOOLKIT_FOLLOW_H

#include <stdint.h>
#include <sys/types.h>

#include <ltt/reader.h>

#include "common/grow.h"
#include "toolkit/reader_common.h"

#define FOLLOW_TICK 2	/* follow_next(): the tick period passed */

struct follow_chunk;

struct follow {
	/* set by the caller before follow_open */
	struct reader_tool *tool;	/* cmd, problem callback */
	unsigned flags;			/* LTT_READ_* besides LTT_READ_FOLLOW */
	uint64_t hold_ns;		/* 0: from the trace's ltt_flush_ms (+ 250 ms) */
	uint64_t tick_ns;		/* 0: no FOLLOW_TICK */
	/* called after the reader took in new event types, tracefiles or traces (filters) */
	void (*changed)(void *arg, struct ltt_reader *r);
	/* called before follow_next pauses (nothing to read now): e.g. write out what is buffered */
	void (*idle)(void *arg);
	void *arg;

	/* state */
	const char *path;
	struct ltt_reader *r;
	int chunked;			/* TRACE/chunk-NNNN/ */
	struct follow_chunk *chunks;	/* the chunks added, in order */
	unsigned nchunks, capchunks;
	unsigned removed_seen;		/* lines of chunks-removed reported */
	uint64_t missing_seen;		/* chunk numbers reported missing up to */
	int ending;			/* the recording ended: the reader reads to the end */
	int died;			/* ... without stopping */
	int marker_seen;		/* the recording was seen in progress */
	pid_t pid;			/* ltt_pid, 0: not checked (another host) */
	unsigned long long pid_start;	/* its start time in /proc/PID/stat (0: not read yet) */
	uint64_t start_ns;		/* ltt_start_time */
	uint64_t last_look, next_tick;
};

/* Waits for the trace at path (a message after a second), opens it. 0, or 1 on an error (reported),
 * 130 when interrupted. */
int follow_open(struct follow *f, const char *path);
/* The next event in time order, waiting for it: 1, 0 at the end of the recording, FOLLOW_TICK, or
 * a negative errno (-EINTR: SIGINT or SIGTERM). */
int follow_next(struct follow *f, struct ltt_event *ev);
void follow_close(struct follow *f);

/* 1 once SIGINT or SIGTERM came (follow_open installs the handlers). */
int follow_interrupted(void);

/* toolkit/recording.c: is the recording still going on? */
enum follow_state { FOLLOW_RUNNING, FOLLOW_STOPPED, FOLLOW_DIED };
/* Reads ltt_pid, node_name and ltt_start_time of trace info into f (the process is checked only on
 * the host that recorded it). */
void follow_recording_init(struct follow *f, const struct ltt_trace_info *t);
enum follow_state follow_recording_state(struct follow *f);

#endif
