/* Packed traces: stub until the implementation lands (see archive.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "archive.h"

static void set_err(char *err, size_t errlen, const char *path)
{
	if (err && errlen)
		snprintf(err, errlen, "%s: packed traces are not supported yet", path);
}

int ltt_archive_is_packed(const char *path)
{
	(void)path;
	return 0;
}

int ltt_archive_unpack_private(const char *path, char **dir_out, char *err, size_t errlen)
{
	*dir_out = NULL;
	set_err(err, errlen, path);
	return -ENOSYS;
}

void ltt_archive_remove_private(char *dir)
{
	free(dir);
}

int ltt_manifest_verify(const char *trace_dir, char *err, size_t errlen)
{
	(void)trace_dir;
	(void)err;
	(void)errlen;
	return 0;
}

int ltt_archive_pack(const char *trace_dir, const char *out_path, const struct ltt_pack_options *opt,
		     char *err, size_t errlen)
{
	(void)out_path;
	(void)opt;
	set_err(err, errlen, trace_dir);
	return -ENOSYS;
}

int ltt_archive_unpack(const char *path, const char *target, const struct ltt_unpack_options *opt,
		       char *err, size_t errlen)
{
	(void)target;
	(void)opt;
	set_err(err, errlen, path);
	return -ENOSYS;
}

int ltt_archive_trace_name(const char *path, char **name_out, char *err, size_t errlen)
{
	*name_out = NULL;
	set_err(err, errlen, path);
	return -ENOSYS;
}
