/* SPDX-License-Identifier: MIT */
/* Kernel events into the scheduling model's terms (toolkit/sched_model.h): the `kernel` facility
 * (eventdefs/kernel.xml, recorded by libltt from perf events) and the 2004 traces' `core` kernel
 * events (syscall_entry/exit, trap_entry/exit, irq_entry/exit, schedchange, soft_irq, process), whose
 * names and fields the kernel facility took. The thread names and pids of ltt's own `core` facility
 * (thread_start, thread_name, process) are passed on too. Each event type is classified once. */
#ifndef LTT_TOOLKIT_SCHED_DECODE_H
#define LTT_TOOLKIT_SCHED_DECODE_H

#include <ltt/reader.h>

#include "toolkit/sched_model.h"

struct sched_decoder;

int sched_decoder_new(struct sched_decoder **out);
void sched_decoder_free(struct sched_decoder *d);

/* Fills *out from ev: 1 when ev is an event the model takes, 0 when not (out->kind SCHED_EV_NONE),
 * -ENOMEM. out's strings point into ev's payload (valid until the next event). */
int sched_decode(struct sched_decoder *d, const struct ltt_event *ev, struct sched_ev *out);

/* 1 when the event type is one sched_decode takes (before any event is read: to hide the others). */
int sched_decode_wants(const struct ltt_event_type *type);

/* Reads the remaining events of r (opened in merge order) into m: each event sched_decode takes is
 * fed to the model; other is called for every event (after the model took it) when not NULL, and
 * its nonzero return stops the scan. Ends with sched_model_finish at the last event's time. Returns
 * 0, -ENOMEM, the reader's negative errno, or other's or a hook's return. */
int sched_scan(struct ltt_reader *r, struct sched_model *m,
	       int (*other)(void *arg, const struct ltt_event *ev, const struct sched_ev *kev), void *arg);

/* Tells m where each kernel stream's kept history starts (sched_model_history): a stream whose first
 * block is the summary of overwritten ones (a flight snapshot) starts at its first kept block. Before
 * the first event is read (sched_scan does it). */
int sched_read_history(struct ltt_reader *r, struct sched_model *m);

/* The name of system call nr for the trace's machine ("read"), or NULL when not known. */
const char *sched_syscall_name(const struct ltt_trace_info *t, uint32_t nr);

#endif
