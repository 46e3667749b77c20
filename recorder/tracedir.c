/* SPDX-License-Identifier: MIT */
/* recorder/tracedir.c: the trace directory: its name, info/system.xml, eventdefs/ files
 * (doc/format.md sections 1 and 3). */
#include <errno.h>
#include <ftw.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "common/escape_xml.h"
#include "common/io.h"
#include "clock.h"
#include "kernel.h"
#include "recorder.h"

/* flight: only eventdefs/ and info/ (snapshots read them; the tracefiles are in the snapshot-NNNN/
 * directories, so the top-level directory has no control/ or cpu/ to look like an empty trace) */
static int make_sub(const char *dir, int kind)
{
	static const char *const subs[] = { "eventdefs", "info", "control", "cpu" };
	char p[PATH_MAX];

	/* chunks: nothing but the chunk-NNNN/ directories (recorder/rotate.c) */
	for (unsigned i = 0; i < (kind == LTT_DIR_CHUNKS ? 0u : kind == LTT_DIR_FLIGHT ? 2u : 4u); i++) {
		if ((size_t)snprintf(p, sizeof(p), "%s/%s", dir, subs[i]) >= sizeof(p))
			return -ENAMETOOLONG;
		if (mkdir(p, LTT_TRACE_DIR_MODE) && errno != EEXIST)
			return -errno;
	}
	return 0;
}

/* Removes a trace directory made by ltt_tracedir_make() for a start that failed: the files libltt
 * writes in it (eventdefs/, info/, control/, cpu/) and the directory itself; nothing else (a file the
 * user put there stays, and so does the directory then). */
static int rm_entry(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	if (flag == FTW_DP)
		rmdir(p);
	else if (flag == FTW_F || flag == FTW_SL)
		unlink(p);
	return 0;
}

void ltt_tracedir_remove(const char *dir)
{
	static const char *const subs[] = { "eventdefs", "info", "control", "cpu" };
	char p[PATH_MAX];

	for (unsigned i = 0; i < 4; i++)
		if ((size_t)snprintf(p, sizeof(p), "%s/%s", dir, subs[i]) < sizeof(p))
			nftw(p, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
	rmdir(dir);
}

int ltt_tracedir_make(const char *path, char *out, size_t outlen, int kind, int *created, char *taken,
		      size_t takenlen, char *why, size_t whylen)
{
	int rc = ltt_tracepath_make(path, out, outlen, taken, takenlen, why, whylen);

	*created = !rc;	/* the rule makes a new directory or none */
	return rc ? rc : make_sub(out, kind);
}

static void attr(FILE *f, const char *name, const char *value)
{
	fprintf(f, "%s=\"", name);
	ltt_xml_to_file(f, value, strlen(value));
	fputs("\"\n", f);
}

int ltt_tracedir_system_xml(const struct ltt_trace_state *t)
{
	return ltt_tracedir_system_xml_in(t, t->dir, t->chunk);
}

int ltt_tracedir_system_xml_in(const struct ltt_trace_state *t, const char *dir, unsigned chunk)
{
	char p[PATH_MAX], dom[256] = "(none)", prog[64], num[64];
	struct utsname u;
	FILE *f;
	int rc = 0;

	if ((size_t)snprintf(p, sizeof(p), "%s/info/system.xml", dir) >= sizeof(p))
		return -ENAMETOOLONG;
	rc = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, LTT_TRACE_FILE_MODE);
	f = rc < 0 ? NULL : fdopen(rc, "we");
	if (!f) {
		rc = -errno;
		return rc;
	}
	rc = 0;
	if (uname(&u))
		memset(&u, 0, sizeof(u));
	if (getdomainname(dom, sizeof(dom) - 1) || !dom[0])
		snprintf(dom, sizeof(dom), "(none)");
	ltt_program_name(prog, sizeof(prog));
	fputs("<system\n", f);
	attr(f, "node_name", u.nodename);
	attr(f, "domainname", dom);
	snprintf(num, sizeof(num), "%u", t->ncpu);
	attr(f, "cpu", num);
	attr(f, "arch_size", sizeof(long) == 8 ? (sizeof(int) == 8 ? "ILP64" : "LP64")
					       : (sizeof(int) == 4 ? "ILP32" : "LP32"));
	attr(f, "endian", __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? "little" : "big");
	attr(f, "kernel_name", u.sysname);
	attr(f, "kernel_release", u.release);
	attr(f, "kernel_version", u.version);
	attr(f, "machine", u.machine);
	attr(f, "processor", "unknown");
	attr(f, "hardware_platform", "unknown");
	attr(f, "operating_system", "GNU/Linux");
	attr(f, "ltt_major_version", "2");
	attr(f, "ltt_minor_version", "10");
	snprintf(num, sizeof(num), "%u", t->block_size);
	attr(f, "ltt_block_size", num);
	attr(f, "ltt_writer", "ltt " LTT_VERSION);
	attr(f, "ltt_clock", ltt_timemap.clock_name);
	snprintf(num, sizeof(num), "%llu", (unsigned long long)ltt_timemap.cycles_per_second);
	attr(f, "ltt_cycles_per_second", num);
	snprintf(num, sizeof(num), "%llu", (unsigned long long)ltt_timemap.start_cycles);
	attr(f, "ltt_start_cycles", num);
	snprintf(num, sizeof(num), "%llu.%09llu", (unsigned long long)(ltt_timemap.start_ns / 1000000000u),
		 (unsigned long long)(ltt_timemap.start_ns % 1000000000u));
	attr(f, "ltt_start_time", num);
	attr(f, "ltt_mode", t->mode == LTT_MODE_FLIGHT ? "flight" : "discard");
	attr(f, "ltt_program", prog);
	snprintf(num, sizeof(num), "%d", (int)getpid());
	attr(f, "ltt_pid", num);
	if (t->mode != LTT_MODE_FLIGHT) {
		/* what a reader following the trace waits for a quiet tracefile (doc/recorder.md) */
		snprintf(num, sizeof(num), "%d", t->flush_ms < 0 ? 0 : t->flush_ms ? t->flush_ms : LTT_DEFAULT_FLUSH_MS);
		attr(f, "ltt_flush_ms", num);
	}
	if (chunk) {
		snprintf(num, sizeof(num), "%u", chunk);
		attr(f, "ltt_chunk", num);
	}
	fputs(ltt_kernel_sysattrs(), f);	/* ltt_kernel* (doc/format.md section 13), or nothing */
	fputs(">\nltt trace of ", f);
	ltt_xml_to_file(f, prog, strlen(prog));
	fprintf(f, " (pid %d)\n</system>\n", (int)getpid());
	if (ferror(f))
		rc = -EIO;
	if (fclose(f) && !rc)
		rc = -errno;
	return rc;
}

