/* SPDX-License-Identifier: MIT */
/* ltt dump: the names of the traced program's threads, from the core facility's state events
 * (core.process, core.thread_start, core.thread_name in the control tracefiles), to show beside the
 * `tid` field of context="tid" events (doc/eventdefs.md "Context"); and the memory map
 * (core.mapping), to name the functions of func events beside their `addr`. */
#ifndef LTT_TOOLKIT_THREAD_NAMES_H
#define LTT_TOOLKIT_THREAD_NAMES_H

#include <stdint.h>

#include <ltt/reader.h>

struct thread_names;

/* Reads the control tracefiles of every trace of r again (a second reader on the same paths).
 * NULL when out of memory or when the traces cannot be reopened (then no names are shown). */
struct thread_names *thread_names_load(struct ltt_reader *r);
/* The name thread tid of trace had at time_ns (its first name if it got one only later), or NULL. */
const char *thread_names_find(const struct thread_names *tn, unsigned trace, uint32_t tid, uint64_t time_ns);
/* The function holding addr in trace (through its core.mapping events, read with the names):
 * "name+0xOFF" in buf, the symbolizer's "module+0xOFFSET" when the binary is missing, or NULL. */
const char *thread_names_func(const struct thread_names *tn, unsigned trace, uint64_t addr, char *buf, size_t n);
void thread_names_free(struct thread_names *tn);

#endif
