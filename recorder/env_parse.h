/* SPDX-License-Identifier: MIT */
/* recorder/env_parse.h: libltt reads its LTT_* settings (doc/recorder.md "Using it") with the parsers
 * of common/settings.h, through secure_getenv(). Private to libltt. */
#ifndef LTT_RECORDER_ENV_PARSE_H
#define LTT_RECORDER_ENV_PARSE_H

#include "common/settings.h"

/* secure_getenv() of variable id, then ltt_env_parse(): 1 and *out when set (non-empty), 0 when not set,
 * -EINVAL with why filled in. */
int ltt_env_get(enum ltt_env_id id, uint64_t *out, char *why, size_t n);

#endif
