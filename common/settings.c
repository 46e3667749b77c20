/* SPDX-License-Identifier: MIT */
/* common/settings.c: the parsers of the LTT_* settings and their table (common/settings.h). No state:
 * called by libltt's start (recorder/env_parse.c), by `ltt record` before it runs the program, and by
 * tests/fuzz/fuzz_env.c. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/parse.h"
#include "common/settings.h"

#define VALUE_SHOWN	64	/* bytes of a refused value the message shows */

const struct ltt_env_var ltt_env_vars[LTT_ENV_NVARS] = {
	[LTT_ENV_BLOCK_SIZE_ID] = { "LTT_BLOCK_SIZE", LTT_ENV_SIZE_POW2, 4096, 256u << 20,
				    "not a power of two in [4096, 256M] (bytes, k/M suffixes)" },
	[LTT_ENV_BLOCKS_ID] = { "LTT_BLOCKS", LTT_ENV_POW2, 2, 65536, "not a power of two in [2, 65536]" },
	[LTT_ENV_FLUSH_MS_ID] = { "LTT_FLUSH_MS", LTT_ENV_COUNT, 0, 86400000,
				  "not a number of milliseconds in [0, 86400000]" },
	[LTT_ENV_ROTATE_SIZE_ID] = { "LTT_ROTATE_SIZE", LTT_ENV_SIZE, 1u << 20, UINT64_MAX,
				     "not a size of at least 1M (bytes, k/M/G suffixes)" },
	[LTT_ENV_ROTATE_SECONDS_ID] = { "LTT_ROTATE_SECONDS", LTT_ENV_COUNT, 1, 31536000,
					"not a number of seconds in [1, 31536000]" },
	[LTT_ENV_MAX_SIZE_ID] = { "LTT_MAX_SIZE", LTT_ENV_SIZE, 1, UINT64_MAX,
				  "not a size of at least 1 byte (bytes, k/M/G suffixes)" },
	/* the bounds of recorder/profile.h (LTT_CPU_SAMPLE_MS_MAX, LTT_STACK_HZ_MAX); 0: off */
	[LTT_ENV_CPU_SAMPLE_MS_ID] = { "LTT_CPU_SAMPLE_MS", LTT_ENV_COUNT, 0, 3600000,
				       "not a number of milliseconds in [0, 3600000] (0: off)" },
	[LTT_ENV_STACK_SAMPLE_HZ_ID] = { "LTT_STACK_SAMPLE_HZ", LTT_ENV_COUNT, 0, 100000,
					 "not a number of samples per second in [0, 100000] (0: off)" },
	[LTT_ENV_SNAPSHOT_MIN_INTERVAL_MS_ID] = { "LTT_SNAPSHOT_MIN_INTERVAL_MS", LTT_ENV_COUNT, 0, 86400000,
						  "not a number of ms in [0, 86400000]" },
	[LTT_ENV_SNAPSHOT_KEEP_ID] = { "LTT_SNAPSHOT_KEEP", LTT_ENV_COUNT, 0, 1000000,
				       "not a count in [0, 1000000] (0: all)" },
	[LTT_ENV_SNAPSHOT_AT_EXIT_ID] = { "LTT_SNAPSHOT_AT_EXIT", LTT_ENV_BOOL, 0, 1, "not 1 or 0" },
	/* checked here, read by recorder/rseq.c (0: the locked path) */
	[LTT_ENV_RSEQ_ID] = { "LTT_RSEQ", LTT_ENV_BOOL, 0, 1, "not 1 or 0" },
	[LTT_ENV_BUFFER_SIZE_ID] = { "LTT_BUFFER_SIZE", LTT_ENV_SIZE, 128u << 10, 1ull << 40,
				     "not a size in [128k, 1T] (bytes, k/M/G suffixes)" },
	[LTT_ENV_WAITS_ID] = { "LTT_WAITS", LTT_ENV_BOOL, 0, 1, "not 1 or 0" },
	[LTT_ENV_WAITS_THRESHOLD_US_ID] = { "LTT_WAITS_THRESHOLD_US", LTT_ENV_COUNT, 0, 3600000000ull,
					    "not a number of microseconds in [0, 3600000000]" },
	[LTT_ENV_KERNEL_BUFFER_ID] = { "LTT_KERNEL_BUFFER", LTT_ENV_SIZE_POW2, 8192, 1u << 30,
				       "not a power of two in [8k, 1G] (bytes, k/M/G suffixes)" },
	/* 1024: LTT_FUNC_DEPTH_MAX, the shadow stack's size (recorder/func_internal.h) */
	[LTT_ENV_FUNCTIONS_DEPTH_ID] = { "LTT_FUNCTIONS_DEPTH", LTT_ENV_COUNT, 1, 1024,
					 "not a count of calls in [1, 1024]" },
	[LTT_ENV_FUNCTIONS_MIN_NS_ID] = { "LTT_FUNCTIONS_MIN_NS", LTT_ENV_COUNT, 0, 1000000000000ull,
					  "not a number of nanoseconds in [0, 10^12]" },
	/* checked at start, read by recorder/control.c's start (1: say where the trace goes) */
	[LTT_ENV_VERBOSE_ID] = { "LTT_VERBOSE", LTT_ENV_BOOL, 0, 1, "not 1 or 0" },
	/* read by recorder/blocking.c (0: never block) */
	/* read by recorder/func.c (1, the default: library calls through the PLT with LTT_FUNCTIONS) */
	[LTT_ENV_FUNCTIONS_LIBCALL_ID] = { "LTT_FUNCTIONS_LIBCALL", LTT_ENV_BOOL, 0, 1, "not 1 or 0" },
	[LTT_ENV_BLOCKING_ID] = { "LTT_BLOCKING", LTT_ENV_COUNT, 0, 3600000,
				  "not a timeout in milliseconds in [0, 3600000] (0: never block)" },
};

