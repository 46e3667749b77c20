/* Helpers shared by the reader commands (dump, stats, check): problem printing, option values. */
#ifndef LTT_TOOLS_READER_COMMON_H
#define LTT_TOOLS_READER_COMMON_H

#include <stdint.h>

#include <ltt/reader.h>

struct reader_tool {
	const char *cmd;	/* "dump", "stats", "check" */
	uint64_t problems;
	int silent;		/* count problems without printing them */
};

/* Problem callback: prints "ltt CMD: TRACE/FILE: offset N: what" on stderr. arg is a reader_tool. */
void reader_tool_problem(void *arg, const struct ltt_problem *p);

/* Parses a time option: absolute seconds since the Epoch ("1062609024.5") or "+S" seconds after
 * `start_ns` ("+0.25"); up to 9 decimals. 0 or -EINVAL. */
int reader_parse_time(const char *s, uint64_t start_ns, uint64_t *out_ns);

/* Parses a non-negative decimal number; 0 or -EINVAL. */
int reader_parse_u64(const char *s, uint64_t *out);

#endif
