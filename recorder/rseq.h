/* SPDX-License-Identifier: MIT */
/* recorder/rseq.h: the out-of-line operations on per-CPU rings (recorder/rseq.c, ltt/static/rseq.h). */
#ifndef LTT_RECORDER_RSEQ_H
#define LTT_RECORDER_RSEQ_H

#include <stdint.h>

#include <ltt/ltt.h>

/* 1 when this process's CPU rings are cpu_owned (rseq registered, membarrier's rseq fence available,
 * LTT_RSEQ not 0); decided at the first call, the same afterwards. */
int ltt_rseq_mode(void);
/* Brackets a remote operation on r: anything that writes its write_off or commit[] from a thread that
 * may not be on CPU r->index (flushes, a writer that migrated). Nothing when r is not cpu_owned. */
void ltt_ring_remote_begin(struct ltt_ring *r);
void ltt_ring_remote_end(struct ltt_ring *r);
/* write_off: old -> nw; 1 if done, 0 if write_off was not old. A full barrier (B5, B6) either way. */
int ltt_ring_cas(struct ltt_ring *r, uint64_t old, uint64_t nw);
/* *w += d for w one of r's commit words (ltt_ring_add is declared in ltt/static/event.h). */

#endif
