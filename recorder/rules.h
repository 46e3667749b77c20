/* SPDX-License-Identifier: MIT */
/* recorder/rules.h: the per-event enabled flags that generated code tests (struct ltt_facility
 * .enabled), the event rules that choose them (LTT_EVENTS, ltt_events_set()) and the snapshot trigger
 * rules (LTT_SNAPSHOT_ON). Private to libltt.
 *
 * One flag byte per event. Rule bits, written under the registry lock: LTT_EVENT_SELECTED (the event
 * rules select the event), LTT_EVENT_TRIGGER_SEL (a flight trace records with LTT_SNAPSHOT_ON and it
 * matches). Live bits, what the event path tests: LTT_EVENT_ON = SELECTED && live, LTT_EVENT_TRIGGER
 * = TRIGGER_SEL && live, where live = ltt_rt.recording (cleared by ltt_stop() and while paused,
 * recorder/pause.c) && the facility is registered.
 *
 * Who writes them: ltt_events_refresh() (start, stop, rule change, registration, fork child) rewrites
 * whole bytes under the registry lock; ltt_events_gate() (pause, resume: async-signal-safe, no lock)
 * rewrites only the live bits with a compare-and-swap per byte, walking the registry lock-free (it
 * only grows; facility.c publishes each entry with release). Each of the two reads ltt_rt.recording
 * before its pass and again after a full barrier, and redoes the pass if it changed, so the last
 * writer always wrote the current value.
 *
 * Memory ordering: a flag is a hint. ON is stored (release) only after what makes recording
 * possible is published (ltt_start(): the region, B8, then recording=1; registration: the base code,
 * B9); the event path loads it with ltt_read() and ltt_event_reserve() reloads the region and base
 * code with acquire, so a stale ON after stop finds no region and records nothing. A stale OFF loses
 * the events of the instant of a change, which the trace covers: core.event_rules says the change
 * happened between time - settle_ns and time (doc/format.md section 8).
 */
#ifndef LTT_RECORDER_RULES_H
#define LTT_RECORDER_RULES_H

#include <stddef.h>
#include <stdint.h>

#include <ltt/ltt.h>

#define LTT_EVENT_SELECTED	4u	/* rule bits of a flag (the live bits are in ltt/static/event.h) */
#define LTT_EVENT_TRIGGER_SEL	8u

/* Recomputes the flags of every registered facility (takes the registry lock). */
void ltt_events_refresh(void);
/* The same for one facility; the caller holds the registry lock (registration, fork child). */
void ltt_events_refresh_locked(struct ltt_facility *fac);
/* After ltt_rt.recording changed for pause or resume (recorder/pause.c): recomputes the live bits of
 * every flag from their rule bits, lock-free and async-signal-safe. */
void ltt_events_gate(void);
/* ltt_start(), before publishing: takes rules (opt->events; NULL keeps the rules set last) and,
 * for flight mode, LTT_SNAPSHOT_ON. -EINVAL with why filled in for a bad list. */
int ltt_events_start(const char *rules, int flight, char *why, size_t whylen);
/* ltt_start(), after publishing: flags on, core.event_rules of the rules in effect; the rules are
 * checked against the registered facilities now (check_now) or at stop (LTT_EVENTS: the program's
 * facilities register after libltt's constructor starts the trace). */
void ltt_events_started(int check_now);
/* ltt_stop(), after recording is cleared: flags off, triggers disarmed. */
void ltt_events_stopped(void);
/* Says, one line each, which LTT_SNAPSHOT_ON event rules match no event of the facilities registered
 * so far (the flight thread, a second after the start: the program's facilities are registered). */
void ltt_events_check_triggers(void);

/* FACILITY.EVENT of event id, the name of a registered facility's event ("?" if unknown). */
void ltt_events_name(uint16_t id, char *buf, size_t len);

#endif
