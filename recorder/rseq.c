/* SPDX-License-Identifier: MIT */
/* recorder/rseq.c: the out-of-line half of the per-CPU rings without locked instructions
 * (ltt/static/rseq.h; doc/recorder.md "Per-CPU rings without locked instructions"): whether this
 * process uses them, remote operations (membarrier), and the compare-and-swap / add on a ring's words
 * that the slow path and a migrated commit use. */
#include <errno.h>
#include <linux/membarrier.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rseq.h"

static int membarrier(int cmd, unsigned flags, int cpu)
{
	return (int)syscall(__NR_membarrier, cmd, flags, cpu);
}

#ifdef LTT_RSEQ
static int mode = -1;	/* -1 not decided yet; set once, before the first region is created */

int ltt_rseq_mode(void)
{
	const char *e = secure_getenv("LTT_RSEQ");
	int q;

	if (mode >= 0)
		return mode;
	mode = 0;
	if (e && !strcmp(e, "0"))
		return mode;	/* the test switch: every ring on the locked path */
	/* glibc registered this thread's struct rseq (and will register every thread it creates) */
	if (__rseq_size < offsetof(struct rseq, cpu_id) + sizeof(uint32_t) || ltt_rseq_cpu(ltt_rseq_area()) < 0)
		return mode;
	q = membarrier(MEMBARRIER_CMD_QUERY, 0, 0);
	if (q < 0 || !(q & MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ))
		return mode;
	if (membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_RSEQ, 0, 0))
		return mode;
	mode = 1;
	return mode;
}

/* Every rseq sequence on CPU cpu that began before this call has been restarted or has finished, and
 * its stores are visible to us, when it returns (the kernel's membarrier: an IPI to that CPU). */
static void fence(uint32_t cpu)
{
	if (!membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ, MEMBARRIER_CMD_FLAG_CPU, (int)cpu))
		return;
	/* a child of fork() has a new mm whose registration may be gone: register again */
	if (errno == EPERM && !membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_RSEQ, 0, 0) &&
	    !membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ, MEMBARRIER_CMD_FLAG_CPU, (int)cpu))
		return;
	/* every CPU, not one (a kernel without MEMBARRIER_CMD_FLAG_CPU) */
	membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ, 0, 0);
}

void ltt_ring_remote_begin(struct ltt_ring *r)
{
	if (!r->cpu_owned)
		return;
	/* Full barrier (R3): remote != 0 is visible before the fence; pairs with the sequences' load
	 * of remote (R1), which the fence orders after it or restarts. */
	ltt_add(&r->remote, 1);
	fence(r->index);
}

void ltt_ring_remote_end(struct ltt_ring *r)
{
	if (!r->cpu_owned)
		return;
	/* Full barrier (R4): our locked writes come before remote may read 0; pairs with the load of
	 * remote in R1, after which a sequence loads the words we wrote (x86 keeps loads in order). */
	ltt_add(&r->remote, (uint64_t)-1);
}

int ltt_ring_cas(struct ltt_ring *r, uint64_t old, uint64_t nw)
{
	struct rseq *rs = ltt_rseq_area();
	int ok;

	if (!r->cpu_owned)
		return ltt_cmpxchg(&r->write_off, old, nw) == old;
	for (;;) {
		int rc = ltt_cs_cas(rs, r->index, &r->remote, &r->write_off, old, nw);

		if (rc == LTT_CS_REMOTE)
			rc = ltt_cs_cas_locked(rs, r->index, &r->write_off, old, nw);
		if (rc == LTT_CS_DONE)
			return 1;
		if (rc == LTT_CS_CHANGED)
			return 0;
		if (ltt_rseq_cpu(rs) != (int32_t)r->index)
			break;	/* on another CPU than the ring's: a remote operation */
	}
	ltt_ring_remote_begin(r);
	/* Full barrier (B5, B6) as on the locked path. */
	ok = ltt_cmpxchg(&r->write_off, old, nw) == old;
	ltt_ring_remote_end(r);
	return ok;
}

void ltt_ring_add(struct ltt_ring *r, uint64_t *w, uint64_t d)
{
	struct rseq *rs = ltt_rseq_area();

	if (!r->cpu_owned) {
		ltt_add(w, d);
		return;
	}
	for (;;) {
		int rc = ltt_cs_add(rs, r->index, &r->remote, w, d);

		if (rc == LTT_CS_REMOTE)
			rc = ltt_cs_add_locked(rs, r->index, w, d);
		if (rc == LTT_CS_DONE)
			return;
		if (ltt_rseq_cpu(rs) != (int32_t)r->index)
			break;
	}
	ltt_ring_remote_begin(r);
	ltt_add(w, d);	/* B1/B4 as on the locked path */
	ltt_ring_remote_end(r);
}

#else /* !LTT_RSEQ: every ring on the locked path */

int ltt_rseq_mode(void)
{
	(void)membarrier;
	return 0;
}

void ltt_ring_remote_begin(struct ltt_ring *r)
{
	(void)r;
}

void ltt_ring_remote_end(struct ltt_ring *r)
{
	(void)r;
}

int ltt_ring_cas(struct ltt_ring *r, uint64_t old, uint64_t nw)
{
	return ltt_cmpxchg(&r->write_off, old, nw) == old;
}

void ltt_ring_add(struct ltt_ring *r, uint64_t *w, uint64_t d)
{
	(void)r;
	ltt_add(w, d);
}
#endif
