/* SPDX-License-Identifier: MIT */
/* recorder/kernel_tp.c: a tracepoint's id and the layout of its fields, from tracefs
 * (/sys/kernel/tracing/events/SYS/NAME/format: "field:TYPE NAME;\toffset:N;\tsize:N;\tsigned:N;").
 * tracefs is mounted at /sys/kernel/tracing when it is absent and the process may (root). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "kernel.h"

static const char *const roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

/* The tracefs directory holding events/, or NULL with why. */
static const char *tracefs(char *why, size_t n, int *err)
{
	static int mount_tried;
	char p[64];

	for (int pass = 0; pass < 2; pass++) {
		for (unsigned i = 0; i < sizeof(roots) / sizeof(roots[0]); i++) {
			snprintf(p, sizeof(p), "%s/events", roots[i]);
			if (!access(p, X_OK))
				return roots[i];
		}
		if (pass || mount_tried++)
			break;
		/* absent (not mounted): mount it where the kernel provides the mount point, if allowed */
		if (access(roots[0], F_OK) || mount("nodev", roots[0], "tracefs", 0, NULL))
			break;
	}
	*err = access(roots[0], X_OK) ? errno : ENOENT;
	if (*err == ENOENT)
		snprintf(why, n, "tracefs not mounted at %s and cannot be (needs root)", roots[0]);
	else
		snprintf(why, n, "tracefs %s: %s (its tracepoint ids are readable by root only)", roots[0],
			 strerror(*err));
	return NULL;
}

static void parse_line(const char *line, const char *const *fields, struct ltt_tp_field *f, unsigned n)
{
	const char *a = strstr(line, "field:"), *semi, *o, *s;
	char decl[128], name[128];
	size_t len;
	int data_loc;

	if (!a)
		return;
	a += 6;
	semi = strchr(a, ';');
	if (!semi || (len = (size_t)(semi - a)) >= sizeof(decl))
		return;
	memcpy(decl, a, len);
	decl[len] = 0;
	data_loc = strstr(decl, "__data_loc") != NULL;
	/* the name is the last word of the declaration, without an array's [N] */
	/* (in "__data_loc char[] name" the brackets belong to the type) */
	{
		char *br = strchr(decl, '['), *sp;

		if (br && !data_loc)
			*br = 0;
		sp = strrchr(decl, ' ');
		snprintf(name, sizeof(name), "%s", sp ? sp + 1 : decl);
	}
	o = strstr(semi, "offset:");
	s = strstr(semi, "size:");
	if (!o || !s)
		return;
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(fields[i], name)) {
			f[i].off = atoi(o + 7);
			f[i].size = atoi(s + 5);
			f[i].data_loc = data_loc;
		}
}

int ltt_tp_open(const char *sys, const char *name, int *id, const char *const *fields, struct ltt_tp_field *f,
		unsigned n, char *why, size_t whylen)
{
	char p[256], line[512];
	const char *root;
	int err = 0;
	FILE *fp;

	for (unsigned i = 0; i < n; i++)
		f[i].off = -1;
	root = tracefs(why, whylen, &err);
	if (!root)
		return -err;
	snprintf(p, sizeof(p), "%s/events/%s/%s/id", root, sys, name);
	fp = fopen(p, "re");
	if (!fp || fscanf(fp, "%d", id) != 1) {
		err = fp ? EINVAL : errno;
		snprintf(why, whylen, "%s: %s", p, fp ? "no id" : strerror(err));
		if (fp)
			fclose(fp);
		return -err;
	}
	fclose(fp);
	snprintf(p, sizeof(p), "%s/events/%s/%s/format", root, sys, name);
	fp = fopen(p, "re");
	if (!fp) {
		err = errno;
		snprintf(why, whylen, "%s: %s", p, strerror(err));
		return -err;
	}
	while (fgets(line, sizeof(line), fp))
		parse_line(line, fields, f, n);
	fclose(fp);
	for (unsigned i = 0; i < n; i++)
		if (f[i].off < 0) {
			snprintf(why, whylen, "%s: no field %s", p, fields[i]);
			return -ENOENT;
		}
	return 0;
}
