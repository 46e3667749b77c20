/* SPDX-License-Identifier: MIT */
/* recorder/flight_duration.c: duration triggers of LTT_SNAPSHOT_ON (doc/flight-recorder.md "Triggers"):
 * "syscall:NAME>DURATION" (NAME a system call of the machine, or * for any) takes a snapshot when a
 * system call of the program takes longer than DURATION ("syscall:read>100ms"). The kernel drain thread
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
	int nr;			/* -1: any system call */
	uint64_t ns;		/* fires above this */
	char text[64];		/* as written: "syscall:read>100ms" */
};

static struct dur_rule rules[MAX_RULES];
static unsigned nrules;
static struct { uint32_t tid, nr; uint64_t t; } enters[TIDS];	/* the drain thread's only */
static char fired[200];	/* what fired, for the snapshot (written before the request is raised) */

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
		if (e - b < 8 || strncmp(b, "syscall:", 8)) {
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
			snprintf(why, whylen, "LTT_SNAPSHOT_ON='%.*s': not syscall:NAME>DURATION (a system call or *, "
				 "then a duration with ns, us, ms or s: syscall:read>100ms)", (int)(e - b > 64 ? 64 : e - b), b);
			return -EINVAL;
		}
		if (gt - (b + 8) == 1 && b[8] == '*') {
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
		if ((rules[i].nr >= 0 && (uint32_t)rules[i].nr != nr) || d <= rules[i].ns)
			continue;
		/* only while no request is raised: the one raised is served (and its text read) first */
		if (ltt_read(&ltt_trigger_pending))
			return;
		snprintf(fired, sizeof(fired), "%s (took %llu.%06llu s, tid %u)", rules[i].text,
			 (unsigned long long)(d / 1000000000u), (unsigned long long)(d % 1000000000u / 1000), tid);
		ltt_trigger_raise(LTT_TRIGGER_DURATION);
		return;
	}
}

const char *ltt_trigger_duration_fired(void)
{
	return fired;
}
