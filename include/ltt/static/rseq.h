/* SPDX-License-Identifier: MIT */
/* ltt/static/rseq.h: the per-CPU operations of the event path, without lock prefix, as restartable
 * sequences (rseq: the kernel restarts a sequence its thread was preempted, signalled or migrated in;
 * glibc 2.35+ registers the thread's struct rseq). The algorithm and its ordering argument are in
 * doc/recorder.md, "Per-CPU rings without locked instructions".
 *
 * A ring whose cpu_owned is set (a CPU ring while ltt_rt.rseq) has its write_off and commit[] written
 * only by
 *   - sequences running on CPU r->index: ltt_cs_cas() (plain compare then store) and ltt_cs_add()
 *     (plain add) while r->remote == 0, their locked forms ltt_cs_cas_locked()/ltt_cs_add_locked()
 *     while it is not; each sequence checks rseq's cpu_id first, so it runs on that CPU or not at all;
 *   - remote operations (recorder/rseq.c: flushes, a writer that migrated): r->remote++, then
 *     membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ) on that CPU, then locked instructions, then
 *     r->remote--.
 * Two sequences on one CPU never interleave (one is restarted), so a plain read-modify-write is
 * atomic against everything on its CPU; a remote operation starts its locked instructions only after
 * the membarrier restarted or saw finished every sequence that read remote == 0, and every later
 * sequence reads remote != 0 and uses a locked instruction itself.
 *
 * Each function returns LTT_CS_DONE, LTT_CS_CHANGED (the compared word differs: nothing written),
 * LTT_CS_REMOTE (a remote operation is in progress: nothing written, use the locked form) or
 * LTT_CS_ABORT (restarted, or not on CPU cpu: nothing written). x86-64 only; elsewhere, under
 * ThreadSanitizer (it does not see inline assembly) and with LTT_NO_RSEQ every ring uses the locked
 * path of ltt/static/event.h.
 *
 * Test builds (tests/e2e/perf_rseq_migrate.sh): compiling the traced program with
 * -DLTT_RSEQ_TEST_SPIN=N puts a loop of N iterations inside each sequence of its inline event path,
 * so that preemption and migration land inside them; the program then defines the thread-local
 * counters declared below. Normal builds have neither. */
#ifndef LTT_STATIC_RSEQ_H
#define LTT_STATIC_RSEQ_H

#include <stddef.h>
#include <stdint.h>

#include <ltt/static/ring.h>

#if defined(LTT_HAVE_RSEQ) && defined(__x86_64__) && !defined(LTT_TSAN) && !defined(LTT_NO_RSEQ)
#define LTT_RSEQ 1

enum { LTT_CS_DONE, LTT_CS_CHANGED, LTT_CS_REMOTE, LTT_CS_ABORT };

#define LTT_CS_STR_(x) #x
#define LTT_CS_STR(x) LTT_CS_STR_(x)

#ifdef LTT_RSEQ_TEST_SPIN
extern __thread unsigned long ltt_rseq_test_aborts, ltt_rseq_test_slow;
#define LTT_CS_SPIN "movl $" LTT_CS_STR(LTT_RSEQ_TEST_SPIN) ", %%ecx\n\t" "5:\n\t" "decl %%ecx\n\t" "jnz 5b\n\t"
#define LTT_CS_SPIN_CLOBBER , "rcx"
#define LTT_CS_TEST_ABORT() (ltt_rseq_test_aborts++)
#else
#define LTT_CS_SPIN ""
#define LTT_CS_SPIN_CLOBBER
#define LTT_CS_TEST_ABORT() ((void)0)
#endif

/* The sequence's descriptor (struct rseq_cs: version, flags, start_ip, post_commit_offset, abort_ip;
 * 32-byte aligned), then the store of its address in the thread's rseq_cs field: label 1 starts the
 * sequence, 2 follows its commit instruction, 4 is the abort handler. */
#define LTT_CS_BEGIN							\
	".pushsection __rseq_cs, \"aw\"\n\t"				\
	".balign 32\n\t"						\
	"3:\n\t"							\
	".long 0, 0\n\t"						\
	".quad 1f, (2f - 1f), 4f\n\t"					\
	".popsection\n\t"						\
	"leaq 3b(%%rip), %%rax\n\t"					\
	"movq %%rax, %c[cs_off](%[rs])\n\t"				\
	"1:\n\t"							\
	"cmpl %[cpu], %c[cpu_off](%[rs])\n\t"				\
	"jnz 4f\n\t"							\
	LTT_CS_SPIN
/* The abort handler: the signature the kernel checks in the 4 bytes before it (glibc registers
 * RSEQ_SIG; the 3 bytes before make the whole an ud1 instruction for disassemblers). */
#define LTT_CS_END(abort_label)						\
	".pushsection __rseq_failure, \"ax\"\n\t"			\
	".byte 0x0f, 0xb9, 0x3d\n\t"					\
	".long " LTT_CS_STR(RSEQ_SIG) "\n\t"				\
	"4:\n\t"							\
	"jmp %l[" abort_label "]\n\t"					\
	".popsection\n\t"
