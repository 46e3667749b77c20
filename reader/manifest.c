/* SPDX-License-Identifier: MIT */
/* The trace layout and info/manifest.xml: listing a trace directory, writing, parsing and checking
 * manifests (doc/format.md sections 1 and 12). */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "common/escape_xml.h"
#include "common/grow.h"
#include "common/io.h"
#include "common/parse.h"
#include "reader/archive.h"
#include "manifest.h"
#include "reader/write_losses.h"
#include "xml.h"

__attribute__((format(printf, 3, 4)))
static void fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
}

/* ---- layout ---------------------------------------------------------------------------------- */

/* A file name ltt writes or accepts in eventdefs/ and control/: [A-Za-z0-9._+-], not starting with
 * a dot, at most 255 bytes. */
static int safe_name(const char *s, size_t len)
{
	if (len == 0 || len > 255 || s[0] == '.')
		return 0;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (!(c < 128 && (isalnum(c) || c == '.' || c == '_' || c == '-' || c == '+')))
			return 0;
	}
	return 1;
}

/* "0" or a decimal without a leading zero, at most 9 digits. */
static int cpu_name(const char *s)
{
	size_t len = strlen(s);

	if (len == 0 || len > 9 || (s[0] == '0' && len > 1))
		return 0;
	for (size_t i = 0; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

enum ltt_layout_kind ltt_layout_kind(const char *rel)
{
	const char *slash = strchr(rel, '/');
	const char *name;
	size_t dlen;

	if (!slash) {
		if (!strcmp(rel, "") || !strcmp(rel, "info") || !strcmp(rel, "eventdefs") ||
		    !strcmp(rel, "control") || !strcmp(rel, "cpu") || !strcmp(rel, "kernel"))
			return LTT_LAYOUT_DIR;
		return LTT_LAYOUT_OUTSIDE;
	}
	name = slash + 1;
	dlen = (size_t)(slash - rel);
	if (strchr(name, '/'))
		return LTT_LAYOUT_OUTSIDE;
	if (dlen == 4 && !memcmp(rel, "info", 4))
		return !strcmp(name, "system.xml") || !strcmp(name, "bookmarks.xml") ||
		       !strcmp(name, "manifest.xml") || !strcmp(name, "write-losses") ?
		       LTT_LAYOUT_FILE : LTT_LAYOUT_OUTSIDE;
	if (dlen == 9 && !memcmp(rel, "eventdefs", 9)) {
		size_t len = strlen(name);

		return len > 4 && !strcmp(name + len - 4, ".xml") && safe_name(name, len) ?
		       LTT_LAYOUT_FILE : LTT_LAYOUT_OUTSIDE;
	}
	if (dlen == 7 && !memcmp(rel, "control", 7))
		return safe_name(name, strlen(name)) ? LTT_LAYOUT_TRACEFILE : LTT_LAYOUT_OUTSIDE;
	if ((dlen == 3 && !memcmp(rel, "cpu", 3)) || (dlen == 6 && !memcmp(rel, "kernel", 6)))
		return cpu_name(name) ? LTT_LAYOUT_TRACEFILE : LTT_LAYOUT_OUTSIDE;
	return LTT_LAYOUT_OUTSIDE;
}

/* Canonical order: (group, rank, number, name). */
static void order_key(const char *rel, int *group, int *rank, unsigned long *num)
{
	static const char *const groups[] = { "", "info", "info/system.xml", "info/bookmarks.xml",
					      "eventdefs", "eventdefs/", "control", "control/", "cpu", "cpu/" };
	static const char *const control_rank[] = { "facilities", "processes", "interrupts" };

	*rank = 0;
	*num = 0;
	for (int g = 9; g >= 0; g--) {
		size_t len = strlen(groups[g]);

		if (g == 0 || (groups[g][len - 1] == '/' ? !strncmp(rel, groups[g], len) : !strcmp(rel, groups[g]))) {
			*group = g;
			break;
		}
	}
	if (*group == 7) {
		*rank = 3;
		for (int i = 0; i < 3; i++)
			if (!strcmp(rel + 8, control_rank[i]))
				*rank = i;
	} else if (*group == 9) {
		*num = strtoul(rel + 4, NULL, 10);
	}
}

static int cmp_entries(const void *a, const void *b)
{
	const char *ra = ((const struct ltt_layout_entry *)a)->rel;
	const char *rb = ((const struct ltt_layout_entry *)b)->rel;
	int ga, gb, ka, kb;
	unsigned long na, nb;

	order_key(ra, &ga, &ka, &na);
	order_key(rb, &gb, &kb, &nb);
	if (ga != gb)
		return ga < gb ? -1 : 1;
	if (ka != kb)
		return ka < kb ? -1 : 1;
	if (na != nb)
		return na < nb ? -1 : 1;
	return strcmp(ra, rb);
}

static int add_entry(struct ltt_layout *l, size_t *cap, const char *rel, enum ltt_layout_kind kind,
		     const struct stat *st)
{
	struct ltt_layout_entry *e;

	if (LTT_GROW(l->e, l->n + 1, *cap))
		return -ENOMEM;
	e = &l->e[l->n];
	e->rel = strdup(rel);
	if (!e->rel)
		return -ENOMEM;
	e->kind = kind;
	e->size = kind == LTT_LAYOUT_DIR ? 0 : (uint64_t)st->st_size;
	e->mtime = st->st_mtim;
	l->n++;
	if (kind != LTT_LAYOUT_DIR)
		l->file_bytes += (uint64_t)st->st_size;
	return 0;
}

/* Lists one directory (the trace directory when sub is "", else one of its subdirectories). */
static int list_dir(const char *dir, int dfd, const char *sub, unsigned flags, struct ltt_layout *l,
		    size_t *cap, char *err, size_t errlen)
{
	int fd = *sub ? openat(dfd, sub, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) :
			dup(dfd);
	DIR *d;
	struct dirent *de;
	int ret = 0;

	if (fd < 0) {
		ret = -errno;
		fail(err, errlen, "%s/%s: %s", dir, sub, strerror(errno));
		return ret;
	}
	d = fdopendir(fd);
	if (!d) {
		ret = -errno;
		close(fd);
		fail(err, errlen, "%s/%s: %s", dir, sub, strerror(-ret));
		return ret;
	}
	while ((errno = 0, de = readdir(d))) {
		char rel[512];
		struct stat st;
		enum ltt_layout_kind kind;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(rel, sizeof(rel), "%s%s%s", sub, *sub ? "/" : "", de->d_name);
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			ret = -errno;
			fail(err, errlen, "%s/%s: %s", dir, rel, strerror(errno));
			break;
		}
		kind = strlen(de->d_name) > 255 ? LTT_LAYOUT_OUTSIDE : ltt_layout_kind(rel);
		if (kind == LTT_LAYOUT_FILE && !strcmp(rel, LTT_MANIFEST_PATH) && S_ISREG(st.st_mode)) {
			l->has_manifest = 1;
			continue;
		}
		if (kind != LTT_LAYOUT_OUTSIDE && (kind == LTT_LAYOUT_DIR ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode))) {
			ret = add_entry(l, cap, rel, kind, &st);
			if (!ret && kind == LTT_LAYOUT_DIR)
				ret = list_dir(dir, dfd, rel, flags, l, cap, err, errlen);
			if (ret) {
				if (ret == -ENOMEM)
					fail(err, errlen, "%s: out of memory", dir);
				break;
			}
			continue;
		}
		if (!(flags & LTT_LAYOUT_STRICT))
			continue;
		ret = -EINVAL;
		if (S_ISLNK(st.st_mode))
			fail(err, errlen, "%s/%s: symbolic link (a trace holds only directories and regular files)",
			     dir, rel);
		else if (kind != LTT_LAYOUT_OUTSIDE || (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)))
			fail(err, errlen, "%s/%s: not a %s", dir, rel,
			     kind == LTT_LAYOUT_DIR ? "directory" : "regular file");
		else
			fail(err, errlen, "%s/%s: not part of the trace layout (doc/format.md section 1)",
			     dir, rel);
		break;
	}
	if (!ret && errno) {
		ret = -errno;
		fail(err, errlen, "%s/%s: %s", dir, sub, strerror(errno));
	}
	closedir(d);
	return ret;
}

