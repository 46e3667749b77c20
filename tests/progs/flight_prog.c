/* SPDX-License-Identifier: MIT */
/* flight_prog: helper of the flight recorder's end-to-end tests (tests/e2e/flight_*.sh). Recording is
 * started by LTT_TRACE / LTT_MODE=flight (and LTT_SHM_DIR) in the environment.
 *   flight_prog segv N         N ticks on thread 0, then a NULL write: dies by SIGSEGV
 *   flight_prog abort N        N ticks, then abort(): dies by SIGABRT
 *   flight_prog exit N         N ticks, then a return from main
 *   flight_prog torn N tick|note   N ticks, then an event reserved but never committed (a tick with
 *                              half its payload, or a note with none), then SIGKILL
 *   flight_prog spin PROGRESS  ticks (and a note every 64) until killed; after each commit the tick's
 *                              seq is stored in the file PROGRESS (mapped), so a killer knows the
 *                              last event committed
 *   flight_prog opening N cas|events|blocks   N ticks, then the opener of the next block killed (SIGKILL)
 *                              after its reservation, before its block_start: right after its CAS on
 *                              the write offset (cas), after counting the overwritten block's events
 *                              (events), or its events and the block (blocks): recorder/ring.c's order,
 *                              done here by hand on the ring (tests/e2e/flight_recover_opening.sh)
 *   flight_prog check TRACE    reads a trace and prints one line of what it holds (flight_check.h)
 */
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <ltt/ltt.h>

#include "flight_check.h"
#include "flighttest.h"

/* Pins the thread to the CPU it runs on, so that all its events go to one ring. */
static void pin_cpu(void)
{
	cpu_set_t set;
	int cpu = sched_getcpu();

	CPU_ZERO(&set);
	CPU_SET(cpu < 0 ? 0 : cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static int ticks_then(uint64_t n, const char *how)
{
	pin_cpu();
	for (uint64_t i = 0; i < n; i++)
		trace_flighttest_tick(0, i);
	if (!strcmp(how, "segv")) {
		/* a page with no access: a real fault (not a NULL store, which UBSan stops first) */
		volatile int *p = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		*p = 1;	/* SIGSEGV */
	}
	if (!strcmp(how, "abort"))
		abort();
	return 0;
}

static int torn(uint64_t n, const char *kind)
{
	struct ltt_slot s;
	uint32_t thread = 0;

	pin_cpu();
	for (uint64_t i = 0; i < n; i++)
		trace_flighttest_tick(0, i);
	if (!strcmp(kind, "tick")) {
		if (ltt_event_reserve(&s, &ltt_facility_flighttest, 0, 12, 0))
			memcpy(s.payload, &thread, 4);	/* seq never written, never committed */
	} else {
		ltt_event_reserve(&s, &ltt_facility_flighttest, 1, 8 + 20, 0);	/* nothing written */
	}
	kill(getpid(), SIGKILL);
	return 1;
}

static int spin(const char *progress)
{
	int fd = open(progress, O_RDWR | O_CREAT | O_TRUNC, 0644);
	volatile uint64_t *last;
	char text[32];

	if (fd < 0 || ftruncate(fd, 4096)) {
		perror(progress);
		return 1;
	}
	last = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (last == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	pin_cpu();
	last[1] = 1;	/* started */
	for (uint64_t i = 0;; i++) {
		trace_flighttest_tick(0, i);
		if (i % 64 == 63) {
			snprintf(text, sizeof(text), "note %llu", (unsigned long long)i);
			trace_flighttest_note(i, text);
		}
		last[0] = i + 1;	/* ticks committed: 0 .. i */
	}
}

static int opening(uint64_t n, const char *state)
{
	struct ltt_region *rg;
	struct ltt_ring *r;
	uint64_t old, nseq, slot, w;
	uint32_t carry;

	pin_cpu();
	for (uint64_t i = 0; i < n; i++)
		trace_flighttest_tick(0, i);
	rg = __atomic_load_n(&ltt_rt.region, __ATOMIC_ACQUIRE);
	r = &rg->rings[sched_getcpu() % (int)rg->ncpu];	/* the ring the ticks went to (pinned) */
	old = __atomic_load_n(&r->write_off, __ATOMIC_ACQUIRE);
	nseq = (old >> r->shift) + ((old & (r->block_size - 1)) != 0);
	slot = nseq & r->slot_mask;
	w = __atomic_load_n(&r->commit[slot], __ATOMIC_ACQUIRE);
	if (nseq <= r->slot_mask) {
		fprintf(stderr, "flight_prog: the ring has not wrapped after %llu ticks\n", (unsigned long long)n);
		return 1;
	}
	/* the opener's reservation: block_start and one tick (6 + 12 bytes) */
	if (!__atomic_compare_exchange_n(&r->write_off, &old, (nseq << r->shift) + 26 + 18, 0, __ATOMIC_SEQ_CST,
					 __ATOMIC_SEQ_CST))
		return 1;
	carry = (uint32_t)(((nseq >> r->blocks_log2)) << r->shift) == 0;
	if (strcmp(state, "cas"))
		__atomic_add_fetch(&r->overwritten_events, (uint32_t)(w >> 32) - r->base[slot] - carry, __ATOMIC_SEQ_CST);
	if (!strcmp(state, "blocks"))
		__atomic_add_fetch(&r->overwritten_blocks, 1, __ATOMIC_SEQ_CST);
	kill(getpid(), SIGKILL);
	return 1;
}

static int check(const char *trace)
{
	struct fc_result r;

	if (fc_scan(trace, &r)) {
		fprintf(stderr, "flight_prog: %s\n", r.err);
		return 1;
	}
	fc_print(stdout, &r);
	if (r.problems)
		fprintf(stdout, "first problem: %s\n", r.first_problem);
	fc_free(&r);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && (!strcmp(argv[1], "segv") || !strcmp(argv[1], "abort") || !strcmp(argv[1], "exit")))
		return ticks_then(strtoull(argv[2], NULL, 10), argv[1]);
	if (argc == 4 && !strcmp(argv[1], "torn"))
		return torn(strtoull(argv[2], NULL, 10), argv[3]);
	if (argc == 4 && !strcmp(argv[1], "opening"))
		return opening(strtoull(argv[2], NULL, 10), argv[3]);
	if (argc == 3 && !strcmp(argv[1], "spin"))
		return spin(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "check"))
		return check(argv[2]);
	fprintf(stderr, "usage: flight_prog segv|abort|exit N | torn N tick|note | opening N cas|events|blocks | "
		"spin PROGRESS | check TRACE\n");
	return 2;
}
