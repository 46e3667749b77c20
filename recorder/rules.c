/* SPDX-License-Identifier: MIT */
/* recorder/rules.c: event rules and the per-event enabled flags of generated code (contract in
 * recorder/rules.h, syntax in eventdefs/rules_match.h, doc/recorder.md "Choosing events"). */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "eventdefs/rules_match.h"
#include "clock.h"
#include "flight.h"
#include "recorder.h"
#include "rules.h"

/* Guarded by the registry lock (ltt_registry_lock()), read by every refresh. */
static char *rules;		/* the event rules in effect ("" or NULL: everything) */
static char *trigger;		/* LTT_SNAPSHOT_ON of the flight trace recording; NULL: none */
static int armed;		/* triggers apply (a flight trace records with LTT_SNAPSHOT_ON) */
static int check_at_stop;	/* the start's rules are checked against the facilities at stop */

/* Serialises rule changes with their core.event_rules records (lock order: ltt_start's control
 * lock, then this, then the registry lock). */
static pthread_mutex_t set_lock = PTHREAD_MUTEX_INITIALIZER;

/* The rule bits of event i of f: LTT_EVENT_SELECTED, LTT_EVENT_TRIGGER_SEL. */
static uint8_t rule_bits(const struct ltt_facility *f, unsigned i)
{
	const char *name;
	uint8_t v = LTT_EVENT_SELECTED;

	if (!f->event_names)
		return v;
	name = f->event_names[i] ? f->event_names[i] : "";
	if (rules && !ltt_rules_select(rules, f->name, name))
		return 0;
	if (armed && trigger && ltt_rules_select(trigger, f->name, name))
		v |= LTT_EVENT_TRIGGER_SEL;
	return v;
}

/* v with its live bits (ON, TRIGGER) recomputed from its rule bits for `live`. */
static uint8_t with_live(uint8_t v, int live)
{
	v &= LTT_EVENT_SELECTED | LTT_EVENT_TRIGGER_SEL;
	if (live && (v & LTT_EVENT_SELECTED))
		v |= LTT_EVENT_ON;
	if (live && (v & LTT_EVENT_TRIGGER_SEL))
		v |= LTT_EVENT_TRIGGER;
	return v;
}

/* Whether events of f may record now: a trace records, not paused (recorder/pause.c closes the
 * same gate), f registered. Acquire: pairs with the release stores of ltt_start() (B8) and of the
 * base code (B9). */
static int live_for(const struct ltt_facility *f, int recording)
{
	return recording && ltt_read(&f->base_code);
}

static void refresh_one(struct ltt_facility *f, int recording)
{
	int live = live_for(f, recording);

	for (unsigned i = 0; i < f->n_events; i++) {
		uint8_t v = with_live(rule_bits(f, i), live);

		/* Release: whatever the flag stands for is published before it; the event path's
		 * ltt_event_enabled() loads it (rules.h, "Memory ordering"). */
		if (ltt_read(&f->enabled[i]) != v)
			ltt_set(&f->enabled[i], v);
	}
}

/* Every registered facility (the caller holds the registry lock), until the recording flag read
 * before the pass is still the one after it: a concurrent ltt_events_gate() (pause, resume) may
 * have written live bits of the other value in between. */
static void refresh_all_locked(void)
{
	int rec;

	do {
		rec = ltt_read(&ltt_rt.recording);
		for (struct ltt_facility *f = ltt_registry_first(); f; f = f->next)
			if (f->enabled)
				refresh_one(f, rec);
		/* Full barrier: our flag stores before the re-read; pairs with the one in
		 * ltt_events_gate() (each sees the other's recording value or redoes its pass). */
		ltt_smp_mb();
	} while (ltt_read(&ltt_rt.recording) != rec);
}

void ltt_events_refresh_locked(struct ltt_facility *f)
{
	int rec;

	if (!f->enabled)
		return;
	do {
		rec = ltt_read(&ltt_rt.recording);
		refresh_one(f, rec);
		ltt_smp_mb();	/* as in refresh_all_locked() */
	} while (ltt_read(&ltt_rt.recording) != rec);
}

