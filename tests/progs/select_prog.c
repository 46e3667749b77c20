/* SPDX-License-Identifier: MIT */
/* select_prog: helper of the event rules' end-to-end tests (tests/e2e/select_rules.sh). Recording is
 * started by LTT_TRACE (and LTT_EVENTS) in the environment.
 *   select_prog counts N        N events each of seltest.a, b and c
 *   select_prog set RULES       ltt_events_set(RULES): prints its return value
 *   select_prog pause N         N pairs of b(i), a(i) while recording, N more between ltt_pause() and
 *                               ltt_resume(), N more after
 *   select_prog change MS       2 threads emit b(i), a(i) pairs while the main thread switches the rules
 *                               between "-seltest.a" and "" (everything) every ms, for MS ms
 *   select_prog check TRACE     reads a trace: prints "a=N b=N c=N rules=K lost=L", then checks that
 *                               every a(i) missing between b(i) and b(i + 1) of its thread falls where
 *                               rules deselecting seltest.a may have been in effect (core.event_rules
 *                               with its settle window); prints "unexplained=U missing=M"
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <ltt/ltt.h>
#include <ltt/reader.h>

#include "eventdefs/rules_match.h"
#include "seltest.h"

static int stop;

static void *worker(void *p)
{
	uint32_t t = (uint32_t)(uintptr_t)p;
	uint64_t i = 0;

	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		for (int k = 0; k < 64; k++, i++) {
			trace_seltest_b(t, i);
			trace_seltest_a(t, i);
		}
		nanosleep(&(struct timespec){ 0, 20000 }, NULL);
	}
	trace_seltest_b(t, i);	/* closes the last pair */
	return NULL;
}

