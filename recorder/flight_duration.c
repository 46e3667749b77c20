/* SPDX-License-Identifier: MIT */
/* recorder/flight_duration.c: duration triggers of LTT_SNAPSHOT_ON (doc/flight-recorder.md "Triggers"):
 * "syscall:NAME>DURATION" (NAME a system call of the machine, or * for any) takes a snapshot when a
 * system call of the program takes longer than DURATION ("syscall:read>100ms"); "region:LABEL>DURATION"
 * when a Trace2 region (ltt_region_enter/leave, doc/app-api.md) with that label (or *) does: the region
 * calls keep each open region's start time per thread while such a rule exists (recorder/app_region.c)
 * and call ltt_trigger_region_left() at its leave. The kernel drain thread
 * (recorder/kernel_drain.c) calls ltt_trigger_sys_enter/exit() for every raw_syscalls record it copies:
 * the entry time is kept per thread in a table only that thread touches, and an exit whose duration
 * passes a rule raises the trigger request as an event trigger does (recorder/flight_trigger.c), with
 * what fired written for the snapshot's info/system.xml. Not on the program's threads: nothing here runs
 * on the event path. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "common/syscall_names.h"
#include "flight.h"
#include "kernel.h"

#define MAX_RULES	16
#define TIDS		16384	/* by tid modulo: two threads whose tids collide, in a call at once: one not timed */

struct dur_rule {
	int region;		/* a region rule (region:LABEL>DURATION), else a system call's */
	char label[48];		/* the region's label, "" for any */
	int nr;			/* -1: any system call */
	uint64_t ns;		/* fires above this */
	char text[64];		/* as written: "syscall:read>100ms" */
};

static struct dur_rule rules[MAX_RULES];
static unsigned nrules;
static struct { uint32_t tid, nr; uint64_t t; } enters[TIDS];	/* the drain thread's only */
static char fired[200];	/* what fired, for the snapshot (written before the request is raised) */
static int fired_busy;	/* fired is being written or read: taken by CAS, released by the taker */
int ltt_trigger_regions;	/* region rules: the region calls time their regions while nonzero */

/* "100ms", "2s", "500us", "1000000ns", "1.5s" -> ns; 0 when not a duration. */
static uint64_t parse_duration(const char *s, const char *e)
{
	char buf[32], *end;
	double v;
	size_t n = (size_t)(e - s);
	static const struct { const char *unit; double mul; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
	};

	if (!n || n >= sizeof(buf))
		return 0;
	memcpy(buf, s, n);
	buf[n] = 0;
	v = strtod(buf, &end);
	if (end == buf || v <= 0 || v > 86400.0 * 1e9)
		return 0;
	for (unsigned i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].unit))
			return v * units[i].mul >= 1 ? (uint64_t)(v * units[i].mul) : 0;
	return 0;
}