#define LTT_CS_INPUTS(rs, cpu)						\
	[rs] "r"(rs), [cpu] "r"(cpu),					\
	[cs_off] "i"(offsetof(struct rseq, rseq_cs)), [cpu_off] "i"(offsetof(struct rseq, cpu_id))

/* This thread's struct rseq (glibc's, at __rseq_offset from the thread pointer). */
static ltt_always_inline struct rseq *ltt_rseq_area(void)
{
	char *tp;

	__asm__ ("mov %%fs:0, %0" : "=r"(tp));
	return (struct rseq *)(void *)(tp + __rseq_offset);
}

/* The CPU rseq says this thread runs on (negative: rseq not registered for it). */
static ltt_always_inline int32_t ltt_rseq_cpu(struct rseq *rs)
{
	return *(const volatile int32_t *)&rs->cpu_id;
}

/* On CPU cpu, with *remote == 0: if *v == old, *v = nw (plain store; the commit instruction). */
static ltt_always_inline int ltt_cs_cas(struct rseq *rs, uint32_t cpu, const uint64_t *remote, uint64_t *v,
					uint64_t old, uint64_t nw)
{
	__asm__ goto (
		LTT_CS_BEGIN
		"cmpq $0, %[remote]\n\t"
		"jnz %l[is_remote]\n\t"
		"cmpq %[old], %[v]\n\t"
		"jnz %l[changed]\n\t"
		"movq %[nw], %[v]\n\t"
		"2:\n\t"
		LTT_CS_END("aborted")
		: : LTT_CS_INPUTS(rs, cpu), [remote] "m"(*remote), [v] "m"(*v), [old] "r"(old), [nw] "r"(nw)
		: "memory", "cc", "rax" LTT_CS_SPIN_CLOBBER
		: is_remote, changed, aborted);
	return LTT_CS_DONE;
is_remote:
	return LTT_CS_REMOTE;
changed:
	return LTT_CS_CHANGED;
aborted:
	LTT_CS_TEST_ABORT();
	return LTT_CS_ABORT;
}

/* On CPU cpu, with *remote == 0: *v += d (one plain add: the commit instruction). */
static ltt_always_inline int ltt_cs_add(struct rseq *rs, uint32_t cpu, const uint64_t *remote, uint64_t *v,
					uint64_t d)
{
	__asm__ goto (
		LTT_CS_BEGIN
		"cmpq $0, %[remote]\n\t"
		"jnz %l[is_remote]\n\t"
		"addq %[d], %[v]\n\t"
		"2:\n\t"
		LTT_CS_END("aborted")
		: : LTT_CS_INPUTS(rs, cpu), [remote] "m"(*remote), [v] "m"(*v), [d] "r"(d)
		: "memory", "cc", "rax" LTT_CS_SPIN_CLOBBER
		: is_remote, aborted);
	return LTT_CS_DONE;
is_remote:
	return LTT_CS_REMOTE;
aborted:
	LTT_CS_TEST_ABORT();
	return LTT_CS_ABORT;
}

/* On CPU cpu, whatever *remote: lock cmpxchg (atomic with the remote operation's locked
 * instructions; on this CPU, serialised with the plain sequences like them). */
static ltt_always_inline int ltt_cs_cas_locked(struct rseq *rs, uint32_t cpu, uint64_t *v, uint64_t old,
					       uint64_t nw)
{
	__asm__ goto (
		LTT_CS_BEGIN
		"movq %[old], %%rax\n\t"
		"lock cmpxchgq %[nw], %[v]\n\t"
		"2:\n\t"
		"jnz %l[changed]\n\t"
		LTT_CS_END("aborted")
		: : LTT_CS_INPUTS(rs, cpu), [v] "m"(*v), [old] "r"(old), [nw] "r"(nw)
		: "memory", "cc", "rax" LTT_CS_SPIN_CLOBBER
		: changed, aborted);
	return LTT_CS_DONE;
changed:
	return LTT_CS_CHANGED;
aborted:
	LTT_CS_TEST_ABORT();
	return LTT_CS_ABORT;
}

/* On CPU cpu, whatever *remote: lock add. */
static ltt_always_inline int ltt_cs_add_locked(struct rseq *rs, uint32_t cpu, uint64_t *v, uint64_t d)
{
	__asm__ goto (
		LTT_CS_BEGIN
		"lock addq %[d], %[v]\n\t"
		"2:\n\t"
		LTT_CS_END("aborted")
		: : LTT_CS_INPUTS(rs, cpu), [v] "m"(*v), [d] "r"(d)
		: "memory", "cc", "rax" LTT_CS_SPIN_CLOBBER
		: aborted);
	return LTT_CS_DONE;
aborted:
	LTT_CS_TEST_ABORT();
	return LTT_CS_ABORT;
}

#endif /* LTT_RSEQ */

#endif
