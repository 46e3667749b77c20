/* SPDX-License-Identifier: MIT */
/* The thread an event is about, as every command tells it (ltt dump --tid, ltt stats --per-thread and
 * --profile --tid, ltt sql's tid columns): the event body's top-level integer field named `tid` (the
 * field context="tid" adds, doc/eventdefs.md "Context"; the app, func, kernel and core events carry
 * one). An event without such a field is about no thread: the event header has none. */
#ifndef LTT_TOOLKIT_EVENT_TID_H
#define LTT_TOOLKIT_EVENT_TID_H

#include <stdint.h>

#include <ltt/reader.h>

/* 1 with *tid set when ev's body has a top-level integer field named tid, else 0. A tid first in
 * the body (context="tid" puts it there) is read straight from the payload; elsewhere, by name. */
int event_tid(const struct ltt_event *ev, int64_t *tid);

/* A list of thread ids, as --tid=LIST gives it. */
#define TID_LIST_MAX 64

struct tid_list {
	int64_t v[TID_LIST_MAX];
	unsigned n;
};

/* Adds the ids of arg ("101", "101,102", repeated options add up) to l. 0, or -EINVAL for a value
 * that is not a decimal thread id, -E2BIG past TID_LIST_MAX ids. */
int tid_list_parse(struct tid_list *l, const char *arg);
/* Whether tid is in l. */
int tid_list_has(const struct tid_list *l, int64_t tid);

#endif
