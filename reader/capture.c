/* SPDX-License-Identifier: MIT */
/* reader/capture.c: what a path given to a reader holds (doc/reader.md "Captures", doc/format.md
 * section 1): a trace, the top directory of a flight-recorder trace (its snapshot-NNNN/ traces), or a
 * chunked capture (its chunk-NNNN/ traces, in order). Expands it into the traces to read. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/grow.h"
#include "common/io.h"
#include "reader_internal.h"

struct entry {
	char *name;
	uint64_t number;
	int part;
};

static int is_dir(const char *dir, const char *name)
{
	char p[4096];
	struct stat st;

	if ((size_t)snprintf(p, sizeof(p), "%s/%s", dir, name) >= sizeof(p))
		return 0;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* PREFIX-NNNN (4 or more decimal digits) or PREFIX-NNNN.part: 1 and *number, *part; else 0. */
static int parse_name(const char *name, const char *prefix, uint64_t *number, int *part)
{
	size_t pl = strlen(prefix), nd;
	const char *s = name + pl;

	if (strncmp(name, prefix, pl))
		return 0;
	nd = strspn(s, "0123456789");
	if (nd < 4 || nd > 18)
		return 0;
	if (s[nd] && strcmp(s + nd, ".part"))
		return 0;
	*number = strtoull(s, NULL, 10);
	*part = s[nd] != 0;
	return 1;
}

static int cmp_entry(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	if (x->number != y->number)
		return x->number < y->number ? -1 : 1;
	return x->part - y->part;
}

static char *join(const char *dir, const char *name)
{
	size_t n = strlen(dir);
	char *p;

	while (n > 1 && dir[n - 1] == '/')	/* "t/" names "t/chunk-0001", not "t//chunk-0001" */
		n--;
	p = malloc(n + strlen(name) + 2);
	if (p)
		sprintf(p, "%.*s/%s", (int)n, dir, name);
	return p;
}

