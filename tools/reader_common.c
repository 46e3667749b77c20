/* Helpers shared by the reader commands. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd.h"
#include "reader_common.h"

void reader_tool_problem(void *arg, const struct ltt_problem *p)
{
	struct reader_tool *t = arg;
	char buf[1024];

	t->problems++;
	if (t->silent)
		return;
	ltt_tool_error(t->cmd, "%s", ltt_problem_format(p, buf, sizeof(buf)));
}

int reader_parse_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;

	if (!s || !*s)
		return -EINVAL;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > (UINT64_MAX - 9) / 10)
			return -EINVAL;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = v;
	return 0;
}

int reader_parse_time(const char *s, uint64_t start_ns, uint64_t *out_ns)
{
	uint64_t sec = 0, frac = 0;
	int rel = 0, digits = 0, nfrac = 0;

	if (*s == '+') {
		rel = 1;
		s++;
	}
	for (; *s >= '0' && *s <= '9'; s++, digits++) {
		if (sec > UINT64_MAX / 10 / 1000000000ull)
			return -EINVAL;
		sec = sec * 10 + (uint64_t)(*s - '0');
	}
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9'; s++, digits++)
			if (nfrac < 9) {
				frac = frac * 10 + (uint64_t)(*s - '0');
				nfrac++;
			}
	if (*s || !digits)
		return -EINVAL;
	for (; nfrac < 9; nfrac++)
		frac *= 10;
	*out_ns = sec * 1000000000ull + frac + (rel ? start_ns : 0);
	return 0;
}
