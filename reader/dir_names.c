/* SPDX-License-Identifier: MIT */
/* rd_dir_names: the names of a directory's entries, sorted (so that what is read from them, and the
 * problems found, come out in a stable order): the trace's tracefiles and its eventdefs. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"
#include "reader_internal.h"

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int rd_dir_names(DIR *d, const char *suffix, char ***names, size_t *n)
{
	size_t slen = suffix ? strlen(suffix) : 0, cap = 0;
	struct dirent *de;
	int ret = 0;

	*names = NULL;
	*n = 0;
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);

		if (de->d_name[0] == '.' || (suffix && (l <= slen || strcmp(de->d_name + l - slen, suffix))))
			continue;
		if (LTT_GROW(*names, *n + 1, cap) || !((*names)[*n] = strdup(de->d_name))) {
			ret = -ENOMEM;
			break;
		}
		++*n;
	}
	if (*names)
		qsort(*names, *n, sizeof(**names), cmp_name);
	return ret;
}

void rd_dir_names_free(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}
