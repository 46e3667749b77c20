/* SPDX-License-Identifier: MIT */
/* Which process a pid names (common/proc.h). */
#include <errno.h>
#include <string.h>

#include "common/io.h"
#include "common/proc.h"

int ltt_proc_id(int pid, struct ltt_proc_id *id)
{
	char path[48], buf[1024], *p;
	ssize_t r;
	uint64_t v = 0;
	unsigned field = 3;

	if (pid < 0)
		return -ESRCH;
	if (pid) {	/* "/proc/PID/stat" without snprintf (not async-signal-safe) */
		char digits[16], *d = digits + sizeof(digits);
		size_t n;

		*--d = '\0';
		for (unsigned u = (unsigned)pid; u; u /= 10)
			*--d = (char)('0' + u % 10);
		n = (size_t)(digits + sizeof(digits) - d);
		memcpy(path, "/proc/", 6);
		memcpy(path + 6, d, n - 1);
		memcpy(path + 6 + n - 1, "/stat", 6);
	} else {
		memcpy(path, "/proc/self/stat", sizeof("/proc/self/stat"));
	}
	r = ltt_read_into(path, 0, buf, sizeof(buf));
	if (r == -ENOENT)
		return -ESRCH;
	if (r < 0)
		return (int)r;
	/* "PID (COMM) S ...": the name may hold spaces and parentheses; the fields follow the last ')' */
	p = strrchr(buf, ')');
	if (!p || p[1] != ' ' || !p[2] || p[3] != ' ')
		return -EINVAL;
	id->state = p[2];
	for (p += 3; *p && field < 22; p++)
		if (*p == ' ')
			field++;
	if (field < 22 || *p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++)
		v = v * 10 + (uint64_t)(*p - '0');
	id->start = v;
	return 0;
}

int ltt_proc_alive(int pid, uint64_t start)
{
	struct ltt_proc_id id;
	int rc = ltt_proc_id(pid, &id);

	if (rc == -ESRCH)
		return 0;
	if (rc)
		return rc;
	return id.start == start && id.state != 'Z' && id.state != 'X';
}
