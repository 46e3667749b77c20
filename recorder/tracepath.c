/* SPDX-License-Identifier: MIT */
/* recorder/tracepath.c: where a trace goes (LTT_TRACE=PATH, ltt_options.path), the rule of
 * doc/recorder.md "Where the trace goes":
 *  - PATH ending in '/', or an existing directory that is not a trace: a new trace beneath it,
 *    PATH/PROGRAM-PID-YYYYMMDDTHHMMSS (-2, -3, ... if taken; the name never starts with '.');
 *  - PATH that does not exist: PATH is the trace;
 *  - PATH an existing trace: never overwritten nor mixed into; the trace is PATH.1 (PATH.2, ... the
 *    first free), and the caller says so on stderr;
 *  - a trace is never made inside another trace: PATH below one is refused. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "recorder.h"

/* mkdir -p of path's parents (EEXIST is not an error). */
static int mkparents(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(path, 0777) && errno != EEXIST) {
			int e = -errno;

			*p = '/';
			return e;
		}
		*p = '/';
	}
	return 0;
}

int ltt_program_name(char *buf, size_t n)
{
	FILE *f = fopen("/proc/self/comm", "re");
	int rc = 0;

	snprintf(buf, n, "prog");
	if (!f)
		return -errno;
	if (!fgets(buf, (int)n, f))
		rc = -EIO;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	for (char *p = buf; *p; p++)
		if (*p == '/' || *p == ' ')
			*p = '_';
	if (!buf[0])
		snprintf(buf, n, "prog");
	return rc;
}

/* de is what only a trace's top directory holds: directories snapshot-N..., chunk-N..., the file
 * chunks-removed */
static int trace_entry(const struct dirent *de)
{
	const char *name = de->d_name;
	int dir = de->d_type == DT_DIR || de->d_type == DT_UNKNOWN;

	if (!strncmp(name, "snapshot-", 9))
		return dir && name[9] >= '0' && name[9] <= '9';
	if (!strncmp(name, "chunk-", 6))
		return dir && name[6] >= '0' && name[6] <= '9';
	return !strcmp(name, "chunks-removed");
}

/* dir is a trace: info/system.xml, control/ or cpu/ (a trace, the top of a flight trace), or
 * snapshot-NNNN/, chunk-NNNN/ directories (a flight or rotating trace's top; reader/capture.c). */
static int is_trace(const char *dir)
{
	static const char *const marks[] = { "info/system.xml", "control", "cpu" };
	char p[PATH_MAX];
	struct dirent *de;
	DIR *d;
	int found = 0;

	for (unsigned i = 0; i < sizeof(marks) / sizeof(marks[0]); i++)
		if ((size_t)snprintf(p, sizeof(p), "%s/%s", dir, marks[i]) < sizeof(p) && access(p, F_OK) == 0)
			return 1;
	d = opendir(dir);
	if (!d)
		return 0;
	while (!found && (de = readdir(d)))
		found = trace_entry(de);
	closedir(d);
	return found;
}

/* Drops the last component of the absolute path p ("/a/b" -> "/a", "/a" -> "/"); 0 at "/". */
static int up(char *p)
{
	char *s = strrchr(p, '/');

	if (!s || !p[1])
		return 0;
	if (s == p)
		s[1] = 0;
	else
		*s = 0;
	return 1;
}

/* The trace that holds path (an ancestor of it that is a trace; path resolved as far as it exists)
 * into out: 1, else 0. */
static int inside_trace(const char *path, char *out, size_t outlen)
{
	char p[PATH_MAX], real[PATH_MAX];
	int self = 1;	/* real is path itself, not yet an ancestor */

	snprintf(p, sizeof(p), "%s", path);
	while (!realpath(p, real)) {
		char *s = strrchr(p, '/');

		self = 0;
		if (s == p) {
			snprintf(real, sizeof(real), "/");
			break;
		}
		if (!s) {
			if (!getcwd(real, sizeof(real)))
				return 0;
			break;
		}
		*s = 0;
	}
	if (self && !up(real))
		return 0;
	do {
		if (is_trace(real)) {
			snprintf(out, outlen, "%s", real);
			return 1;
		}
	} while (up(real));
	return 0;
}