int ltt_layout_list(const char *dir, unsigned flags, struct ltt_layout *out, char *err, size_t errlen)
{
	struct stat st;
	size_t cap = 0;
	int dfd, ret;

	memset(out, 0, sizeof(*out));
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		ret = -errno;
		fail(err, errlen, "%s: %s", dir, strerror(errno));
		return ret;
	}
	ret = fstat(dfd, &st) < 0 ? -errno : add_entry(out, &cap, "", LTT_LAYOUT_DIR, &st);
	if (!ret)
		ret = list_dir(dir, dfd, "", flags, out, &cap, err, errlen);
	else
		fail(err, errlen, "%s: %s", dir, strerror(-ret));
	close(dfd);
	if (ret) {
		ltt_layout_free(out);
		return ret;
	}
	qsort(out->e, out->n, sizeof(*out->e), cmp_entries);
	return 0;
}

void ltt_layout_free(struct ltt_layout *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->e[i].rel);
	free(l->e);
	memset(l, 0, sizeof(*l));
}

static void xml_text(FILE *f, const char *s)
{
	ltt_xml_to_file(f, s, strlen(s));
}

int ltt_manifest_format(const struct ltt_manifest *m, char **xml, size_t *len)
{
	FILE *f = open_memstream(xml, len);

	if (!f)
		return -errno;
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	      "<!-- ltt packed trace: every file of the trace but this one (doc/format.md section 12) -->\n"
	      "<manifest version=\"1\" ltt_version=\"", f);
	xml_text(f, m->ltt_version ? m->ltt_version : "");
	fputs("\" host=\"", f);
	xml_text(f, m->host ? m->host : "");
	fprintf(f, "\" files=\"%zu\"", m->n);
	if (m->reader_problems != LTT_MANIFEST_NO_COUNT)
		fprintf(f, " reader_problems=\"%" PRIu64 "\"", m->reader_problems);
	if (m->not_stopped)
		fputs(" recording=\"" LTT_NOT_STOPPED "\"", f);
	fputs(">\n", f);
	for (size_t i = 0; i < m->n; i++) {
		const struct ltt_manifest_file *mf = &m->files[i];

		fputs("  <file path=\"", f);
		xml_text(f, mf->path);
		fprintf(f, "\" size=\"%" PRIu64 "\" sha256=\"%s\"", mf->size, mf->sha256);
		if (mf->events != LTT_MANIFEST_NO_COUNT)
			fprintf(f, " events=\"%" PRIu64 "\"", mf->events);
		if (mf->lost != LTT_MANIFEST_NO_COUNT)
			fprintf(f, " lost=\"%" PRIu64 "\"", mf->lost);
		if (mf->overwritten != LTT_MANIFEST_NO_COUNT)
			fprintf(f, " overwritten=\"%" PRIu64 "\"", mf->overwritten);
		fputs("/>\n", f);
	}
	fputs("</manifest>\n", f);
	if (ferror(f)) {
		fclose(f);
		free(*xml);
		*xml = NULL;
		return -ENOMEM;
	}
	return fclose(f) ? -errno : 0;
}

