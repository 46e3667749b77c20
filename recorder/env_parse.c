/* SPDX-License-Identifier: MIT */
/* recorder/env_parse.c: libltt's reading of its numeric LTT_* settings (recorder/env_parse.h); the
 * parsers and the table are common/settings.c, shared with `ltt record`. */
#include <errno.h>
#include <stdlib.h>

#include "env_parse.h"

int ltt_env_get(enum ltt_env_id id, uint64_t *out, char *why, size_t n)
{
	const char *v = secure_getenv(ltt_env_vars[id].name);

	if (!v || !*v)
		return 0;
	return ltt_env_parse(&ltt_env_vars[id], v, out, why, n) ? -EINVAL : 1;
}
