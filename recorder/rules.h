/* recorder/rules.h: the per-event enabled flags that generated code tests (struct ltt_facility
 * .enabled), the event rules that choose them (LTT_EVENTS, ltt_events_set()) and the snapshot trigger
 * rules (LTT_SNAPSHOT_ON). Private to libltt.
 *
 * One flag byte per event: LTT_EVENT_ON = recording && !paused && selected by the rules (and the
 * facility registered); LTT_EVENT_TRIGGER = ON && a flight trace && LTT_SNAPSHOT_ON matches.
 * Recomputed by ltt_events_refresh() on start, stop, rule change, pause/resume and registration,
 * always under the registry lock (recorder/facility.c), which also guards the rule state here.
 *
 * Memory ordering: a flag is a hint. It is set (release store) only after what makes recording
 * possible is published (ltt_start(): the region, B8, then recording=1, then the flags); the event
 * path loads it with ltt_read() and ltt_event_reserve() reloads the region and base code with acquire
 * (pairs B8, B9), so a stale ON flag after stop finds no region and records nothing. A stale OFF flag
 * loses the events of the instant of a change, which the trace covers: core.event_rules says the
 * change happened between time - settle_ns and time (doc/format.md section 8).
 */
#ifndef LTT_RECORDER_RULES_H
#define LTT_RECORDER_RULES_H

#include <stddef.h>
#include <stdint.h>

#include <ltt/ltt.h>

/* Recomputes the flags of every registered facility (takes the registry lock). */
void ltt_events_refresh(void);
/* The same for one facility; the caller holds the registry lock (registration, fork child). */
void ltt_events_refresh_locked(struct ltt_facility *fac);
/* Pauses (on != 0) or resumes every event but the core facility's, while the trace goes on
 * (ltt_pause()/ltt_resume() build on it): the flags are recomputed with paused set. */
void ltt_events_pause(int on);
/* ltt_start(), before publishing: takes rules (opt->events; NULL keeps the rules set last) and,
 * for flight mode, LTT_SNAPSHOT_ON. -EINVAL with why filled in for a bad list. */
int ltt_events_start(const char *rules, int flight, char *why, size_t whylen);
/* ltt_start(), after publishing: flags on, core.event_rules of the rules in effect; the rules are
 * checked against the registered facilities now (check_now) or at stop (LTT_EVENTS: the program's
 * facilities register after libltt's constructor starts the trace). */
void ltt_events_started(int check_now);
/* ltt_stop(), after recording is cleared: flags off, triggers disarmed. */
void ltt_events_stopped(void);

/* FACILITY.EVENT of event id, the name of a registered facility's event ("?" if unknown). */
void ltt_events_name(uint16_t id, char *buf, size_t len);

#endif