static int parse_hex(const char *s, char out[LTT_SHA256_HEX_LEN + 1])
{
	if (!s || strlen(s) != LTT_SHA256_HEX_LEN)
		return -1;
	for (int i = 0; i < LTT_SHA256_HEX_LEN; i++) {
		if (!isxdigit((unsigned char)s[i]))
			return -1;
		out[i] = (char)tolower((unsigned char)s[i]);
	}
	out[LTT_SHA256_HEX_LEN] = '\0';
	return 0;
}

static int cmp_files(const void *a, const void *b)
{
	return strcmp(((const struct ltt_manifest_file *)a)->path, ((const struct ltt_manifest_file *)b)->path);
}

/* Reads one <file> element into mf; 0 or -EBADMSG with err set. */
static int parse_file(xmlNode *n, const char *label, struct ltt_manifest_file *mf, char *err, size_t errlen)
{
	char *path = (char *)xmlGetProp(n, (const xmlChar *)"path");
	char *size = (char *)xmlGetProp(n, (const xmlChar *)"size");
	char *sha = (char *)xmlGetProp(n, (const xmlChar *)"sha256");
	char *events = (char *)xmlGetProp(n, (const xmlChar *)"events");
	char *lost = (char *)xmlGetProp(n, (const xmlChar *)"lost");
	char *over = (char *)xmlGetProp(n, (const xmlChar *)"overwritten");
	long line = xmlGetLineNo(n);
	enum ltt_layout_kind kind = path ? ltt_layout_kind(path) : LTT_LAYOUT_OUTSIDE;
	int ret = -EBADMSG;

	mf->events = mf->lost = mf->overwritten = LTT_MANIFEST_NO_COUNT;
	if (!path || !size || !sha)
		fail(err, errlen, "%s: line %ld: <file> needs path, size and sha256", label, line);
	else if (kind != LTT_LAYOUT_FILE && kind != LTT_LAYOUT_TRACEFILE)
		fail(err, errlen, "%s: line %ld: path '%s' is not a file of the trace layout", label, line, path);
	else if (!strcmp(path, LTT_MANIFEST_PATH))
		fail(err, errlen, "%s: line %ld: the manifest lists itself", label, line);
	else if (ltt_parse_u64(size, &mf->size))
		fail(err, errlen, "%s: line %ld: size '%s' is not a decimal number", label, line, size);
	else if (parse_hex(sha, mf->sha256))
		fail(err, errlen, "%s: line %ld: sha256 '%s' is not 64 hex digits", label, line, sha);
	else if (events && ltt_parse_u64(events, &mf->events))
		fail(err, errlen, "%s: line %ld: events '%s' is not a decimal number", label, line, events);
	else if (lost && ltt_parse_u64(lost, &mf->lost))
		fail(err, errlen, "%s: line %ld: lost '%s' is not a decimal number", label, line, lost);
	else if (over && ltt_parse_u64(over, &mf->overwritten))
		fail(err, errlen, "%s: line %ld: overwritten '%s' is not a decimal number", label, line, over);
	else if (!(mf->path = strdup(path)))
		ret = -ENOMEM;
	else
		ret = 0;
	xmlFree(path);
	xmlFree(size);
	xmlFree(sha);
	xmlFree(events);
	xmlFree(lost);
	xmlFree(over);
	return ret;
}

