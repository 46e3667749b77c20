/* SPDX-License-Identifier: MIT */
/* ltt record: what is left of a flight-mode program that ended without stopping its trace (killed by
 * SIGKILL, SIGTERM or another signal it does not handle): its `ltt snapshot` registry entry, which
 * nothing else removes, goes; and when its rings are in a file (LTT_SHM_DIR), one line says that
 * `ltt recover` of that file is what can give its history (doc/flight-recorder.md "Recovery"). */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/snapshot_registry.h"
#include "recorder/shm_layout.h"
#include "after.h"

void record_after(pid_t pid, const char *out, const char *prog)
{
	char dirs[2][PATH_MAX], real[PATH_MAX], suffix[32];
	struct ltt_snapreg_entry *e = calloc(1, sizeof(*e));
	const char *shm = getenv("LTT_SHM_DIR");
	int nd = ltt_snapreg_dirs(getuid(), dirs);
	DIR *d;
	struct dirent *de;

	/* the program is reaped: an entry for its pid naming the trace ltt record asked for is its */
	if (e && out && realpath(out, real))
		for (int k = 0; k < nd; k++) {
			int dfd = ltt_snapreg_open_dir(dirs[k], getuid(), NULL, 0);
			char name[32];

			if (dfd < 0)
				continue;
			snprintf(name, sizeof(name), "flight-%d", (int)pid);
			/* out is the trace, or the directory libltt made it in */
			if (!ltt_snapreg_read(dfd, (int)pid, getuid(), e, NULL, 0) &&
			    !strncmp(e->path, real, strlen(real)) && (!e->path[strlen(real)] || e->path[strlen(real)] == '/'))
				unlinkat(dfd, name, 0);
			close(dfd);
		}
	free(e);
	if (!shm || !*shm || !(d = opendir(shm)))
		return;
	snprintf(suffix, sizeof(suffix), "-%d" LTT_SHM_SUFFIX, (int)pid);
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name), m = strlen(suffix);

		if (n > m + strlen(LTT_SHM_PREFIX) && !strncmp(de->d_name, LTT_SHM_PREFIX, strlen(LTT_SHM_PREFIX)) &&
		    !strcmp(de->d_name + n - m, suffix))
			fprintf(stderr, "ltt record: %s ended without writing its last snapshot; its rings are in "
				"%s/%s: ltt recover %s/%s -o TRACE\n", prog, shm, de->d_name, shm, de->d_name);
	}
	closedir(d);
}
