/* SPDX-License-Identifier: MIT */
/* recorder/facility.c: the facility registry: base codes from 20 up in registration order
 * (doc/format.md section 6), facility_load events and eventdefs/ files. */
#include <errno.h>
#include <pthread.h>
#include <string.h>

#include "flight.h"
#include "recorder.h"
#include "rules.h"

#define FIRST_BASE 20u
#define LAST_ID 65535u

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static struct ltt_facility *reg_head, **reg_tail = &reg_head;
static unsigned next_base = FIRST_BASE;
static int refused_warned;

void ltt_registry_lock(void)
{
	pthread_mutex_lock(&reg_lock);
}

void ltt_registry_unlock(void)
{
	pthread_mutex_unlock(&reg_lock);
}

struct ltt_facility *ltt_registry_first(void)
{
	return ltt_read(&reg_head);	/* acquire: pairs with the release in ltt_facility_register() */
}

/* The first registered facility with fac's name and checksum, if any. */
static struct ltt_facility *same(const struct ltt_facility *fac)
{
	for (struct ltt_facility *f = reg_head; f; f = f->next)
		if (f != fac && f->checksum == fac->checksum && !strcmp(f->name, fac->name))
			return f;
	return NULL;
}

/* Is a before b on the list? */
static int twin_before(const struct ltt_facility *a, const struct ltt_facility *b)
{
	for (const struct ltt_facility *f = reg_head; f && f != b; f = f->next)
		if (f == a)
			return 1;
	return 0;
}

static unsigned eventdefs_warned;	/* guarded by reg_lock */

/* facility_load into control/facilities; the caller holds reg_lock. */
static void emit_load(const struct ltt_facility *fac, uint16_t base)
{
	struct ltt_region *rg = ltt_read(&ltt_rt.region);
	size_t n = strlen(fac->name);
	struct ltt_slot s;
	uint32_t v[2] = { fac->checksum, base };

	if (!rg)
		return;
	if (ltt_ring_reserve(&s, &rg->rings[rg->ncpu + LTT_RING_FACILITIES], LTT_B_FACILITY_LOAD,
			     n + 1 + sizeof(v), 0)) {
		memcpy(s.payload, fac->name, n + 1);
		memcpy(s.payload + n + 1, v, sizeof(v));
		ltt_event_commit(&s);
	}
	/* the chunk being written, with rotation; a facility whose file cannot be written (descriptors
	 * or space gone since the start) is said once: its events would not decode */
	if (ltt_tracedir_facility_xml(ltt_cur.dir, fac) < 0 && !eventdefs_warned++)
		ltt_warn("%s/eventdefs/%s.xml: cannot be written; its events will not decode", ltt_cur.dir,
			 fac->name);
	ltt_flight_facility(fac);	/* into the rings' file for `ltt recover` (recorder/shm.c) */
}

/* Discard mode: seals the open block of control ring `which` (LTT_RING_FACILITIES, ...) so that the
 * consumer writes it within its poll period: a trace cut short by SIGKILL, a crash or the OOM killer
 * then has its facility_loads and initial process state on disk (doc/recorder.md "Control
 * tracefiles"). One block per call: skipped when the ring holds fewer than two free slots (the
 * consumer is behind), so that a burst of registrations never drops a facility_load; the events then
 * go out with the next sealed block. Flight mode: nothing (control rings never wrap there, and
 * snapshots copy the open block). */
void ltt_control_seal(unsigned which)
{
	struct ltt_region *rg = ltt_read(&ltt_rt.region);
	struct ltt_ring *r;

	if (!rg || (rg->flags & LTT_REGION_OVERWRITE))
		return;
	r = &rg->rings[rg->ncpu + which];
	if (ltt_ring_head_seq(r) - ltt_read(&r->consumed) + 2 > (uint64_t)r->slot_mask + 1)
		return;
	/* Full barrier (B6): the CAS of the flush pairs with the writers' CAS on write_off; its commit
	 * (B4) pairs with the consumer's B2, which then writes the block. */
	ltt_ring_flush(r, 0);
}

int ltt_facility_register(struct ltt_facility *fac)
{
	struct ltt_facility *twin;
	unsigned base;

	if (!fac || !fac->name)
		return -EINVAL;
	/* Acquire: pairs with the release store below (another thread registered it). */
	if (ltt_read(&fac->base_code))
		return 0;
	pthread_mutex_lock(&reg_lock);
	if (fac->base_code) {
		pthread_mutex_unlock(&reg_lock);
		return 0;
	}
	for (struct ltt_facility *f = reg_head; f; f = f->next)
		if (f == fac) {		/* on the list but refused earlier */
			pthread_mutex_unlock(&reg_lock);
			return -ENOSPC;
		}
	twin = same(fac);
	if (twin) {
		base = twin->base_code;
	} else if (next_base + fac->n_events > LAST_ID + 1u) {
		if (!refused_warned++)
			ltt_warn("facility %s: event ids would pass %u; its events are not recorded",
				 fac->name, LAST_ID);
		base = 0;
	} else {
		base = next_base;
		next_base += fac->n_events;
	}
	fac->next = NULL;
	/* Release: the entry is complete before the lock-free walk of ltt_events_gate() (rules.c)
	 * can reach it through *reg_tail; pairs with its ltt_read() of the link. */
	ltt_smp_wmb();
	ltt_set(reg_tail, fac);
	reg_tail = &fac->next;
	if (base && !twin && ltt_read(&ltt_rt.region)) {
		emit_load(fac, (uint16_t)base);
		ltt_control_seal(LTT_RING_FACILITIES);	/* on disk before the facility's events */
	}
	/* Release: the facility is listed (and loaded in the trace) before its events are recorded;
	 * pairs with the acquire load of base_code in ltt_event_reserve(). */
	ltt_smp_wmb();	/* B9: the list and the facility_load before the base code */
	ltt_set(&fac->base_code, (uint16_t)base);
	ltt_events_refresh_locked(fac);	/* its flags: after the base code (recorder/rules.h) */
	pthread_mutex_unlock(&reg_lock);
	return base ? 0 : -ENOSPC;
}

void ltt_facilities_emit_all(void)
{
	pthread_mutex_lock(&reg_lock);
	ltt_facilities_emit_locked();
	pthread_mutex_unlock(&reg_lock);
}

void ltt_facilities_emit_locked(void)
{
	for (struct ltt_facility *f = reg_head; f; f = f->next) {
		struct ltt_facility *twin = same(f);

		/* one facility_load per (name, checksum): by the first registered */
		if (f->base_code && (!twin || !twin_before(twin, f)))
			emit_load(f, f->base_code);
	}
}
