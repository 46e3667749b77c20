/* SPDX-License-Identifier: MIT */
/* Problems found in a trace: formatted once, passed to the application's callback. */
#include <errno.h>
#include <stdio.h>

#include "reader_internal.h"

/* Every message is one line whatever the input quotes in it (an attribute value, a file name): control
 * characters become '?'. */
static void one_line(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

char *ltt_problem_format(const struct ltt_problem *p, char *buf, size_t len)
{
	const char *sep = p->file ? "/" : "";
	const char *file = p->file ? p->file : "";

	if (p->offset >= 0)
		snprintf(buf, len, "%s%s%s: offset %lld: %s", p->trace, sep, file, (long long)p->offset,
			 p->what);
	else if (p->line > 0)
		snprintf(buf, len, "%s%s%s: line %d: %s", p->trace, sep, file, p->line, p->what);
	else
		snprintf(buf, len, "%s%s%s: %s", p->trace, sep, file, p->what);
	return buf;
}

void rd_problem(struct ltt_reader *r, const struct trace *t, const char *file, int64_t offset, int line,
		const char *fmt, ...)
{
	struct ltt_problem p;
	char what[512];
	va_list ap;

	if (r->quiet)
		return;
	if (r->mute_name && file == r->mute_name && offset >= 0 && (uint64_t)offset < r->mute_below)
		return;	/* reported by an earlier pass over the block (following, tracefile.c) */
	r->nproblems++;
	if (!r->opt.problem)
		return;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	one_line(what);
	p.trace_index = t->info.index;
	p.trace = t->path;
	p.file = file;
	p.offset = offset;
	p.line = line;
	p.what = what;
	r->opt.problem(r->opt.problem_arg, &p);
}

void rd_seterr(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	one_line(err);
}

const char *ltt_lost_cause_name(unsigned cause)
{
	static const char *const names[] = { "buffer_full", "too_big", "nested", "torn", "internal", "kernel" };

	return cause < LTT_LOST_UNKNOWN ? names[cause] : "unknown";
}