struct mf_parse {
	struct ltt_manifest *m;
	const char *label;
	char *err;
	size_t errlen;
	size_t cap;
};

static int mf_root(xmlNode *root, void *arg)
{
	struct mf_parse *p = arg;
	struct ltt_manifest *m = p->m;
	char *attr;

	if (strcmp((const char *)root->name, "manifest")) {
		fail(p->err, p->errlen, "%s: the root element is not <manifest>", p->label);
		return -EBADMSG;
	}
	attr = (char *)xmlGetProp(root, (const xmlChar *)"version");
	if (!attr || strcmp(attr, "1")) {
		fail(p->err, p->errlen, "%s: line %ld: manifest version '%s' is not 1", p->label,
		     xmlGetLineNo(root), attr ? attr : "(none)");
		xmlFree(attr);
		return -EBADMSG;
	}
	xmlFree(attr);
	attr = (char *)xmlGetProp(root, (const xmlChar *)"reader_problems");
	if (attr && ltt_parse_u64(attr, &m->reader_problems))
		m->reader_problems = LTT_MANIFEST_NO_COUNT;
	xmlFree(attr);
	attr = (char *)xmlGetProp(root, (const xmlChar *)"recording");
	m->not_stopped = attr && !strcmp(attr, LTT_NOT_STOPPED);
	xmlFree(attr);
	attr = (char *)xmlGetProp(root, (const xmlChar *)"ltt_version");
	m->ltt_version = strdup(attr ? attr : "");
	xmlFree(attr);
	attr = (char *)xmlGetProp(root, (const xmlChar *)"host");
	m->host = strdup(attr ? attr : "");
	xmlFree(attr);
	return m->ltt_version && m->host ? 0 : -ENOMEM;
}

static int mf_file(xmlNode *n, void *arg)
{
	struct mf_parse *p = arg;
	struct ltt_manifest *m = p->m;
	int ret;

	if (strcmp((const char *)n->name, "file")) {
		fail(p->err, p->errlen, "%s: line %ld: unexpected element <%s>", p->label, xmlGetLineNo(n),
		     (const char *)n->name);
		return -EBADMSG;
	}
	if (LTT_GROW(m->files, m->n + 1, p->cap))
		return -ENOMEM;
	ret = parse_file(n, p->label, &m->files[m->n], p->err, p->errlen);
	if (!ret)
		m->n++;
	return ret;
}