static int push(char ***v, unsigned *n, char *s)
{
	char **nv;

	if (!s)
		return -ENOMEM;
	nv = realloc(*v, (*n + 1) * sizeof(*nv));
	if (!nv) {
		free(s);
		return -ENOMEM;
	}
	nv[(*n)++] = s;
	*v = nv;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* TRACE/chunks-removed: lines "chunk-NNNN removed BYTES" written when the size bound removed a chunk.
 * Opened without blocking and read only when it is a regular file (a FIFO put there never hangs the
 * reader). Only the chunks listed are removed ones: *list gets their numbers, sorted, each once
 * (NULL when none). */
static void read_removed(struct ltt_capture *l, const char *dir, uint64_t **list)
{
	char p[4096], line[256];
	uint64_t *v = NULL;
	size_t n = 0, cap = 0;
	struct stat st;
	FILE *f = NULL;
	int fd;

	*list = NULL;
	if ((size_t)snprintf(p, sizeof(p), "%s/chunks-removed", dir) >= sizeof(p))
		return;
	fd = ltt_open_regular(p, 0, &st);	/* common/io.h: O_NONBLOCK, a regular file only */
	if (fd < 0)
		return;
	if (!(f = fdopen(fd, "r"))) {
		close(fd);
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned long long num, bytes;

		if (sscanf(line, "chunk-%llu removed %llu", &num, &bytes) != 2)
			continue;
		if (LTT_GROW(v, n + 1, cap))
			break;
		v[n++] = num;
		l->removed_bytes += bytes;
	}
	fclose(f);
	if (!n) {
		free(v);
		return;
	}
	qsort(v, n, sizeof(*v), cmp_u64);
	l->nremoved = 1;
	for (size_t i = 1; i < n; i++)
		if (v[i] != v[l->nremoved - 1])
			v[l->nremoved++] = v[i];
	l->first_removed = v[0];
	l->last_removed = v[l->nremoved - 1];
	*list = v;
}

/* Is chunk number n listed as removed by the bound? */
static int removed(const struct ltt_capture *l, const uint64_t *list, uint64_t n)
{
	return list && bsearch(&n, list, l->nremoved, sizeof(*list), cmp_u64) != NULL;
}

static int expand(struct ltt_capture *l, const char *dir, unsigned flags, struct entry *e, size_t n,
		  char *err, size_t errlen)
{
	int chunks = l->kind == LTT_CAPTURE_CHUNKS, ret = 0;
	uint64_t expect;
	size_t last = n;

	qsort(e, n, sizeof(*e), cmp_entry);
	for (size_t i = 0; i < n; i++)
		if (!e[i].part)
			last = i;
	if (chunks) {
		uint64_t *list;

		read_removed(l, dir, &list);
		expect = 1;
		for (size_t i = 0; i < n && !ret; i++) {
			/* the first run of chunks before this one neither present nor listed (steps over
			 * the listed numbers only: a huge chunk number costs nothing) */
			if (!l->nmissing && e[i].number > expect) {
				uint64_t k = expect, next = e[i].number;

				while (k < e[i].number && removed(l, list, k))
					k++;
				for (unsigned j = 0; j < l->nremoved; j++)
					if (list[j] > k && list[j] < next)
						next = list[j];
				if (k < e[i].number) {
					l->first_missing = k;
					l->nmissing = next - k;
				}
			}
			if (e[i].number >= expect)
				expect = e[i].number + 1;
			if (e[i].part) {
				ret = push(&l->partial, &l->npartial, join(dir, e[i].name));
				if (!ret && (flags & LTT_CAPTURE_PARTIAL))
					ret = push(&l->traces, &l->ntraces, join(dir, e[i].name));
			} else {
				ret = push(&l->traces, &l->ntraces, join(dir, e[i].name));
			}
		}
		free(list);
	} else {
		for (size_t i = 0; i < n && !ret; i++) {
			if (e[i].part) {
				ret = push(&l->partial, &l->npartial, join(dir, e[i].name));
				continue;
			}
			l->nfound++;
			if ((flags & LTT_CAPTURE_ALL_SNAPSHOTS) || i == last)
				ret = push(&l->traces, &l->ntraces, join(dir, e[i].name));
		}
	}
	if (ret)
		rd_seterr(err, errlen, "%s: %s", l->path, strerror(-ret));
	else if (!l->ntraces && chunks)
		rd_seterr(err, errlen, "%s: chunked capture without a complete chunk (%s%s): nothing to read "
			  "yet (ltt dump --follow reads the chunk being written)", l->path,
			  l->npartial ? "only " : "none", l->npartial ? strrchr(l->partial[0], '/') + 1 : "");
	else if (!l->ntraces)
		rd_seterr(err, errlen, "%s: flight-recorder trace without a complete snapshot (%s%s): none was "
			  "taken (killed, or LTT_SNAPSHOT_AT_EXIT=0; ltt recover rebuilds a dead process's trace)",
			  l->path, l->npartial ? "only the incomplete " : "none",
			  l->npartial ? strrchr(l->partial[0], '/') + 1 : "");
	if (!ret && !l->ntraces)
		ret = -ENOENT;
	if (chunks && l->nfound == 0)
		l->nfound = l->ntraces - (flags & LTT_CAPTURE_PARTIAL ? l->npartial : 0);
	return ret;
}

/* A directory without tracefiles, snapshots or chunks: 0 when it is no trace at all (the reader says
 * what is missing), else one line saying what is there. */
static int nothing(const char *path, char *err, size_t errlen)
{
	char p[4096], buf[8192];
	size_t n;
	FILE *f;

	if ((size_t)snprintf(p, sizeof(p), "%s/info/system.xml", path) >= sizeof(p) || !(f = fopen(p, "re")))
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	if (strstr(buf, "ltt_mode=\"flight\""))
		rd_seterr(err, errlen, "%s: flight-recorder trace without a snapshot: none was taken (killed, "
			  "or LTT_SNAPSHOT_AT_EXIT=0; ltt recover rebuilds a dead process's trace)", path);
	else
		rd_seterr(err, errlen, "%s: no tracefiles (no control/ or cpu/ files) and no snapshot-NNNN/ or "
			  "chunk-NNNN/ directories: not a trace?", path);
	return -ENOENT;
}

int ltt_capture_expand(const char *path, unsigned flags, struct ltt_capture **out, char *err, size_t errlen)
{
	struct ltt_capture *l;
	struct entry *e = NULL;
	size_t n = 0, cap = 0;
	unsigned nsnap = 0, nchunk = 0;
	struct dirent *de;
	DIR *d;
	int ret = 0;

	*out = NULL;
	l = calloc(1, sizeof(*l));
	if (!l || !(l->path = strdup(path))) {
		free(l);
		rd_seterr(err, errlen, "%s: %s", path, strerror(ENOMEM));
		return -ENOMEM;
	}
	l->kind = LTT_CAPTURE_TRACE;
	/* A trace (it has tracefiles), an archive or anything else that is not a layout: itself. */
	if (is_dir(path, "control") || is_dir(path, "cpu") || !(d = opendir(path)))
		goto itself;
	l->kind = LTT_CAPTURE_NONE;
	while ((de = readdir(d))) {
		uint64_t num;
		int part, chunk = 0;

		if (!parse_name(de->d_name, "snapshot-", &num, &part) &&
		    !(chunk = parse_name(de->d_name, "chunk-", &num, &part)))
			continue;
		if (!is_dir(path, de->d_name))
			continue;
		if (LTT_GROW(e, n + 1, cap)) {
			ret = -ENOMEM;
			break;
		}
		if (!(e[n].name = strdup(de->d_name))) {
			ret = -ENOMEM;
			break;
		}
		e[n].number = num;
		e[n].part = part;
		n++;
		chunk ? nchunk++ : nsnap++;
	}
	closedir(d);
	if (!ret && (nsnap || nchunk)) {
		if (nsnap && nchunk) {
			rd_seterr(err, errlen, "%s: holds both snapshot-NNNN and chunk-NNNN directories: "
				  "give one of them", path);
			ret = -EINVAL;
		} else {
			l->kind = nchunk ? LTT_CAPTURE_CHUNKS : LTT_CAPTURE_SNAPSHOTS;
			ret = expand(l, path, flags, e, n, err, errlen);
		}
	}
	for (size_t i = 0; i < n; i++)
		free(e[i].name);
	free(e);
	if (!ret && l->kind == LTT_CAPTURE_NONE)
		ret = nothing(path, err, errlen);
	if (!ret && l->kind == LTT_CAPTURE_NONE)
		goto itself;
	if (ret) {
		if (ret == -ENOMEM)
			rd_seterr(err, errlen, "%s: %s", path, strerror(ENOMEM));
		ltt_capture_free(l);
		return ret;
	}
	*out = l;
	return 0;
itself:
	ret = push(&l->traces, &l->ntraces, strdup(path));
	if (ret) {
		rd_seterr(err, errlen, "%s: %s", path, strerror(-ret));
		ltt_capture_free(l);
		return ret;
	}
	l->nfound = 1;
	*out = l;
	return 0;
}

void ltt_capture_free(struct ltt_capture *l)
{
	if (!l)
		return;
	for (unsigned i = 0; i < l->ntraces; i++)
		free(l->traces[i]);
	for (unsigned i = 0; i < l->npartial; i++)
		free(l->partial[i]);
	free(l->traces);
	free(l->partial);
	free(l->path);
	free(l);
}
