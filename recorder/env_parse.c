/* SPDX-License-Identifier: MIT */
/* recorder/env_parse.c: the parsers of the LTT_* settings (recorder/env_parse.h). No state: called
 * by ltt_start()'s checks and by tests/fuzz/fuzz_env.c. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/parse.h"
#include "env_parse.h"

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
	[LTT_ENV_CPU_SAMPLE_MS_ID] = { "LTT_CPU_SAMPLE_MS", LTT_ENV_COUNT, 0, UINT32_MAX,
				       "not a number of milliseconds in [0, 4294967295]" },
	[LTT_ENV_STACK_SAMPLE_HZ_ID] = { "LTT_STACK_SAMPLE_HZ", LTT_ENV_COUNT, 0, UINT32_MAX,
					 "not a number of samples per second in [0, 4294967295]" },
	[LTT_ENV_SNAPSHOT_MIN_INTERVAL_MS_ID] = { "LTT_SNAPSHOT_MIN_INTERVAL_MS", LTT_ENV_COUNT, 0, 86400000,
						  "not a number of ms in [0, 86400000]" },
	[LTT_ENV_SNAPSHOT_KEEP_ID] = { "LTT_SNAPSHOT_KEEP", LTT_ENV_COUNT, 0, 1000000,
				       "not a count in [0, 1000000] (0: all)" },
	[LTT_ENV_SNAPSHOT_AT_EXIT_ID] = { "LTT_SNAPSHOT_AT_EXIT", LTT_ENV_BOOL, 0, 1, "not 1 or 0" },
	/* checked here, read by recorder/rseq.c (0: the locked path) */
	[LTT_ENV_RSEQ_ID] = { "LTT_RSEQ", LTT_ENV_BOOL, 0, 1, "not 1 or 0" },
	[LTT_ENV_BUFFER_SIZE_ID] = { "LTT_BUFFER_SIZE", LTT_ENV_SIZE, 128u << 10, 1ull << 40,
				     "not a size in [128k, 1T] (bytes, k/M/G suffixes)" },
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

int ltt_env_get(enum ltt_env_id id, uint64_t *out, char *why, size_t n)
{
	const char *v = getenv(ltt_env_vars[id].name);

	if (!v || !*v)
		return 0;
	return ltt_env_parse(&ltt_env_vars[id], v, out, why, n) ? -EINVAL : 1;
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
