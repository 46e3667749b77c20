/* SPDX-License-Identifier: MIT */
/* `ltt stats --waits`: the ltt.wait events (LTT_WAITS=1, eventdefs/ltt.xml) per lock, ranked by the
 * total time threads waited for it, with the threads that held it and those that waited (doc/cli.md
 * "ltt stats --waits"). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/escape_json.h"
#include "common/escape_term.h"
#include "common/grow.h"
#include "toolkit/losses.h"
#include "toolkit/reader_common.h"
#include "toolkit/thread_names.h"
#include "report.h"

#define WT_TOP 4	/* holders and waiters named per lock */

struct wt_who {
	uint32_t tid;
	uint64_t n, ns;
};

struct wt_lock {
	unsigned trace;
	uint64_t addr;
	const char *kind;
	uint64_t n, total, max;
	struct wt_who *holders, *waiters;
	size_t nh, nw, caph, capw;
	uint64_t first_ns;	/* for thread names */
};

struct wt_state {
	struct wt_lock *l;
	size_t n, cap;
};

static int wt_count(struct wt_who **w, size_t *n, size_t *cap, uint32_t tid, uint64_t ns)
{
	for (size_t i = 0; i < *n; i++)
		if ((*w)[i].tid == tid) {
			(*w)[i].n++;
			(*w)[i].ns += ns;
			return 0;
		}
	if (LTT_GROW(*w, *n + 1, *cap))
		return -ENOMEM;
	(*w)[(*n)++] = (struct wt_who){ tid, 1, ns };
	return 0;
}

static uint64_t wt_u(const struct ltt_value *b, const char *name)
{
	struct ltt_value v;

	return ltt_value_field(b, name, &v) ? 0 : ltt_value_uint(&v);
}

static int wt_event(struct wt_state *s, const struct ltt_event *ev)
{
	struct ltt_value b, k;
	uint64_t addr, ns;
	uint32_t holder, tid;
	const char *kind = "?";
	struct wt_lock *l = NULL;

	if (ltt_event_body(ev, &b))
		return 0;
	addr = wt_u(&b, "lock");
	ns = wt_u(&b, "wait_ns");
	holder = (uint32_t)wt_u(&b, "holder");
	tid = (uint32_t)wt_u(&b, "tid");
	if (!ltt_value_field(&b, "kind", &k) && ltt_value_enum_label(&k))
		kind = ltt_value_enum_label(&k);
	for (size_t i = 0; i < s->n; i++)
		if (s->l[i].addr == addr && s->l[i].trace == ev->trace->index && !strcmp(s->l[i].kind, kind)) {
			l = &s->l[i];
			break;
		}
	if (!l) {
		if (LTT_GROW(s->l, s->n + 1, s->cap))
			return -ENOMEM;
		l = &s->l[s->n++];
		memset(l, 0, sizeof(*l));
		l->trace = ev->trace->index;
		l->addr = addr;
		l->kind = kind;	/* the label lives in the facility model */
		l->first_ns = ev->time_ns;
	}
	l->n++;
	l->total += ns;
	l->max = ns > l->max ? ns : l->max;
	if (holder && wt_count(&l->holders, &l->nh, &l->caph, holder, ns))
		return -ENOMEM;
	return wt_count(&l->waiters, &l->nw, &l->capw, tid, ns);
}

static int wt_cmp_lock(const void *a, const void *b)
{
	const struct wt_lock *x = a, *y = b;

	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int wt_cmp_who(const void *a, const void *b)
{
	const struct wt_who *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static const char *wt_name(const struct thread_names *tn, const struct wt_lock *l, uint32_t tid)
{
	const char *n = tn ? thread_names_find(tn, l->trace, tid, l->first_ns) : NULL;

	return n ? n : "";
}

static void wt_json_who(FILE *out, const char *key, const struct wt_who *w, size_t n,
			const struct thread_names *tn, const struct wt_lock *l)
{
	fprintf(out, ",\"%s\":[", key);
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "%s{\"tid\":%" PRIu32 ",\"name\":", i ? "," : "", w[i].tid);
		const char *name = wt_name(tn, l, w[i].tid);

		ltt_json_to_file(out, name, strlen(name));
		fprintf(out, ",\"waits\":%" PRIu64 ",\"total_ns\":%" PRIu64 "}", w[i].n, w[i].ns);
	}
	fputc(']', out);
}