static int change(long ms)
{
	pthread_t th[2];

	for (uintptr_t i = 0; i < 2; i++)
		if (pthread_create(&th[i], NULL, worker, (void *)i))
			return 1;
	for (long k = 0; k < ms; k++) {
		if (ltt_events_set(k % 2 ? "" : "-seltest.a"))
			return 1;
		nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	return 0;
}

/* ---- check ---- */

struct rules_at {
	uint64_t from, at;	/* may apply from `from` (time - settle_ns); certainly from `at` */
	int a_selected;
};

struct seen {
	uint64_t *b_ns;		/* time of b(i), per thread */
	unsigned char *a;	/* a(i) recorded */
	uint64_t n;		/* b(0 .. n-1) recorded */
};

static uint64_t field_u(const struct ltt_event *ev, const char *name)
{
	struct ltt_value body, f;

	if (ltt_event_body(ev, &body) || ltt_value_field(&body, name, &f))
		return UINT64_MAX;
	return ltt_value_uint(&f);
}

/* Makes room for b(i), which arrives after b(0 .. i-1) (some may be missing: paused; time 0). */
static int grow(struct seen *s, uint64_t i)
{
	if (i < s->n)
		return -1;	/* b events arrive in order */
	while (s->n <= i) {
		if (!(s->n & (s->n + 1)) || !s->b_ns) {
			size_t cap = (size_t)(s->n + 1) * 2;

			s->b_ns = realloc(s->b_ns, cap * sizeof(*s->b_ns));
			s->a = realloc(s->a, cap);
			if (!s->b_ns || !s->a)
				return -1;
		}
		s->a[s->n] = 0;
		s->b_ns[s->n] = 0;
		s->n++;
	}
	return 0;
}

static int check(const char *path)
{
	struct ltt_reader *r;
	struct ltt_event ev;
	char err[512];
	struct rules_at ra[4096];
	unsigned nra = 0;
	uint64_t na = 0, nb = 0, nc = 0, lost = 0, missing = 0, unexplained = 0;
	struct seen seen[2] = { { 0 }, { 0 } };
	int rc;

	if (ltt_reader_open(&r, &path, 1, NULL, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	while ((rc = ltt_reader_next(r, &ev)) == 1) {
		const char *fac = ev.type->facility, *name = ev.type->name;

		if (!strcmp(fac, "core") && !strcmp(name, "event_rules")) {
			struct ltt_value body, f;
			const char *text = "";
			uint64_t settle = 0;

			if (!ltt_event_body(&ev, &body) && !ltt_value_field(&body, "rules", &f))
				text = ltt_value_string(&f, NULL);
			if (!ltt_event_body(&ev, &body) && !ltt_value_field(&body, "settle_ns", &f))
				settle = ltt_value_uint(&f);
			if (nra < sizeof(ra) / sizeof(ra[0])) {
				ra[nra].at = ev.time_ns;
				ra[nra].from = ev.time_ns - settle;
				ra[nra].a_selected = ltt_rules_select(text, "seltest", "a");
				nra++;
			}
		} else if (!strcmp(fac, "seltest")) {
			uint64_t t = field_u(&ev, "thread"), i = field_u(&ev, "seq");

			if (!strcmp(name, "a"))
				na++;
			else if (!strcmp(name, "b"))
				nb++;
			else
				nc++;
			if (t > 1 || !strcmp(name, "c"))
				continue;
			if (!strcmp(name, "b")) {
				if (grow(&seen[t], i)) {
					fprintf(stderr, "b(%llu) of thread %llu out of order\n", (unsigned long long)i,
						(unsigned long long)t);
					return 1;
				}
				seen[t].b_ns[i] = ev.time_ns;
			} else if (i < seen[t].n) {
				seen[t].a[i] = 1;
			}
		}
	}
	for (unsigned k = 0; k < ltt_reader_ntraces(r); k++) {
		const struct ltt_trace_info *ti = ltt_reader_trace(r, k);

		for (unsigned f = 0; f < ti->ntracefiles; f++)
			for (unsigned c = 0; c < LTT_LOST_NCAUSES; c++)
				lost += ti->tracefiles[f]->events_lost[c];
	}
	printf("a=%llu b=%llu c=%llu rules=%u lost=%llu\n", (unsigned long long)na, (unsigned long long)nb,
	       (unsigned long long)nc, nra, (unsigned long long)lost);
	/* a(i) lies between b(i) and b(i + 1): some rules deselecting it must apply in that window */
	for (int t = 0; t < 2; t++) {
		for (uint64_t i = 0; i + 1 < seen[t].n; i++) {
			uint64_t lo = seen[t].b_ns[i], hi = seen[t].b_ns[i + 1];
			int ok = 0;

			if (seen[t].a[i] || !lo || !hi)
				continue;	/* recorded, or its b missing too (paused) */
			missing++;
			for (unsigned k = 0; k < nra && !ok; k++) {
				uint64_t until = k + 1 < nra ? ra[k + 1].at : UINT64_MAX;

				ok = !ra[k].a_selected && ra[k].from <= hi && until >= lo;
			}
			if (!ok && unexplained++ < 5)
				fprintf(stderr, "thread %d: a(%llu) missing in [%llu, %llu] where seltest.a was selected\n",
					t, (unsigned long long)i, (unsigned long long)lo, (unsigned long long)hi);
		}
		free(seen[t].b_ns);
		free(seen[t].a);
	}
	printf("unexplained=%llu missing=%llu\n", (unsigned long long)unexplained, (unsigned long long)missing);
	ltt_reader_close(r);
	return rc < 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "counts")) {
		long n = atol(argv[2]);

		for (long i = 0; i < n; i++) {
			trace_seltest_b(0, (uint64_t)i);	/* b(i) then a(i), as check expects */
			trace_seltest_a(0, (uint64_t)i);
			trace_seltest_c(0, (uint64_t)i);
		}
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "set")) {
		printf("%d\n", ltt_events_set(argv[2]));
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "pause")) {
		long n = atol(argv[2]);

		for (long k = 0; k < 3 * n; k++) {
			if (k == n && ltt_pause())
				return 1;
			if (k == 2 * n && ltt_resume())
				return 1;
			trace_seltest_b(0, (uint64_t)k);
			trace_seltest_a(0, (uint64_t)k);
		}
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "change"))
		return change(atol(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "check"))
		return check(argv[2]);
	fprintf(stderr, "usage: select_prog counts N | set RULES | change MS | check TRACE\n");
	return 2;
}