void ltt_events_refresh(void)
{
	ltt_registry_lock();
	refresh_all_locked();
	ltt_registry_unlock();
}

void ltt_events_gate(void)
{
	int rec;

	do {
		rec = ltt_read(&ltt_rt.recording);
		/* Lock-free walk: the registry only grows, each facility published with release
		 * (recorder/facility.c) */
		for (struct ltt_facility *f = ltt_registry_first(); f; f = ltt_read(&f->next)) {
			int live;

			if (!f->enabled)
				continue;
			live = live_for(f, rec);
			for (unsigned i = 0; i < f->n_events; i++) {
				uint8_t old, v;

				/* Full barrier (CAS): a refresh rewriting the rule bits makes it retry */
				do {
					old = ltt_read(&f->enabled[i]);
					v = with_live(old, live);
				} while (old != v && ltt_cmpxchg(&f->enabled[i], old, v) != old);
			}
		}
		ltt_smp_mb();	/* pairs with the one in refresh_all_locked() */
	} while (ltt_read(&ltt_rt.recording) != rec);
}

/* One warning per rule of text that matches no event of the registered facilities. */
static void warn_unmatched(const char *what, const char *text)
{
	const char *p = text, *b, *e;

	ltt_registry_lock();
	while (ltt_rules_item(&p, &b, &e)) {
		int hit = 0;

		for (struct ltt_facility *f = ltt_registry_first(); f && !hit; f = f->next)
			for (unsigned i = 0; f->event_names && i < f->n_events && !hit; i++)
				hit = f->event_names[i] && ltt_rule_matches(b, e, f->name, f->event_names[i]);
		if (!hit)
			ltt_warn("%s: rule '%.*s' matches no event of the registered facilities", what,
				 (int)(e - b), b);
	}
	ltt_registry_unlock();
}

static uint32_t cycles_ns(uint64_t c)
{
	uint64_t cps = ltt_timemap.cycles_per_second;
	unsigned __int128 ns;

	if (!cps)
		return 0;
	ns = (unsigned __int128)c * 1000000000u / cps + 1;	/* rounded up: the window covers it */
	return ns > UINT32_MAX ? UINT32_MAX : (uint32_t)ns;
}

/* core.event_rules: the rules in effect. t0: the cycle count before the flags began to change (0 at
 * start): settle_ns reaches from the event's own time back to it. */
static void record(const char *text, uint64_t t0)
{
	size_t n = text ? strlen(text) : 0;
	struct ltt_slot s;

	if (!ltt_is_recording())
		return;
	if (ltt_event_reserve(&s, &ltt_core_facility, LTT_CORE_EVENT_RULES, n + 1 + 4, LTT_EVENT_PERSISTENT)) {
		uint64_t now = ltt_clock_now(), c;
		uint32_t t32, settle_ns;

		/* the event's full cycle count, from the low 32 bits its header holds (doc/format.md s. 5) */
		memcpy(&t32, s.payload - LTT_EVENT_HEADER + 2, 4);
		c = now - (uint32_t)((uint32_t)now - t32);
		settle_ns = t0 ? cycles_ns(c - t0) : 0;
		if (n)
			memcpy(s.payload, text, n);
		s.payload[n] = 0;
		memcpy(s.payload + n + 1, &settle_ns, 4);
		ltt_event_commit(&s);
	}
}

int ltt_events_set(const char *text)
{
	char why[256];
	char *copy, *old;
	uint64_t t0;

	if (ltt_rules_check(text, why, sizeof(why)))
		return -EINVAL;
	copy = strdup(text ? text : "");
	if (!copy)
		return -ENOMEM;
	pthread_mutex_lock(&set_lock);
	t0 = ltt_clock_now();
	ltt_registry_lock();
	old = rules;
	rules = copy;
	refresh_all_locked();
	ltt_registry_unlock();
	record(copy, t0);
	pthread_mutex_unlock(&set_lock);
	free(old);
	warn_unmatched("ltt_events_set", copy);
	return 0;
}

