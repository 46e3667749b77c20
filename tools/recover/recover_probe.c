/* SPDX-License-Identifier: MIT */
/* recover_probe.c: what a ring file left under LTT_SHM_DIR is, and whether its process still runs
 * (pid and start time, field 22 of /proc/PID/stat). */
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/io.h"
#include "common/proc.h"
#include "common/snapshot_registry.h"
#include "recorder/shm_layout.h"
#include "recover.h"

int recover_probe(const char *path, struct recover_file_info *info)
{
	struct ltt_region rg;
	const struct ltt_shm_meta *m = (const struct ltt_shm_meta *)(const void *)rg.reserved;
	struct stat st;
	ssize_t r;
	int fd;

	memset(info, 0, sizeof(*info));
	info->state = RECOVER_BAD;
	/* a regular file only, opened O_NONBLOCK: a FIFO put in the (world-writable) directory never
	 * hangs the listing */
	fd = ltt_open_regular(path, 0, &st);
	if (fd == -LTT_ENOTREG) {
		snprintf(info->why, sizeof(info->why), "not a regular file");
		return 0;
	}
	if (fd < 0)
		return fd;
	r = pread(fd, &rg, sizeof(rg), 0);
	close(fd);
	if (r != (ssize_t)sizeof(rg)) {
		snprintf(info->why, sizeof(info->why), "offset 0: shorter than a ring file header");
		return 0;
	}
	if (memcmp(rg.magic, LTT_REGION_MAGIC, sizeof(rg.magic)) || rg.version != 1) {
		snprintf(info->why, sizeof(info->why), "offset 0: not an ltt ring file (magic or version)");
		return 0;
	}
	if (memcmp(m->magic, LTT_SHM_MAGIC, sizeof(m->magic))) {
		snprintf(info->why, sizeof(info->why), "offset %zu: no recovery metadata (the process died "
			 "while starting)", offsetof(struct ltt_region, reserved));
		return 0;
	}
	info->pid = rg.pid;
	memcpy(info->program, m->program, sizeof(m->program));
	info->program[sizeof(m->program)] = 0;
	info->ncpu = rg.ncpu;
	info->block_size = rg.block_size;
	info->blocks = rg.blocks;
	info->size = (uint64_t)st.st_size;
	info->start_ticks = m->start_ticks;
	info->uid = (unsigned)st.st_uid;
	if (rg.pid > 0 && m->start_ticks && ltt_proc_alive(rg.pid, m->start_ticks) == 1)
		info->state = RECOVER_RUNNING;
	else if (m->state == LTT_SHM_STOPPED)
		info->state = RECOVER_STOPPED;
	else
		info->state = RECOVER_DEAD;
	return 0;
}

int recover_forget_registry(const struct recover_file_info *info)
{
	char dirs[2][PATH_MAX], name[32];
	struct ltt_snapreg_entry *e;
	int nd, removed = 0;

	if (info->state != RECOVER_DEAD || info->pid <= 0 || !info->start_ticks)
		return 0;
	e = malloc(sizeof(*e));
	if (!e)
		return 0;
	snprintf(name, sizeof(name), "flight-%d", info->pid);
	nd = ltt_snapreg_dirs((uid_t)info->uid, dirs);
	for (int k = 0; k < nd && !removed; k++) {
		/* only the ring file owner's own directory and file: another user's are left alone */
		int dfd = ltt_snapreg_open_dir(dirs[k], (uid_t)info->uid, NULL, 0);

		if (dfd < 0)
			continue;
		if (!ltt_snapreg_read(dfd, info->pid, (uid_t)info->uid, e, NULL, 0) && e->start == info->start_ticks)
			removed = unlinkat(dfd, name, 0) == 0;
		close(dfd);
	}
	free(e);
	return removed;
}
