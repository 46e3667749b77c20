/* SPDX-License-Identifier: MIT */
/* recorder/maps.c: the executable mappings of the process (/proc/self/maps), each recorded as
 * core.mapping with the GNU build id of its file, at start and again whenever the set of loaded objects
 * changed (dl_iterate_phdr's adds/subs counters, polled by the sampler thread), so that a reader can
 * symbolize stack samples offline against the right binaries. */
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "profile.h"
#include "recorder.h"

#define BUILD_ID_MAX 64

/* The NT_GNU_BUILD_ID note of the 64-bit ELF file at path (read from its program headers' notes):
 * its length, 0 if none. */
static unsigned build_id(const char *path, unsigned char *out)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	unsigned len = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	if (pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_phentsize != sizeof(ph))
		goto out;
	for (unsigned i = 0; i < eh.e_phnum && !len; i++) {
		unsigned char note[1024];
		size_t n, off = 0;

		if (pread(fd, &ph, sizeof(ph), (off_t)(eh.e_phoff + i * sizeof(ph))) != (ssize_t)sizeof(ph))
			break;
		if (ph.p_type != PT_NOTE)
			continue;
		n = ph.p_filesz < sizeof(note) ? ph.p_filesz : sizeof(note);
		if (pread(fd, note, n, (off_t)ph.p_offset) != (ssize_t)n)
			continue;
		while (off + sizeof(Elf64_Nhdr) <= n) {
			Elf64_Nhdr nh;
			size_t name_off, desc_off;

			memcpy(&nh, note + off, sizeof(nh));
			name_off = off + sizeof(nh);
			desc_off = name_off + ((nh.n_namesz + 3u) & ~3u);
			if (desc_off + nh.n_descsz > n)
				break;
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    !memcmp(note + name_off, "GNU", 4) && nh.n_descsz <= BUILD_ID_MAX) {
				memcpy(out, note + desc_off, nh.n_descsz);
				len = nh.n_descsz;
				break;
			}
			off = desc_off + ((nh.n_descsz + 3u) & ~3u);
		}
	}
out:
	close(fd);
	return len;
}

static void emit_mapping(uint64_t start, uint64_t end, uint64_t offset, const unsigned char *id,
			 unsigned idlen, const char *path)
{
	unsigned char p[24 + 1 + BUILD_ID_MAX + 1024];
	size_t plen = strnlen(path, 1023), len = 0;	/* a 4 KiB block holds the event */

	memcpy(p, &start, 8);
	memcpy(p + 8, &end, 8);
	memcpy(p + 16, &offset, 8);
	len = 24;
	p[len++] = (unsigned char)idlen;
	memcpy(p + len, id, idlen);
	len += idlen;
	memcpy(p + len, path, plen);
	len += plen;
	p[len++] = 0;
	ltt_core_emit(LTT_CORE_MAPPING, p, len, LTT_EVENT_PERSISTENT);
}

static unsigned long long loaded_adds, loaded_subs;

static int count_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
	unsigned long long *v = arg;

	if (size >= offsetof(struct dl_phdr_info, dlpi_subs) + sizeof(info->dlpi_subs)) {
		v[0] = info->dlpi_adds;
		v[1] = info->dlpi_subs;
	}
	return 1;	/* the counters are the same in every entry: the first is enough */
}

void ltt_maps_emit(void)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[4096 + 256];
	unsigned long long v[2] = { 0, 0 };

	dl_iterate_phdr(count_cb, v);
	loaded_adds = v[0];
	loaded_subs = v[1];
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long start, end, off;
		char perms[8], path[4096] = "";
		unsigned char id[BUILD_ID_MAX];
		unsigned idlen = 0;

		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %4095[^\n]", &start, &end, perms, &off,
			   path) < 4 || perms[2] != 'x')
			continue;
		if (path[0] == '/')
			idlen = build_id(path, id);
		emit_mapping(start, end, off, id, idlen, path[0] ? path : "[anon]");
	}
	fclose(f);
}

void ltt_maps_poll(void)
{
	unsigned long long v[2] = { 0, 0 };

	dl_iterate_phdr(count_cb, v);
	if (v[0] != loaded_adds || v[1] != loaded_subs)
		ltt_maps_emit();
}