int ltt_events_start(const char *text, int flight, char *why, size_t whylen)
{
	const char *on = secure_getenv("LTT_SNAPSHOT_ON");
	static char onrules[LTT_RULES_MAX + 1];
	char w[256];
	char *copy = NULL, *tcopy = NULL;

	char shown[72];

	if (ltt_rules_check(text, w, sizeof(w))) {
		ltt_rules_shown(shown, sizeof(shown), text, text + strlen(text));
		snprintf(why, whylen, "event rules '%s': %s", shown, w);
		return -EINVAL;
	}
	/* duration rules (syscall:NAME>DURATION) are recorder/flight_duration.c's; the rest are event
	 * rules */
	if (ltt_trigger_durations_parse(on && flight ? on : "", onrules, sizeof(onrules), why, whylen))
		return -EINVAL;
	if (on && *on && flight)
		on = onrules;
	if (on && *on && ltt_rules_check(on, w, sizeof(w))) {
		ltt_rules_shown(shown, sizeof(shown), on, on + strlen(on));
		snprintf(why, whylen, "LTT_SNAPSHOT_ON='%s': %s", shown, w);
		return -EINVAL;
	}
	if (on && *on && !flight)
		ltt_warn("LTT_SNAPSHOT_ON=%s: snapshots are taken in flight mode only (LTT_MODE=flight); ignored",
			 on);
	if ((text && !(copy = strdup(text))) || (flight && on && *on && !(tcopy = strdup(on)))) {
		free(copy);
		snprintf(why, whylen, "out of memory");
		return -ENOMEM;
	}
	pthread_mutex_lock(&set_lock);
	ltt_registry_lock();
	if (text) {
		free(rules);
		rules = copy;
	}
	free(trigger);
	trigger = tcopy;
	armed = 0;
	ltt_registry_unlock();
	pthread_mutex_unlock(&set_lock);
	return 0;
}

void ltt_events_started(int check_now)
{
	char *now = NULL;

	pthread_mutex_lock(&set_lock);
	ltt_registry_lock();
	armed = trigger != NULL;
	refresh_all_locked();
	if (rules && *rules)
		now = strdup(rules);
	ltt_registry_unlock();
	record(now ? now : "", 0);
	pthread_mutex_unlock(&set_lock);
	if (armed || ltt_trigger_durations())
		ltt_flight_trigger_start();	/* the thread that serves LTT_SNAPSHOT_ON */
	check_at_stop = !check_now;
	if (check_now && now)
		warn_unmatched("event rules", now);
	free(now);
}

void ltt_events_check_triggers(void)
{
	char *now = NULL;

	ltt_registry_lock();
	if (armed && trigger && *trigger)
		now = strdup(trigger);
	ltt_registry_unlock();
	if (now)
		warn_unmatched("LTT_SNAPSHOT_ON", now);
	free(now);
}

void ltt_events_stopped(void)
{
	char *now = NULL;

	ltt_registry_lock();
	armed = 0;
	refresh_all_locked();
	if (check_at_stop && rules && *rules)
		now = strdup(rules);
	check_at_stop = 0;
	ltt_registry_unlock();
	if (now)
		warn_unmatched("LTT_EVENTS", now);
	free(now);
}


void ltt_events_name(uint16_t id, char *buf, size_t len)
{
	snprintf(buf, len, "?");
	ltt_registry_lock();
	for (struct ltt_facility *f = ltt_registry_first(); f; f = f->next)
		if (f->base_code && id >= f->base_code && id - f->base_code < f->n_events && f->event_names) {
			snprintf(buf, len, "%s.%s", f->name, f->event_names[id - f->base_code]);
			break;
		}
	ltt_registry_unlock();
}