const struct ltt_env_words ltt_env_words[LTT_ENV_NWORDS] = {
	[LTT_ENV_MODE_ID] = { "LTT_MODE", { "discard", "flight", NULL }, 0, "not discard or flight" },
	[LTT_ENV_IO_ID] = { "LTT_IO", { "buffered", "direct", NULL }, 0, "not buffered or direct" },
	[LTT_ENV_KERNEL_SCOPE_ID] = { "LTT_KERNEL_SCOPE", { "process", "system", NULL }, 0, "not process or system" },
	/* "1" and "default": sched,syscalls; "0": off (recorder/kernel_opts.c) */
	/* switch: the own threads' switch records alone (function tracing's time off the CPU) */
	[LTT_ENV_KERNEL_ID] = { "LTT_KERNEL", { "sched", "syscalls", "irq", "faults", "switch", NULL }, 1,
				"not a comma list of sched, syscalls, irq, faults, switch (or 1, default, 0)" },
};

void ltt_env_why(char *why, size_t n, const char *name, const char *value, const char *form)
{
	char shown[VALUE_SHOWN + 4];
	size_t k = 0;

	for (; value[k] && k < VALUE_SHOWN; k++) {
		unsigned char c = (unsigned char)value[k];

		shown[k] = c < 0x20 || c == 0x7f ? '?' : (char)c;
	}
	if (value[k])
		shown[k++] = '.', shown[k++] = '.', shown[k++] = '.';
	shown[k] = 0;
	snprintf(why, n, "%s=%s: %s", name, shown, form);
}

int ltt_env_parse(const struct ltt_env_var *var, const char *value, uint64_t *out, char *why, size_t n)
{
	uint64_t v;
	int sizes = var->kind == LTT_ENV_SIZE || var->kind == LTT_ENV_SIZE_POW2;
	int pow2 = var->kind == LTT_ENV_SIZE_POW2 || var->kind == LTT_ENV_POW2;

	if (var->kind == LTT_ENV_BOOL && strcmp(value, "1") && strcmp(value, "0"))
		goto bad;
	if ((sizes ? ltt_parse_size(value, &v) : ltt_parse_u64(value, &v)) || v < var->min || v > var->max || (pow2 && (v & (v - 1))))
		goto bad;
	*out = v;
	return 0;
bad:
	ltt_env_why(why, n, var->name, value, var->form);
	return -EINVAL;
}

int ltt_env_word(const struct ltt_env_words *var, const char *value, char *why, size_t n)
{
	const char *s = value;

	if (var->list && (!strcmp(value, "1") || !strcmp(value, "default") || !strcmp(value, "0")))
		return 0;
	do {
		size_t len = var->list ? strcspn(s, ",") : strlen(s);
		int i;

		for (i = 0; var->words[i]; i++)
			if (strlen(var->words[i]) == len && !strncmp(var->words[i], s, len))
				break;
		if (!var->words[i] || !len) {
			ltt_env_why(why, n, var->name, value, var->form);
			return -EINVAL;
		}
		if (!var->list)
			return i;
		s += len;
	} while (*s++ == ',');
	return 0;
}

int ltt_env_check(const char *name, const char *value, char *why, size_t n)
{
	uint64_t v;

	for (unsigned i = 0; i < LTT_ENV_NVARS; i++)
		if (!strcmp(ltt_env_vars[i].name, name))
			return ltt_env_parse(&ltt_env_vars[i], value, &v, why, n);
	for (unsigned i = 0; i < LTT_ENV_NWORDS; i++)
		if (!strcmp(ltt_env_words[i].name, name))
			return ltt_env_word(&ltt_env_words[i], value, why, n) < 0 ? -EINVAL : 0;
	return 0;
}

const char *ltt_env_form(const char *name)
{
	for (unsigned i = 0; i < LTT_ENV_NVARS; i++)
		if (!strcmp(ltt_env_vars[i].name, name))
			return ltt_env_vars[i].form;
	for (unsigned i = 0; i < LTT_ENV_NWORDS; i++)
		if (!strcmp(ltt_env_words[i].name, name))
			return ltt_env_words[i].form;
	return "";
}

int ltt_signal_number(const char *v)
{
	const char *name;
	uint64_t n;

	if (!v || !*v)
		return -1;
	if (ltt_parse_u64(v, &n)) {
		name = !strncmp(v, "SIG", 3) ? v + 3 : v;
		n = 0;
		for (int s = 1; s < NSIG; s++) {
			const char *abbrev = sigabbrev_np(s);

			if (abbrev && !strcmp(abbrev, name)) {
				n = (uint64_t)s;
				break;
			}
		}
		if (!n && !strncmp(name, "RTMIN+", 6)) {
			uint64_t k;

			if (!ltt_parse_u64(name + 6, &k) && k <= (uint64_t)(SIGRTMAX - SIGRTMIN))
				n = (uint64_t)SIGRTMIN + k;
		}
	}
	if (n == 0 || n >= NSIG || n == SIGKILL || n == SIGSTOP)
		return -1;
	return (int)n;
}
