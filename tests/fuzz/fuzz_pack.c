/* SPDX-License-Identifier: MIT */
/* libFuzzer target: safe extraction of packed traces. The input is a tar stream, gzip'd here (or, when
 * its first byte is odd, the archive file itself, to reach the gzip layer too) and extracted with
 * ltt_archive_unpack_private. Extraction must never crash, hang or leak; a failure names the archive
 * and leaves nothing behind; a success yields only directories and regular files of the trace
 * layout, within the size limit. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>

#include "reader/archive.h"
#include "reader/manifest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char base[64], tmp[96], file[96];

static int entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	if (!d)
		return -1;
	while ((de = readdir(d)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	return n;
}

static void cleanup(void)
{
	unlink(file);
	rmdir(tmp);
	rmdir(base);
}

static void setup(void)
{
	/* Memory-backed when possible: every run writes and extracts a few files. */
	snprintf(base, sizeof(base), "%s/ltt-fuzz-pack-%d", access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm",
		 (int)getpid());
	snprintf(tmp, sizeof(tmp), "%s/tmp", base);
	snprintf(file, sizeof(file), "%s/in.tar.gz", base);
	mkdir(base, 0700);
	mkdir(tmp, 0700);
	setenv("TMPDIR", tmp, 1);
	setenv("LTT_UNPACK_MAX", "1M", 1);
	atexit(cleanup);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ltt_layout l;
	char err[1024], *dir = NULL;
	int ret;

	if (!base[0])
		setup();
	if (size && (data[0] & 1)) {
		FILE *f = fopen(file, "wb");

		if (!f || fwrite(data + 1, 1, size - 1, f) != size - 1)
			abort();
		fclose(f);
	} else {
		gzFile g = gzopen(file, "wb1");

		if (!g || (size > 1 && gzwrite(g, data + 1, (unsigned)(size - 1)) != (int)(size - 1)))
			abort();
		gzclose(g);
	}
	ret = ltt_archive_unpack_private(file, &dir, err, sizeof(err));
	if (ret) {
		if (dir || strncmp(err, file, strlen(file)) || entries(tmp) != 0)
			abort();	/* named, and nothing left */
		return 0;
	}
	/* Everything extracted is part of the layout: a strict listing accepts it. */
	if (ltt_layout_list(dir, LTT_LAYOUT_STRICT, &l, err, sizeof(err)))
		abort();
	if (l.file_bytes > (1u << 20))
		abort();
	ltt_layout_free(&l);
	ltt_archive_remove_private(dir);
	if (entries(tmp) != 0)
		abort();
	return 0;
}