/* Makes directory path if it does not exist: 0 made, 1 taken already, or a negative errno. */
static int make_new(const char *path)
{
	if (mkdir(path, LTT_TRACE_DIR_MODE) == 0)
		return 0;
	return errno == EEXIST ? 1 : -errno;
}

/* A new directory out = dir/PROGRAM-PID-TIME (-2, -3, ... when taken). */
static int make_beneath(const char *dir, char *out, size_t outlen)
{
	char prog[64], stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	int slash = !strcmp(dir, "/");

	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%S", &tm);
	ltt_program_name(prog, sizeof(prog));
	if (prog[0] == '.')
		prog[0] = '_';	/* never a hidden directory */
	for (unsigned i = 1; i < 1000; i++) {
		size_t n = i == 1 ? (size_t)snprintf(out, outlen, "%s%s%s-%d-%s", dir, slash ? "" : "/", prog,
						     (int)getpid(), stamp)
				  : (size_t)snprintf(out, outlen, "%s%s%s-%d-%s-%u", dir, slash ? "" : "/", prog,
						     (int)getpid(), stamp, i);
		int r;

		if (n >= outlen)
			return -ENAMETOOLONG;
		if ((r = make_new(out)) <= 0)
			return r;
	}
	return -EEXIST;
}

/* A new directory out = base.N, the first N from 1 not taken. */
static int make_numbered(const char *base, char *out, size_t outlen)
{
	for (unsigned i = 1; i < 100000; i++) {
		int r;

		if ((size_t)snprintf(out, outlen, "%s.%u", base, i) >= outlen)
			return -ENAMETOOLONG;
		if ((r = make_new(out)) <= 0)
			return r;
	}
	return -EEXIST;
}

int ltt_tracepath_make(const char *path, char *out, size_t outlen, char *taken, size_t takenlen, char *why,
		       size_t whylen)
{
	char base[PATH_MAX], outer[PATH_MAX];
	struct stat st;
	size_t n;
	int beneath, rc;

	taken[0] = 0;
	if (!path || !*path)
		return -EINVAL;
	n = strlen(path);
	if (n >= sizeof(base))
		return -ENAMETOOLONG;
	beneath = path[n - 1] == '/';
	while (n > 1 && path[n - 1] == '/')
		n--;
	memcpy(base, path, n);
	base[n] = 0;
	if (inside_trace(base, outer, sizeof(outer))) {
		snprintf(why, whylen, "%s: inside the trace %s (a trace is never written into another); give a "
			 "path outside it", path, outer);
		return -EEXIST;
	}
	if (stat(base, &st) == 0) {
		if (!S_ISDIR(st.st_mode)) {
			snprintf(why, whylen, "%s: exists and is not a directory; give a new path or a directory "
				 "to write the trace beneath", path);
			return -ENOTDIR;
		}
		if (!is_trace(base))
			return make_beneath(base, out, outlen);
	} else if (errno != ENOENT) {
		return -errno;
	} else {
		if ((size_t)snprintf(out, outlen, "%s", base) >= outlen)
			return -ENAMETOOLONG;
		rc = mkparents(out);
		if (rc)
			return rc;
		if (beneath) {
			if (mkdir(out, 0777) && errno != EEXIST)
				return -errno;
			return make_beneath(base, out, outlen);
		}
		if (mkdir(out, LTT_TRACE_DIR_MODE) == 0)
			return 0;
		if (errno != EEXIST)
			return -errno;
		/* made by another process since the stat: its trace; never mixed into */
	}
	/* an existing trace: PATH.N beside it, PATH resolved ("." names the directory's own name) */
	if (realpath(base, outer))
		snprintf(base, sizeof(base), "%s", outer);
	rc = make_numbered(base, out, outlen);
	if (!rc)
		snprintf(taken, takenlen, "%s", base);
	return rc;
}
