/* SPDX-License-Identifier: MIT */
/* recorder/env_parse.h: the parsers of libltt's LTT_* settings (doc/recorder.md "Using it"), apart
 * from getenv() so that tests/fuzz/fuzz_env.c can drive them. Private to libltt.
 *
 * Every value is checked whole: decimal digits only (no sign, space or trailing junk), an optional
 * k/K, m/M, g/G suffix (x 2^10, 2^20, 2^30) where a size is expected, no overflow, within the
 * variable's range. A refused value gives one line in why: `NAME=VALUE: ACCEPTED FORM` (VALUE cut
 * at 64 bytes, control characters shown as '?'). */
#ifndef LTT_RECORDER_ENV_PARSE_H
#define LTT_RECORDER_ENV_PARSE_H

#include <stddef.h>
#include <stdint.h>

enum ltt_env_kind {
	LTT_ENV_COUNT,		/* a number */
	LTT_ENV_SIZE,		/* a number of bytes, suffixes allowed */
	LTT_ENV_SIZE_POW2,	/* ... a power of two */
	LTT_ENV_POW2,		/* a number, a power of two */
	LTT_ENV_BOOL,		/* 1 or 0 */
};

/* The numeric and boolean settings, indexes of ltt_env_vars[]. */
enum ltt_env_id {
	LTT_ENV_BLOCK_SIZE_ID, LTT_ENV_BLOCKS_ID, LTT_ENV_FLUSH_MS_ID, LTT_ENV_ROTATE_SIZE_ID,
	LTT_ENV_ROTATE_SECONDS_ID, LTT_ENV_MAX_SIZE_ID, LTT_ENV_CPU_SAMPLE_MS_ID, LTT_ENV_STACK_SAMPLE_HZ_ID,
	LTT_ENV_SNAPSHOT_MIN_INTERVAL_MS_ID, LTT_ENV_SNAPSHOT_KEEP_ID, LTT_ENV_SNAPSHOT_AT_EXIT_ID, LTT_ENV_RSEQ_ID,
	LTT_ENV_BUFFER_SIZE_ID, LTT_ENV_NVARS
};

struct ltt_env_var {
	const char *name;
	enum ltt_env_kind kind;
	uint64_t min, max;
	const char *form;	/* what is accepted, for the message */
};
extern const struct ltt_env_var ltt_env_vars[LTT_ENV_NVARS];

/* why = "NAME=VALUE: form" on one line (see above). */
void ltt_env_why(char *why, size_t n, const char *name, const char *value, const char *form);
/* Parses value as variable var: 0 and *out, or -EINVAL with why filled in. */
int ltt_env_parse(const struct ltt_env_var *var, const char *value, uint64_t *out, char *why, size_t n);
/* getenv() of variable id, then ltt_env_parse(): 1 and *out when set (non-empty), 0 when not set,
 * -EINVAL with why filled in. */
int ltt_env_get(enum ltt_env_id id, uint64_t *out, char *why, size_t n);

/* A signal from its number or name (SIGUSR1, USR1, SIGRTMIN+4, RTMIN+4): the number, or -1 for
 * anything else (SIGKILL and SIGSTOP included). LTT_SNAPSHOT_SIGNAL, LTT_STACK_SIGNAL,
 * LTT_PAUSE_SIGNAL. */
int ltt_signal_number(const char *v);

#endif
