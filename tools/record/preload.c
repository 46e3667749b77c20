/* SPDX-License-Identifier: MIT */
/* tools/record/preload.c: LD_PRELOAD of libltt.so for a program not linked with it (preload.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/io.h"
#include "preload.h"

/* prog as execvp finds it: a name without '/' is looked up in PATH. */
static int resolve(const char *prog, char *out, size_t n)
{
	const char *path = getenv("PATH"), *p;

	if (strchr(prog, '/'))
		return snprintf(out, n, "%s", prog) < (int)n ? 0 : -ENAMETOOLONG;
	for (p = path ? path : "/usr/local/bin:/usr/bin:/bin"; *p;) {
		size_t len = strcspn(p, ":");

		if (snprintf(out, n, "%.*s%s%s", (int)len, p, len ? "/" : "", prog) < (int)n &&
		    !access(out, X_OK))
			return 0;
		p += len;
		if (*p == ':')
			p++;
	}
	return -ENOENT;
}

/* Whether the file of prog holds one of the byte strings needle[i] (len[i] bytes): 1, 0, or -errno.
 * The dynamic section's DT_NEEDED strings and the symbol names live in the file's string tables: a
 * byte search finds them without parsing the ELF file (a false positive only costs the preload or the
 * advice). */
static int prog_holds(const char *prog, const char *const *needle, const size_t *len, unsigned n)
{
	char path[PATH_MAX];
	struct stat st;
	void *m;
	int fd, found = 0, rc = resolve(prog, path, sizeof(path));

	if (rc)
		return rc;
	fd = ltt_open_regular(path, 0, &st);
	if (fd < 0)
		return fd;
	if (!st.st_size) {
		close(fd);
		return 0;
	}
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return -errno;
	for (unsigned i = 0; i < n && !found; i++)
		found = memmem(m, (size_t)st.st_size, needle[i], len[i]) != NULL;
	munmap(m, (size_t)st.st_size);
	return found;
}

int preload_linked(const char *prog)
{
	static const char *const names[] = { "libltt.so", "ltt_facility_register" };
	static const size_t len[] = { 9, 22 };	/* any libltt.so.N; the symbol with its NUL */

	return prog_holds(prog, names, len, 2);
}

int preload_hooks(const char *prog)
{
	static const char *const hooks[] = { "mcount", "__fentry__", "__cyg_profile_func_enter" };
	static const size_t len[] = { 7, 11, 25 };	/* with their NUL */

	int pg = prog_holds(prog, hooks, len, 2), cyg;

	if (pg < 0)
		return pg;
	cyg = prog_holds(prog, hooks + 2, len + 2, 1);
	if (cyg < 0)
		return cyg;
	return (pg ? PRELOAD_HOOK_PG : 0) | (cyg ? PRELOAD_HOOK_CYG : 0);
}

int preload_library(char *out, size_t n, char *why, size_t whylen)
{
	char exe[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (len <= 0) {
		snprintf(why, whylen, "/proc/self/exe: %s", strerror(errno));
		return -ENOENT;
	}
	exe[len] = 0;
	slash = strrchr(exe, '/');
	if (slash)
		*slash = 0;
	if (snprintf(out, n, "%s/../lib/libltt.so.1", exe) >= (int)n || access(out, R_OK)) {
		snprintf(why, whylen, "%s/../lib/libltt.so.1: not found (libltt.so is installed beside the ltt "
			 "command's bin/ in lib/)", exe);
		return -ENOENT;
	}
	return 0;
}

int preload_set(const char *lib)
{
	const char *old = getenv("LD_PRELOAD");
	char *v;
	int rc;

	if (old && *old)
		rc = asprintf(&v, "%s:%s", lib, old);
	else
		rc = asprintf(&v, "%s", lib);
	if (rc < 0)
		return -ENOMEM;
	rc = setenv("LD_PRELOAD", v, 1) ? -errno : 0;
	free(v);
	return rc;
}
