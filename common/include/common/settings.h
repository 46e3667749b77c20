/* SPDX-License-Identifier: MIT */
/* common/settings.h: the one parser of the LTT_* settings (doc/recorder.md "Using it") and of the
 * `ltt record` options that set them: libltt reads the variables with it (recorder/env_parse.h adds
 * secure_getenv()), `ltt record` checks its option values and the variables it passes on with it
 * before the program starts (tools/record/), tests/fuzz/fuzz_env.c drives it. No state, libc only.
 *
 * Every value is checked whole: decimal digits only (no sign, space or trailing junk), an optional
 * k/K, m/M, g/G, t/T suffix (x 2^10, 2^20, 2^30, 2^40; "B" or "iB" may follow) where a size is expected
 * (common/parse.h), no overflow, within the variable's range; a boolean is exactly 1 or 0; a word is
 * one of the variable's words. A refused value gives one line in why: `NAME=VALUE: ACCEPTED FORM`
 * (VALUE cut at 64 bytes, control characters shown as '?'); `ltt record` names its option instead:
 * `--OPTION VALUE: ACCEPTED FORM`. */
#ifndef LTT_COMMON_SETTINGS_H
#define LTT_COMMON_SETTINGS_H

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
	LTT_ENV_BUFFER_SIZE_ID, LTT_ENV_WAITS_ID, LTT_ENV_WAITS_THRESHOLD_US_ID, LTT_ENV_KERNEL_BUFFER_ID,
	LTT_ENV_FUNCTIONS_DEPTH_ID, LTT_ENV_FUNCTIONS_MIN_NS_ID, LTT_ENV_VERBOSE_ID, LTT_ENV_BLOCKING_ID,
	LTT_ENV_FUNCTIONS_LIBCALL_ID, LTT_ENV_NVARS
};

struct ltt_env_var {
	const char *name;
	enum ltt_env_kind kind;
	uint64_t min, max;
	const char *form;	/* what is accepted, for the message */
};
extern const struct ltt_env_var ltt_env_vars[LTT_ENV_NVARS];

/* The settings whose value is one word of a list (LTT_MODE, LTT_IO, LTT_KERNEL_SCOPE) or a comma list
 * of words (LTT_KERNEL), indexes of ltt_env_words[]. */
enum ltt_env_word_id {
	LTT_ENV_MODE_ID, LTT_ENV_IO_ID, LTT_ENV_KERNEL_SCOPE_ID, LTT_ENV_KERNEL_ID, LTT_ENV_NWORDS
};
struct ltt_env_words {
	const char *name;
	const char *words[6];	/* NULL-terminated */
	int list;		/* a comma list of words (each once or more), not one word */
	const char *form;
};
extern const struct ltt_env_words ltt_env_words[LTT_ENV_NWORDS];

/* why = "NAME=VALUE: form" on one line (see above). */
void ltt_env_why(char *why, size_t n, const char *name, const char *value, const char *form);
/* Parses value as variable var: 0 and *out, or -EINVAL with why filled in. */
int ltt_env_parse(const struct ltt_env_var *var, const char *value, uint64_t *out, char *why, size_t n);
/* value as a word setting: the index of its word in words[] (a list: 0), or -EINVAL with why. */
int ltt_env_word(const struct ltt_env_words *var, const char *value, char *why, size_t n);
/* The numeric or word setting named name: 0 when value is one of its values (or name is not in either
 * table), -EINVAL with why filled in ("NAME=VALUE: form"). `ltt record` checks every LTT_* variable it
 * passes on with it. */
int ltt_env_check(const char *name, const char *value, char *why, size_t n);
/* The accepted form of setting name ("" when none). */
const char *ltt_env_form(const char *name);

/* A signal from its number or name (SIGUSR1, USR1, SIGRTMIN+4, RTMIN+4): the number, or -1 for
 * anything else (SIGKILL and SIGSTOP included). LTT_SNAPSHOT_SIGNAL, LTT_STACK_SIGNAL,
 * LTT_PAUSE_SIGNAL. */
int ltt_signal_number(const char *v);

#endif