static void wt_text_who(FILE *out, const char *what, const struct wt_who *w, size_t n,
			const struct thread_names *tn, const struct wt_lock *l)
{
	char d[24], nb[200];

	fprintf(out, "        %s:", what);
	for (size_t i = 0; i < n && i < WT_TOP; i++) {
		const char *name = wt_name(tn, l, w[i].tid);

		fprintf(out, "%s %" PRIu32 "%s%s%s (%" PRIu64 " waits, %s)", i ? "," : "", w[i].tid, *name ? " \"" : "",
			ltt_term_str(nb, sizeof(nb), name), *name ? "\"" : "", w[i].n, reader_format_duration(d, sizeof(d), w[i].ns));
	}
	if (n > WT_TOP)
		fprintf(out, ", %zu more", n - WT_TOP);
	if (!n)
		fputs(" not known", out);
	fputc('\n', out);
}

static int stats_waits_report(struct ltt_reader *r, const struct stats_args *a)
{
	FILE *out = a->out;
	int json = a->json;
	struct wt_state s = { 0 };
	struct thread_names *tn;
	struct losses loss;
	struct ltt_event ev;
	uint64_t all = 0, n = 0;
	char d[3][24];
	int rc;

	for (unsigned i = 0; i < ltt_reader_ntraces(r); i++) {
		const struct ltt_trace_info *t = ltt_reader_trace(r, i);

		for (unsigned k = 0; k < t->nevent_types; k++) {
			const struct ltt_event_type *ty = t->event_types[k];

			ltt_reader_hide_event_type(r, ty, ty->builtin || strcmp(ty->facility, "ltt") ||
						   strcmp(ty->name, "wait"));
		}
	}
	losses_reader(r);	/* and the loss records (the reader was opened with LTT_READ_BUILTIN) */
	losses_init(&loss);
	tn = thread_names_load(r);
	while ((rc = ltt_reader_next(r, &ev)) == 1)
		if ((rc = losses_event(&loss, &ev)) < 0 || (!rc && (rc = wt_event(&s, &ev)) < 0))
			break;
	if (rc == 0) {
		if (s.n)
			qsort(s.l, s.n, sizeof(*s.l), wt_cmp_lock);
		for (size_t i = 0; i < s.n; i++) {
			if (s.l[i].nh)
				qsort(s.l[i].holders, s.l[i].nh, sizeof(*s.l[i].holders), wt_cmp_who);
			if (s.l[i].nw)
				qsort(s.l[i].waiters, s.l[i].nw, sizeof(*s.l[i].waiters), wt_cmp_who);
			all += s.l[i].total;
			n += s.l[i].n;
		}
		if (json) {
			fputs("{\"version\":1,", out);
			losses_print_json(&loss, out, NULL, 0);
			fprintf(out, ",\"waits\":%" PRIu64 ",\"total_ns\":%" PRIu64 ",\"locks\":[", n, all);
			for (size_t i = 0; i < s.n; i++) {
				const struct wt_lock *l = &s.l[i];

				fprintf(out, "%s{\"trace\":%u,\"lock\":\"0x%" PRIx64 "\",\"kind\":\"%s\",\"waits\":%" PRIu64
					",\"total_ns\":%" PRIu64 ",\"max_ns\":%" PRIu64, i ? "," : "", l->trace, l->addr,
					l->kind, l->n, l->total, l->max);
				wt_json_who(out, "holders", l->holders, l->nh, tn, l);
				wt_json_who(out, "waiters", l->waiters, l->nw, tn, l);
				fputc('}', out);
			}
			fputs("]}\n", out);
		} else {
			losses_print_text(&loss, out, NULL, 0);
			fprintf(out, "waits: %" PRIu64 " waits on %zu locks, %s in all\n", n, s.n,
				reader_format_duration(d[0], sizeof(d[0]), all));
			if (s.n)
				fprintf(out, "  %4s %-6s %-18s %8s %10s %10s\n", "rank", "kind", "lock", "waits", "total", "max");
			for (size_t i = 0; i < s.n; i++) {
				const struct wt_lock *l = &s.l[i];
				char addr[24];

				snprintf(addr, sizeof(addr), "0x%" PRIx64, l->addr);
				fprintf(out, "  %4zu %-6s %-18s %8" PRIu64 " %10s %10s\n", i + 1, l->kind, addr, l->n,
					reader_format_duration(d[1], sizeof(d[1]), l->total),
					reader_format_duration(d[2], sizeof(d[2]), l->max));
				wt_text_who(out, "held by", l->holders, l->nh, tn, l);
				wt_text_who(out, "waited", l->waiters, l->nw, tn, l);
			}
		}
	}
	for (size_t i = 0; i < s.n; i++) {
		free(s.l[i].holders);
		free(s.l[i].waiters);
	}
	free(s.l);
	losses_free(&loss);
	thread_names_free(tn);
	return rc;
}

const struct stats_report stats_report_waits = {
	.option = "waits",
	.run = stats_waits_report,
};
