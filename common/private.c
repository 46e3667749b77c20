/* SPDX-License-Identifier: MIT */
/* common/private.c: private traces and what is made of them (common/private.h). */
#include <errno.h>
#include <ftw.h>
#include <sys/stat.h>

#include "common/private.h"

int ltt_path_private(const char *path)
{
	struct stat st;

	return path && !stat(path, &st) && !(st.st_mode & 077);
}

static int make_private(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)ftw;
	if (type == FTW_SL || type == FTW_SLN)
		return 0;
	/* the directory first (FTW_PHYS, pre-order): nothing beneath it is reachable by others meanwhile */
	if (chmod(path, S_ISDIR(st->st_mode) ? 0700 : 0600))
		return errno;
	return 0;
}

int ltt_tree_private(const char *path)
{
	int rc = nftw(path, make_private, 16, FTW_PHYS);

	return rc > 0 ? -rc : rc < 0 ? -errno : 0;
}