/* Streamed (reader/xml.c): memory is the files' list, not a tree of the whole document. */
int ltt_manifest_parse(const char *xml, size_t len, const char *label, struct ltt_manifest *m,
		       char *err, size_t errlen)
{
	struct mf_parse p = { .m = m, .label = label, .err = err, .errlen = errlen };
	struct rd_xml_error e;
	int ret;

	memset(m, 0, sizeof(*m));
	m->reader_problems = LTT_MANIFEST_NO_COUNT;
	if (len > LTT_MANIFEST_MAX_BYTES) {
		fail(err, errlen, "%s: larger than %u bytes", label, LTT_MANIFEST_MAX_BYTES);
		return -EBADMSG;
	}
	ret = rd_xml_stream(xml, len, label, mf_root, mf_file, &p, &e);
	if (ret == -EBADMSG && (e.msg[0]))
		fail(err, errlen, "%s: line %d: %s", label, e.line, e.msg);
	if (ret)
		goto out;
	ret = -EBADMSG;
	if (!m->ltt_version) {	/* no root element: rd_xml_stream said so */
		fail(err, errlen, "%s: the root element is not <manifest>", label);
		goto out;
	}
	if (m->n)
		qsort(m->files, m->n, sizeof(*m->files), cmp_files);
	for (size_t i = 1; i < m->n; i++) {
		if (!strcmp(m->files[i].path, m->files[i - 1].path)) {
			fail(err, errlen, "%s: '%s' is listed twice", label, m->files[i].path);
			goto out;
		}
	}
	ret = 0;
out:
	if (ret == -ENOMEM)
		fail(err, errlen, "%s: out of memory", label);
	if (ret)
		ltt_manifest_free(m);
	return ret;
}

void ltt_manifest_free(struct ltt_manifest *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->files[i].path);
	free(m->files);
	free(m->ltt_version);
	free(m->host);
	memset(m, 0, sizeof(*m));
}

/* ---- checking ---------------------------------------------------------------------------------- */

int ltt_manifest_compare(const struct ltt_manifest *m, const struct ltt_manifest_file *found, size_t n,
			 const char *prefix, char *err, size_t errlen)
{
	unsigned char *seen = calloc(m->n + 1, 1);
	uint64_t problems = 0;
	char first[1024] = "";

	if (!seen) {
		fail(err, errlen, "%s: out of memory", prefix);
		return -ENOMEM;
	}
#define PROBLEM(...) do { if (!problems++) snprintf(first, sizeof(first), __VA_ARGS__); } while (0)
	for (size_t i = 0; i < n; i++) {
		const struct ltt_manifest_file *f = m->n ? bsearch(&found[i], m->files, m->n, sizeof(*m->files),
								    cmp_files) : NULL;

		if (!f) {
			PROBLEM("%s/%s: not listed in the manifest", prefix, found[i].path);
			continue;
		}
		seen[f - m->files] = 1;
		if (f->size != found[i].size)
			PROBLEM("%s/%s: %" PRIu64 " bytes, the manifest says %" PRIu64, prefix, found[i].path,
				found[i].size, f->size);
		else if (strcmp(f->sha256, found[i].sha256))
			PROBLEM("%s/%s: SHA-256 %s, the manifest says %s", prefix, found[i].path,
				found[i].sha256, f->sha256);
	}
	for (size_t i = 0; i < m->n; i++)
		if (!seen[i])
			PROBLEM("%s/%s: in the manifest but missing", prefix, m->files[i].path);
#undef PROBLEM
	free(seen);
	if (!problems)
		return 0;
	if (problems > 1)
		fail(err, errlen, "%s (and %" PRIu64 " more manifest mismatch%s)", first, problems - 1,
		     problems > 2 ? "es" : "");
	else
		fail(err, errlen, "%s", first);
	return -EBADMSG;
}

EVP_MD_CTX *ltt_sha256_new(void)
{
	EVP_MD_CTX *c = EVP_MD_CTX_new();

	if (c && !EVP_DigestInit_ex(c, EVP_sha256(), NULL)) {
		EVP_MD_CTX_free(c);
		c = NULL;
	}
	return c;
}