/* Writes the file if it does not exist: 0 written or already there with the same text, 1 there with
 * another text, negative errno on failure. */
static int write_new(const char *p, const char *xml)
{
	size_t n = strlen(xml);
	int nl = !n || xml[n - 1] != '\n';
	char *buf;
	ssize_t r;
	int fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, LTT_TRACE_FILE_MODE), rc;

	if (fd >= 0) {
		rc = ltt_write_all(fd, xml, n);
		if (!rc && nl)
			rc = ltt_write_all(fd, "\n", 1);
		close(fd);
		return rc;
	}
	if (errno != EEXIST)
		return -errno;
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	buf = malloc(n + 2);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	r = read(fd, buf, n + 2);
	close(fd);
	rc = !(r == (ssize_t)(n + (size_t)nl) && !memcmp(buf, xml, n));
	free(buf);
	return rc;
}

int ltt_tracedir_facility_xml(const char *dir, const struct ltt_facility *fac)
{
	char p[PATH_MAX];
	int rc;

	if (!fac->xml)
		return 0;
	if (!fac->name[0] || fac->name[0] == '.' || strchr(fac->name, '/'))
		return -EINVAL;	/* the name makes the file name: never outside eventdefs/ */
	if ((size_t)snprintf(p, sizeof(p), "%s/eventdefs/%s.xml", dir, fac->name) >= sizeof(p))
		return -ENAMETOOLONG;
	rc = write_new(p, fac->xml);
	if (rc != 1)
		return rc;
	if ((size_t)snprintf(p, sizeof(p), "%s/eventdefs/%s.%08x.xml", dir, fac->name, fac->checksum) >=
	    sizeof(p))
		return -ENAMETOOLONG;
	rc = write_new(p, fac->xml);
	return rc == 1 ? 0 : rc;	/* same name and checksum: one file is enough */
}
