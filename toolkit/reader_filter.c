/* SPDX-License-Identifier: MIT */
/* The event filters of the reader commands and their times (toolkit/reader_filter.h). */
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/parse.h"
#include "toolkit/cmd.h"
#include "toolkit/reader_filter.h"

int reader_parse_time(const char *s, uint64_t start_ns, uint64_t *out_ns)
{
	int rel = (*s == '+');
	uint64_t ns;

	if (ltt_parse_seconds(s + rel, &ns))
		return -EINVAL;
	*out_ns = ns + (rel ? start_ns : 0);
	return 0;
}

int reader_filter_option(struct reader_filter *f, const char *cmd, int c, const char *arg)
{
	uint64_t v;

	switch (c) {
	case 'f':
	case 'e':
		if ((c == 'f' ? f->nfacilities : f->nevents) >= READER_FILTER_MAX) {
			ltt_tool_error(cmd, "too many --%s options", c == 'f' ? "facility" : "event");
			return -1;
		}
		if (c == 'f')
			f->facilities[f->nfacilities++] = arg;
		else
			f->events[f->nevents++] = arg;
		return 1;
	case 'c':
		if (ltt_parse_u64(arg, &v) || v > 1u << 20 || f->ncpus >= READER_FILTER_MAX) {
			ltt_tool_error(cmd, "--cpu %s: expected a CPU number", arg);
			return -1;
		}
		f->cpus[f->ncpus++] = (int)v;
		return 1;
	case 'b':
		f->from = arg;
		return 1;
	case 't':
		f->to = arg;
		return 1;
	case 'I': {
		int e = tid_list_parse(&f->tids, arg);

		if (e == -E2BIG)
			ltt_tool_error(cmd, "--tid %s: more than %u thread ids", arg, TID_LIST_MAX);
		else if (e)
			ltt_tool_error(cmd, "--tid %s: expected thread ids, comma-separated (--tid=101,102)", arg);
		return e ? -1 : 1;
	}
	default:
		return 0;
	}
}

int reader_filter_type_shown(const struct reader_filter *f, const struct ltt_event_type *ty)
{
	char full[512];
	int ok;

	if (ty->builtin && f->lost && (ty->id == LTT_ID_EVENTS_LOST || ty->id == LTT_ID_BLOCKS_LOST))
		return 1;
	if (ty->builtin && !f->all)
		return 0;
	if (f->nfacilities) {
		ok = 0;
		for (unsigned i = 0; i < f->nfacilities && !ok; i++)
			ok = !fnmatch(f->facilities[i], ty->facility, 0);
		if (!ok)
			return 0;
	}
	if (f->nevents) {
		snprintf(full, sizeof(full), "%s.%s", ty->facility, ty->name);
		ok = 0;
		for (unsigned i = 0; i < f->nevents && !ok; i++)
			ok = strchr(f->events[i], '.') ? !fnmatch(f->events[i], full, 0) :
							  !fnmatch(f->events[i], ty->name, 0);
		if (!ok)
			return 0;
	}
	return 1;
}

int reader_filter_tid_shown(const struct reader_filter *f, const struct ltt_event *ev)
{
	int64_t tid;

	if (!f->tids.n)
		return 1;
	if (ev->type->builtin)
		return f->lost && (ev->id == LTT_ID_EVENTS_LOST || ev->id == LTT_ID_BLOCKS_LOST);
	return event_tid(ev, &tid) && tid_list_has(&f->tids, tid);
}

int reader_filter_times(struct ltt_reader *r, const struct reader_filter *f, const char *cmd,
			uint64_t *from_ns, uint64_t *to_ns)
{
	uint64_t first = 0, last = 0;

	*from_ns = 0;
	*to_ns = UINT64_MAX;
	if (((f->from && f->from[0] == '+') || (f->to && f->to[0] == '+')) &&
	    ltt_reader_time_bounds(r, &first, &last))
		first = 0;
	if (f->from && reader_parse_time(f->from, first, from_ns)) {
		ltt_tool_error(cmd, "--from %s: expected SECONDS[.FRACTION] or +SECONDS", f->from);
		return -EINVAL;
	}
	if (f->to && reader_parse_time(f->to, first, to_ns)) {
		ltt_tool_error(cmd, "--to %s: expected SECONDS[.FRACTION] or +SECONDS", f->to);
		return -EINVAL;
	}
	return 0;
}

int reader_filter_apply(struct ltt_reader *r, const struct reader_filter *f, const char *cmd,
			uint64_t *from_ns, uint64_t *to_ns)
{
	uint64_t from = 0, to = UINT64_MAX;

	for (unsigned i = 0; i < ltt_reader_ntraces(r); i++) {
		const struct ltt_trace_info *t = ltt_reader_trace(r, i);

		for (unsigned k = 0; k < t->nevent_types; k++)
			ltt_reader_hide_event_type(r, t->event_types[k],
						   !reader_filter_type_shown(f, t->event_types[k]));
		if (f->ncpus)
			for (unsigned k = 0; k < t->ntracefiles; k++) {
				int keep = 0;

				for (unsigned c = 0; c < f->ncpus; c++)
					keep |= t->tracefiles[k]->cpu == f->cpus[c];
				ltt_reader_skip_tracefile(r, t->tracefiles[k], !keep);
			}
	}
	if (f->from || f->to) {
		if (reader_filter_times(r, f, cmd, &from, &to))
			return -EINVAL;
		ltt_reader_set_time_range(r, from, to);
	}
	if (from_ns)
		*from_ns = from;
	if (to_ns)
		*to_ns = to;
	return 0;
}
