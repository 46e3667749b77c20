/* SPDX-License-Identifier: MIT */
/* The names of generated columns (toolkit/colname.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "toolkit/colname.h"

static int leading(const char *name, const char *const *lead, unsigned nlead)
{
	for (unsigned i = 0; i < nlead; i++)
		if (!strcasecmp(name, lead[i]))
			return 1;
	return 0;
}

int colname_make(char *buf, size_t size, const char *flat, const char *const *lead, unsigned nlead,
		 int (*taken)(void *arg, const char *name), void *arg)
{
	char base[512];
	int n = snprintf(base, sizeof(base), "%s", flat);

	if (n < 0 || (size_t)n >= sizeof(base))
		return -ENAMETOOLONG;
	while (leading(base, lead, nlead)) {
		size_t len = strlen(base);

		if (len + 2 > sizeof(base))
			return -ENAMETOOLONG;
		base[len] = '_';
		base[len + 1] = 0;
	}
	n = snprintf(buf, size, "%s", base);
	if (n < 0 || (size_t)n >= size)
		return -ENAMETOOLONG;
	for (unsigned k = 2; taken(arg, buf) || leading(buf, lead, nlead); k++) {
		n = snprintf(buf, size, "%s_%u", base, k);
		if (n < 0 || (size_t)n >= size)
			return -ENAMETOOLONG;
	}
	return 0;
}
