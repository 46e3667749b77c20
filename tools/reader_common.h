/* Helpers shared by the reader commands (dump, stats, check): problem printing, option values. */
#ifndef LTT_TOOLS_READER_COMMON_H
#define LTT_TOOLS_READER_COMMON_H

#include <stdint.h>

#include <ltt/reader.h>

struct reader_tool {
	const char *cmd;	/* "dump", "stats", "check" */
	uint64_t problems;
	int silent;		/* count problems without printing them */
	unsigned skipped;	/* traces of the set that could not be opened (reported, left out) */
	int hold;		/* keep problem lines in held[] instead of printing them */
	char **held;
	size_t nheld;
};

/* Opens the trace set of paths; a trace that cannot be opened is reported on one line
 * ("ltt CMD: ...") and left out, the others are opened (tool->skipped counts those left out, the
 * command must then exit non-zero). Returns 0, or a negative errno when no trace could be opened
 * (reported too). */
int reader_tool_open(struct reader_tool *tool, struct ltt_reader **r, char **paths, unsigned npaths,
		     const struct ltt_reader_options *opt);

/* Problem callback: prints "ltt CMD: TRACE/FILE: offset N: what" on stderr. arg is a reader_tool. */
void reader_tool_problem(void *arg, const struct ltt_problem *p);

/* Parses a time option: absolute seconds since the Epoch ("1062609024.5") or "+S" seconds after
 * `start_ns` ("+0.25"); up to 9 decimals. 0 or -EINVAL. */
int reader_parse_time(const char *s, uint64_t start_ns, uint64_t *out_ns);

/* Parses a non-negative decimal number; 0 or -EINVAL. */
int reader_parse_u64(const char *s, uint64_t *out);

#endif
