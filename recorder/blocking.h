/* SPDX-License-Identifier: MIT */
/* recorder/blocking.h: blocking mode (recorder/blocking.c, doc/recorder.md "Blocking"). Private. */
#ifndef LTT_RECORDER_BLOCKING_H
#define LTT_RECORDER_BLOCKING_H

#include <stddef.h>
#include <stdint.h>

#include <ltt/ltt.h>

#define LTT_BLOCKING_DEFAULT_MS 1000	/* function tracing's default, and `ltt record --blocking` */

#pragma GCC visibility push(hidden)
/* The timeout of a blocked writer, ns; 0: writers never block (read by the full-ring slow path only). */
extern uint64_t ltt_blocking_ns;
/* LTT_BLOCKING into o->blocking (0 -> -1: never): 0, or -EINVAL with why. */
int ltt_blocking_env(struct ltt_options *o, char *why, size_t n);
/* At start: the timeout in effect (the default by mode and function tracing), or -EINVAL with why
 * (blocking asked of a flight recorder). */
int ltt_blocking_start(const struct ltt_options *opt, char *why, size_t n);
/* At stop (after the consumer wrote everything): blocking off; verbose: one line of what it cost. */
void ltt_blocking_stop(int verbose);
/* A writer of ring r found block nseq's slot taken: waits for the consumer to release it. *deadline:
 * 0 at the first call for this event (set here). 1: look again; 0: drop the event. */
int ltt_ring_wait(struct ltt_ring *r, uint64_t nseq, uint64_t *deadline);
/* The consumer advanced r->consumed: wakes the writers waiting on r (nothing when none). */
void ltt_ring_wake(struct ltt_ring *r);
#pragma GCC visibility pop

#endif
