/* recorder/rules.c: event rules and the per-event enabled flags of generated code (contract in
 * recorder/rules.h, syntax in eventdefs/rules_match.h, doc/recorder.md "Choosing events"). */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../eventdefs/rules_match.h"
#include "clock.h"
#include "flight.h"
#include "recorder.h"
#include "rules.h"

/* Guarded by the registry lock (ltt_registry_lock()), read by every refresh. */
static char *rules;		/* the event rules in effect ("" or NULL: everything) */
static char *trigger;		/* LTT_SNAPSHOT_ON of the flight trace recording; NULL: none */
static int paused;
static int armed;		/* triggers apply (a flight trace records with LTT_SNAPSHOT_ON) */
static int check_at_stop;	/* the start's rules are checked against the facilities at stop */

/* Serialises rule changes with their core.event_rules records (lock order: ltt_start's control
 * lock, then this, then the registry lock). */
static pthread_mutex_t set_lock = PTHREAD_MUTEX_INITIALIZER;

static uint8_t flags_of(const struct ltt_facility *f, unsigned i, int on)
{
	const char *name;

	if (!on || !f->event_names)
		return on ? LTT_EVENT_ON : 0;
	name = f->event_names[i] ? f->event_names[i] : "";
	if (rules && !ltt_rules_select(rules, f->name, name))
		return 0;
	if (armed && trigger && ltt_rules_select(trigger, f->name, name))
		return LTT_EVENT_ON | LTT_EVENT_TRIGGER;
	return LTT_EVENT_ON;
}

void ltt_events_refresh_locked(struct ltt_facility *f)
{
	/* Acquire: pairs with the release store of ltt_start() (B8) that publishes the region. */
	int on = ltt_read(&ltt_rt.recording) && !paused && ltt_read(&f->base_code);

	if (!f->enabled)
		return;
	for (unsigned i = 0; i < f->n_events; i++) {
		uint8_t v = flags_of(f, i, on);

		/* Release: whatever the flag stands for (region, base code) is published before it;
		 * the event path's ltt_event_enabled() loads it (rules.h, "Memory ordering"). */
		if (ltt_read(&f->enabled[i]) != v)
			ltt_set(&f->enabled[i], v);
	}
}

void ltt_events_refresh(void)
{
	ltt_registry_lock();
	for (struct ltt_facility *f = ltt_registry_first(); f; f = f->next)
		ltt_events_refresh_locked(f);
	ltt_registry_unlock();
}

void ltt_events_pause(int on)
{
	ltt_registry_lock();
	paused = !!on;
	for (struct ltt_facility *f = ltt_registry_first(); f; f = f->next)
		ltt_events_refresh_locked(f);
	ltt_registry_unlock();
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
	for (struct ltt_facility *f = ltt_registry_first(); f; f = f->next)
		ltt_events_refresh_locked(f);
	ltt_registry_unlock();
	record(copy, t0);
	pthread_mutex_unlock(&set_lock);
	free(old);
	warn_unmatched("ltt_events_set", copy);
	return 0;
}

int ltt_events_start(const char *text, int flight, char *why, size_t whylen)
{
	const char *on = getenv("LTT_SNAPSHOT_ON");
	char w[256];
	char *copy = NULL, *tcopy = NULL;

	if (ltt_rules_check(text, w, sizeof(w))) {
		snprintf(why, whylen, "event rules '%.200s': %s", text, w);
		return -EINVAL;
	}
	if (on && *on && ltt_rules_check(on, w, sizeof(w))) {
		snprintf(why, whylen, "LTT_SNAPSHOT_ON='%.200s': %s", on, w);
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
	for (struct ltt_facility *f = ltt_registry_first(); f; f = f->next)
		ltt_events_refresh_locked(f);
	if (rules && *rules)
		now = strdup(rules);
	ltt_registry_unlock();
	record(now ? now : "", 0);
	pthread_mutex_unlock(&set_lock);
	if (armed)
		ltt_flight_trigger_start();	/* the thread that serves LTT_SNAPSHOT_ON */
	check_at_stop = !check_now;
	if (check_now && now)
		warn_unmatched("event rules", now);
	free(now);
}

void ltt_events_stopped(void)
{
	char *now = NULL;

	ltt_registry_lock();
	armed = 0;
	for (struct ltt_facility *f = ltt_registry_first(); f; f = f->next)
		ltt_events_refresh_locked(f);
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
