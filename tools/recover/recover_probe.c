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
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		int e = -errno;

		close(fd);
		return e;
	}
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
	char path[96], buf[PATH_MAX + 96], *nl, *end;
	unsigned long long start;

	if (info->state != RECOVER_DEAD || info->pid <= 0 || !info->start_ticks)
		return 0;
	snprintf(path, sizeof(path), "/tmp/ltt-%u/flight-%d", info->uid, info->pid);
	if (ltt_read_into(path, O_NOFOLLOW, buf, sizeof(buf)) < 0)
		return 0;
	/* "TRACE\nSIGNAL\nSTART\n": the start time is the third line */
	if (!(nl = strchr(buf, '\n')) || !(nl = strchr(nl + 1, '\n')))
		return 0;
	start = strtoull(nl + 1, &end, 10);
	if (end == nl + 1 || *end != '\n' || start != info->start_ticks)
		return 0;
	return unlink(path) == 0;
}