int ltt_trigger_durations_parse(const char *on, char *rest, size_t restlen, char *why, size_t whylen)
{
	const char *p = on;
	size_t k = 0;
	struct utsname u;
	const char *machine = uname(&u) ? NULL : u.machine;

	nrules = 0;
	if (restlen)
		rest[0] = 0;
	while (p && *p) {
		const char *b = p, *e = p + strcspn(p, ","), *gt;

		p = *e ? e + 1 : e;
		while (b < e && (*b == ' ' || *b == '\t'))
			b++;
		while (e > b && (e[-1] == ' ' || e[-1] == '\t'))
			e--;
		int region = e - b >= 7 && !strncmp(b, "region:", 7);
		const char *nb = b + (region ? 7 : 8);	/* the name */

		if (!region && (e - b < 8 || strncmp(b, "syscall:", 8))) {
			/* an event rule: kept for recorder/rules.c */
			if (b < e && k + (size_t)(e - b) + 2 < restlen) {
				if (k)
					rest[k++] = ',';
				memcpy(rest + k, b, (size_t)(e - b));
				k += (size_t)(e - b);
				rest[k] = 0;
			}
			continue;
		}
		gt = memchr(b, '>', (size_t)(e - b));
		if (nrules == MAX_RULES || (size_t)(e - b) >= sizeof(rules[0].text)) {
			snprintf(why, whylen, "LTT_SNAPSHOT_ON='%.*s': at most %d duration rules of at most %zu "
				 "characters", (int)(e - b > 64 ? 64 : e - b), b, MAX_RULES, sizeof(rules[0].text) - 1);
			return -EINVAL;
		}
		if (!gt || !(rules[nrules].ns = parse_duration(gt + 1, e))) {
			snprintf(why, whylen, region ? "LTT_SNAPSHOT_ON='%.*s': not region:LABEL>DURATION (a region's label "
					       "or *, then a duration with ns, us, ms or s: region:checkout>50ms)"
					     : "LTT_SNAPSHOT_ON='%.*s': not syscall:NAME>DURATION (a system call or *, "
					       "then a duration with ns, us, ms or s: syscall:read>100ms)",
				 (int)(e - b > 64 ? 64 : e - b), b);
			return -EINVAL;
		}
		rules[nrules].region = region;
		rules[nrules].label[0] = 0;
		if (region) {
			size_t n = (size_t)(gt - nb);

			if (!n || n >= sizeof(rules[0].label)) {
				snprintf(why, whylen, "LTT_SNAPSHOT_ON='%.*s': a region's label of 1 to %zu characters, or *",
					 (int)(e - b), b, sizeof(rules[0].label) - 1);
				return -EINVAL;
			}
			if (!(n == 1 && *nb == '*'))
				memcpy(rules[nrules].label, nb, n), rules[nrules].label[n] = 0;
			rules[nrules].nr = -1;
		} else if (gt - (b + 8) == 1 && b[8] == '*') {
			rules[nrules].nr = -1;
		} else {
			char name[48];
			size_t n = (size_t)(gt - (b + 8));

			if (n >= sizeof(name) || !n)
				n = 0;
			memcpy(name, b + 8, n);
			name[n] = 0;
			rules[nrules].nr = n ? syscall_number(machine, name) : -1;
			if (!n || rules[nrules].nr < 0) {
				snprintf(why, whylen, "LTT_SNAPSHOT_ON='%.*s': '%s' is not a system call of %s",
					 (int)(e - b), b, name, machine ? machine : "this machine");
				return -EINVAL;
			}
		}
		memcpy(rules[nrules].text, b, (size_t)(e - b));
		rules[nrules].text[e - b] = 0;
		nrules++;
	}
	{
		int nreg = 0;

		for (unsigned i = 0; i < nrules; i++)
			nreg += rules[i].region;
		/* Relaxed: set at start; the region calls read it relaxed (a hint to time regions). */
		__atomic_store_n(&ltt_trigger_regions, nreg, __ATOMIC_RELAXED);
	}
	/* no duration rule: the event rules are the text as written (their errors name its bytes) */
	if (!nrules && on && strlen(on) < restlen)
		memcpy(rest, on, strlen(on) + 1);
	memset(enters, 0, sizeof(enters));
	return 0;
}

int ltt_trigger_durations(void)
{
	return (int)nrules;
}

int ltt_trigger_syscall_rules(void)
{
	return (int)nrules - __atomic_load_n(&ltt_trigger_regions, __ATOMIC_RELAXED);
}

/* Writes what fired and raises the request, if no other one is being raised or served. */
static void fire(const struct dur_rule *ru, const char *what, uint64_t d, uint32_t tid)
{
	if (ltt_read(&ltt_trigger_pending) || ltt_cmpxchg(&fired_busy, 0, 1))
		return;	/* the one raised (or being raised) is served first */
	snprintf(fired, sizeof(fired), "%s (%s%stook %llu.%06llu s, tid %u)", ru->text, what ? what : "",
		 what ? " " : "", (unsigned long long)(d / 1000000000u), (unsigned long long)(d % 1000000000u / 1000),
		 tid);
	/* not raised (another trigger's CAS won, or no thread serves it): nobody will read it */
	if (!ltt_trigger_raise(LTT_TRIGGER_DURATION))
		ltt_set(&fired_busy, 0);
}

void ltt_trigger_region_left(const char *label, uint64_t d, uint32_t tid)
{
	for (unsigned i = 0; i < nrules; i++)
		if (rules[i].region && d > rules[i].ns && (!rules[i].label[0] || (label && !strcmp(label, rules[i].label)))) {
			fire(&rules[i], NULL, d, tid);
			return;
		}
}

void ltt_trigger_sys_enter(uint32_t tid, uint32_t nr, uint64_t t_ns)
{
	unsigned h = tid & (TIDS - 1);

	if (!nrules || !tid)
		return;
	enters[h].tid = tid;
	enters[h].nr = nr;
	enters[h].t = t_ns;
}

void ltt_trigger_sys_exit(uint32_t tid, uint32_t nr, uint64_t t_ns)
{
	unsigned h = tid & (TIDS - 1);
	uint64_t d;

	if (!nrules || !tid || enters[h].tid != tid)
		return;
	if (enters[h].nr != nr || !enters[h].t || t_ns < enters[h].t) {
		enters[h].t = 0;
		return;
	}
	d = t_ns - enters[h].t;
	enters[h].t = 0;
	for (unsigned i = 0; i < nrules; i++) {
		if (rules[i].region || (rules[i].nr >= 0 && (uint32_t)rules[i].nr != nr) || d <= rules[i].ns)
			continue;
		fire(&rules[i], NULL, d, tid);
		return;
	}
}

void ltt_trigger_duration_read(char *out, size_t n)
{
	snprintf(out, n, "%s", fired);
	/* Full barrier: read before a next raiser writes (pairs with fire()'s CAS). */
	(void)ltt_xchg(&fired_busy, 0);
}
