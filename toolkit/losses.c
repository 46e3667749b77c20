/* SPDX-License-Identifier: MIT */
/* The losses inside a view's window (toolkit/losses.h): loss records counted as the view reads them,
 * each one's window, and the line and JSON key every view prints. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"
#include "toolkit/losses.h"

void losses_init(struct losses *L)
{
	memset(L, 0, sizeof(*L));
}

void losses_free(struct losses *L)
{
	free(L->tfs);
	memset(L, 0, sizeof(*L));
}

void losses_reader(struct ltt_reader *r)
{
	for (unsigned i = 0; i < ltt_reader_ntraces(r); i++) {
		const struct ltt_trace_info *t = ltt_reader_trace(r, i);

		for (unsigned k = 0; k < t->nevent_types; k++) {
			const struct ltt_event_type *ty = t->event_types[k];

			if (ty->builtin)
				ltt_reader_hide_event_type(r, ty, ty->id != LTT_ID_EVENTS_LOST &&
								  ty->id != LTT_ID_BLOCKS_LOST);
		}
	}
}

/* The slot of tf in L->tfs (added), or NULL. */
static struct losses_tf *tf_slot(struct losses *L, const struct ltt_tracefile_info *tf)
{
	if (L->cached < L->ntfs && L->tfs[L->cached].tf == tf)
		return &L->tfs[L->cached];
	for (size_t i = 0; i < L->ntfs; i++)
		if (L->tfs[i].tf == tf) {
			L->cached = i;
			return &L->tfs[i];
		}
	if (LTT_GROW(L->tfs, L->ntfs + 1, L->captfs))
		return NULL;
	L->tfs[L->ntfs] = (struct losses_tf){ .tf = tf };
	L->cached = L->ntfs;
	return &L->tfs[L->ntfs++];
}

static uint64_t field_u64(const struct ltt_event *ev, const char *name)
{
	struct ltt_value body, v;

	if (ltt_event_body(ev, &body) || ltt_value_field(&body, name, &v))
		return 0;
	return ltt_value_uint(&v);
}

int losses_event(struct losses *L, const struct ltt_event *ev)
{
	struct losses_tf *s = tf_slot(L, ev->tracefile);
	struct loss_window *w = &L->last;

	if (!s)
		return -ENOMEM;
	if (!ev->type->builtin || (ev->type->id != LTT_ID_EVENTS_LOST && ev->type->id != LTT_ID_BLOCKS_LOST)) {
		s->last_ns = ev->time_ns;
		return 0;
	}
	memset(w, 0, sizeof(*w));
	w->trace = ev->trace;
	w->tf = ev->tracefile;
	w->from_ns = s->last_ns;
	w->to_ns = ev->time_ns;
	w->kernel = !strncmp(ev->tracefile->name, "kernel/", 7);
	if (ev->type->id == LTT_ID_EVENTS_LOST) {
		unsigned c = (unsigned)field_u64(ev, "cause");

		w->cause = c < LTT_LOST_UNKNOWN ? c : LTT_LOST_UNKNOWN;
		w->events = field_u64(ev, "count");
		L->lost[w->cause] += w->events;
	} else {
		w->cause = LOSS_OVERWRITTEN;
		w->events = field_u64(ev, "events");
		L->overwritten += w->events;
		L->overwritten_blocks += field_u64(ev, "blocks");
	}
	if (w->kernel)
		L->kernel_events += w->events;
	else
		L->user_events += w->events;
	if (!L->records++)
		L->first_ns = ev->time_ns;
	L->last_ns = ev->time_ns;
	s->last_ns = ev->time_ns;
	return 1;
}

uint64_t losses_total(const struct losses *L)
{
	return L->user_events + L->kernel_events;
}

static void put(char *buf, size_t size, size_t *n, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void put(char *buf, size_t size, size_t *n, const char *fmt, ...)
{
	va_list ap;
	int w;

	if (*n + 1 >= size)
		return;
	va_start(ap, fmt);
	w = vsnprintf(buf + *n, size - *n, fmt, ap);
	va_end(ap);
	if (w > 0)
		*n = *n + (size_t)w < size ? *n + (size_t)w : size - 1;
}

size_t losses_format_text(const struct losses *L, char *buf, size_t size, const char *what, uint64_t cut)
{
	size_t n = 0;
	int any = 0;

	if (size)
		buf[0] = 0;
	if (!losses_total(L) && !cut)
		return 0;
	put(buf, size, &n, "lost: %" PRIu64 " events in this window (", losses_total(L));
	for (unsigned c = 0; c < LTT_LOST_NCAUSES; c++)
		if (L->lost[c]) {
			put(buf, size, &n, "%s%s %" PRIu64, any ? ", " : "", ltt_lost_cause_name(c), L->lost[c]);
			any = 1;
		}
	if (L->overwritten)
		put(buf, size, &n, "%soverwritten %" PRIu64, any ? ", " : "", L->overwritten);
	put(buf, size, &n, "; %" PRIu64 " of them kernel events)", L->kernel_events);
	if (what)
		put(buf, size, &n, "; %" PRIu64 " %s cut by a loss are counted apart, without a duration", cut, what);
	put(buf, size, &n, "\n");
	return n;
}

size_t losses_format_json(const struct losses *L, char *buf, size_t size, const char *what, uint64_t cut)
{
	size_t n = 0;
	int any = 0;

	if (size)
		buf[0] = 0;
	put(buf, size, &n, "\"lost\":{\"events\":%" PRIu64 ",\"by_cause\":{", losses_total(L));
	for (unsigned c = 0; c < LTT_LOST_NCAUSES; c++)
		if (L->lost[c]) {
			put(buf, size, &n, "%s\"%s\":%" PRIu64, any ? "," : "", ltt_lost_cause_name(c), L->lost[c]);
			any = 1;
		}
	put(buf, size, &n, "},\"overwritten\":%" PRIu64 ",\"overwritten_blocks\":%" PRIu64 ",\"records\":%" PRIu64
	    ",\"kernel_events\":%" PRIu64, L->overwritten, L->overwritten_blocks, L->records, L->kernel_events);
	if (what)
		put(buf, size, &n, ",\"cut\":%" PRIu64, cut);
	put(buf, size, &n, "}");
	return n;
}

void losses_print_text(const struct losses *L, FILE *out, const char *what, uint64_t cut)
{
	char buf[512];

	if (losses_format_text(L, buf, sizeof(buf), what, cut))
		fputs(buf, out);
}

void losses_print_json(const struct losses *L, FILE *out, const char *what, uint64_t cut)
{
	char buf[512];

	losses_format_json(L, buf, sizeof(buf), what, cut);
	fputs(buf, out);
}
