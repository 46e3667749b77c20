/* SPDX-License-Identifier: MIT */
/* The Trace2 view of a trace set, shared by the normal, perf and event dump formats and by
 * `ltt stats --regions`: each event of the `app` facility (eventdefs/app.xml) is turned into what a
 * Trace2 target would have been given when it happened: the process (session id, depth), the
 * thread's name, t_abs (since the process started) and t_rel (within the region, the thread or the
 * child), and the region nesting. Traces are processes; within one, threads are told apart by the
 * tid field every app event carries. Events of other facilities are not part of the view. */
#ifndef LTT_TOOLKIT_TRACE2_MODEL_H
#define LTT_TOOLKIT_TRACE2_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include <ltt/reader.h>

enum t2_kind {
	T2_NONE = 0,		/* not an app event */
	T2_VERSION,
	T2_START,
	T2_EXIT,
	T2_ATEXIT,
	T2_SIGNAL,
	T2_ERROR,
	T2_CMD_PATH,
	T2_CMD_NAME,
	T2_CMD_MODE,
	T2_ALIAS,
	T2_DEF_PARAM,
	T2_CHILD_START,
	T2_CHILD_EXIT,
	T2_EXEC,
	T2_EXEC_RESULT,
	T2_THREAD_START,
	T2_THREAD_EXIT,
	T2_REGION_ENTER,
	T2_REGION_LEAVE,
	T2_DATA_INT,
	T2_DATA_STRING,
	T2_DATA_JSON,
	T2_PRINTF,
	T2_TIMER,
	T2_COUNTER,
	T2_NKINDS
};

#define T2_THREAD_NAME_MAX 24	/* Trace2 cuts thread names ("th01:name") to this length */

struct t2_process {
	char sid[512];		/* the version event's, or made from system.xml */
	unsigned depth;		/* traced parent processes: the '/' in sid */
	uint32_t pid;
	uint64_t start_ns;	/* t_abs origin: ltt_start_time of system.xml, else the first event */
};

struct t2_event {
	enum t2_kind kind;
	const char *event;		/* Trace2's event name: "data" for data_int and data_string */
	const struct ltt_event *ev;
	struct ltt_value body;
	const struct t2_process *proc;
	const char *thread;		/* "main", "th01:name", or "tid:N" for a thread never named */
	uint32_t tid;
	const char *file;
	uint32_t line;
	uint64_t t_abs_ns;		/* since the process started */
	uint64_t t_rel_ns;		/* valid when has_rel */
	int has_rel;
	unsigned nesting;		/* Trace2's: 1 + the regions open on the thread (for region events,
					 * not counting the region entered or left) */
};

struct t2_model;

int t2_model_new(struct t2_model **out);
void t2_model_free(struct t2_model *m);

/* Takes the next event in merge order: returns 1 and fills *out for an app event, 0 for any other
 * event (nothing to show), -ENOMEM when the state could not grow (the event is skipped). */
int t2_model_event(struct t2_model *m, const struct ltt_event *ev, struct t2_event *out);

/* Fields of the event's body by name: a missing field, or one of an unexpected type (an app
 * facility of another shape), reads as "" or 0. */
const char *t2_str(const struct t2_event *e, const char *field);
int64_t t2_int(const struct t2_event *e, const char *field);
/* The number of elements of the sequence field `field` (0 when absent). */
uint64_t t2_argc(const struct t2_event *e, const char *field);
/* Calls fn for each string of the sequence-of-strings field `field` (argv), in order. */
void t2_argv_each(const struct t2_event *e, const char *field,
		  void (*fn)(void *arg, uint64_t i, const char *s, size_t len), void *arg);

#endif