int ltt_sha256_end(EVP_MD_CTX *c, char hex[LTT_SHA256_HEX_LEN + 1])
{
	static const char digits[] = "0123456789abcdef";
	unsigned char d[EVP_MAX_MD_SIZE];
	unsigned int n = 0;
	int ok = EVP_DigestFinal_ex(c, d, &n) && n * 2 == LTT_SHA256_HEX_LEN;

	EVP_MD_CTX_free(c);
	for (unsigned int i = 0; ok && i < n; i++) {
		hex[2 * i] = digits[d[i] >> 4];
		hex[2 * i + 1] = digits[d[i] & 15];
	}
	hex[ok ? LTT_SHA256_HEX_LEN : 0] = 0;
	return ok ? 0 : -EIO;
}

int ltt_sha256_hex_of(const void *data, size_t len, char hex[LTT_SHA256_HEX_LEN + 1])
{
	EVP_MD_CTX *c = ltt_sha256_new();

	if (!c)
		return -ENOMEM;
	if (!EVP_DigestUpdate(c, data, len)) {
		EVP_MD_CTX_free(c);
		return -EIO;
	}
	return ltt_sha256_end(c, hex);
}

/* Size and SHA-256 of an open file, read to its end. */
static int hash_fd(int fd, unsigned char *buf, uint64_t *size, char hex[LTT_SHA256_HEX_LEN + 1])
{
	EVP_MD_CTX *c = ltt_sha256_new();
	ssize_t r;

	if (!c)
		return -ENOMEM;
	*size = 0;
	posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	while ((r = read(fd, buf, 1 << 20)) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			EVP_MD_CTX_free(c);
			return -errno;
		}
		if (!EVP_DigestUpdate(c, buf, (size_t)r)) {
			EVP_MD_CTX_free(c);
			return -EIO;
		}
		*size += (uint64_t)r;
	}
	return ltt_sha256_end(c, hex);
}

int ltt_manifest_verify(const char *trace_dir, char *err, size_t errlen)
{
	return ltt_manifest_verify_as(trace_dir, trace_dir, err, errlen);
}

int ltt_manifest_verify_as(const char *trace_dir, const char *label, char *err, size_t errlen)
{
	struct ltt_layout l;
	struct ltt_manifest m;
	struct ltt_manifest_file *found = NULL;
	char path[4096], shown[4096], *xml;
	unsigned char *buf = NULL;
	size_t len = 0, nfound = 0;
	int ret = ltt_layout_list(trace_dir, 0, &l, err, errlen);

	if (ret)
		return ret;
	if (!l.has_manifest) {
		ltt_layout_free(&l);
		return 0;
	}
	snprintf(path, sizeof(path), "%s/%s", trace_dir, LTT_MANIFEST_PATH);
	snprintf(shown, sizeof(shown), "%s/%s", label, LTT_MANIFEST_PATH);
	ret = ltt_read_small_file(path, O_NOFOLLOW, LTT_MANIFEST_MAX_BYTES, &xml, &len);
	if (ret == -LTT_ENOTREG)
		ret = -EINVAL;
	if (ret) {
		fail(err, errlen, "%s: %s", shown, ret == -EFBIG ? "too large" : strerror(-ret));
		goto out_layout;
	}
	ret = ltt_manifest_parse(xml, len, shown, &m, err, errlen);
	free(xml);
	if (ret)
		goto out_layout;
	found = calloc(l.n + 1, sizeof(*found));
	buf = malloc(1 << 20);
	if (!found || !buf) {
		ret = -ENOMEM;
		fail(err, errlen, "%s: out of memory", label);
		goto out_found;
	}
	for (size_t i = 0; i < l.n; i++) {
		int fd;

		if (l.e[i].kind == LTT_LAYOUT_DIR)
			continue;
		snprintf(path, sizeof(path), "%s/%s", trace_dir, l.e[i].rel);
		fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		ret = fd < 0 ? -errno : hash_fd(fd, buf, &found[nfound].size, found[nfound].sha256);
		if (fd >= 0)
			close(fd);
		if (ret) {
			fail(err, errlen, "%s/%s: %s", label, l.e[i].rel, strerror(-ret));
			goto out_found;
		}
		found[nfound++].path = l.e[i].rel;
	}
	ret = ltt_manifest_compare(&m, found, nfound, label, err, errlen);
out_found:
	free(buf);
	free(found);
	ltt_manifest_free(&m);
out_layout:
	ltt_layout_free(&l);
	return ret;
}
