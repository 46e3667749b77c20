/* SPDX-License-Identifier: MIT */
/* What a decoder needs for variable-size values: their encoded size, read from the data. */
#include <errno.h>
#include <string.h>

#include "model.h"

uint64_t ltt_read_uint(const void *p, unsigned bytes, int big_endian)
{
	const unsigned char *b = p;
	uint64_t v = 0;

	if (big_endian) {
		for (unsigned i = 0; i < bytes; i++)
			v = v << 8 | b[i];
	} else {
		for (unsigned i = bytes; i-- > 0;)
			v = v << 8 | b[i];
	}
	return v;
}

/* Recursion depth is bounded by LTT_MAX_DEPTH; every variable type takes at least one byte per
 * element walked, so the loops are bounded by avail. */
static int encoded_size(const struct ltt_type_desc *t, enum ltt_arch_size arch, int big_endian,
			const unsigned char *data, size_t avail, size_t *size)
{
	size_t pos = 0, n;
	uint64_t count;
	unsigned bytes;
	int e;

	if (!t->variable) {
		if (t->fixed_size[arch] > avail)
			return -EOVERFLOW;
		*size = t->fixed_size[arch];
		return 0;
	}
	switch (t->kind) {
	case LTT_TYPE_STRING: {
		const unsigned char *nul = memchr(data, '\0', avail);

		if (!nul)
			return -EOVERFLOW;
		*size = (size_t)(nul - data) + 1;
		return 0;
	}
	case LTT_TYPE_ARRAY:
	case LTT_TYPE_SEQUENCE:
		count = t->array_len;
		if (t->kind == LTT_TYPE_SEQUENCE) {
			bytes = ltt_size_bytes(t->size, arch);
			if (bytes > avail)
				return -EOVERFLOW;
			count = ltt_read_uint(data, bytes, big_endian);
			pos = bytes;
		}
		if (!t->element->variable) {
			uint64_t es = t->element->fixed_size[arch];

			if (es && count > (avail - pos) / es)
				return -EOVERFLOW;
			*size = pos + (size_t)(count * es);
			return 0;
		}
		for (uint64_t i = 0; i < count; i++) {
			if ((e = encoded_size(t->element, arch, big_endian, data + pos, avail - pos, &n)))
				return e;
			pos += n;
		}
		*size = pos;
		return 0;
	case LTT_TYPE_STRUCT:
		for (uint32_t i = 0; i < t->n_fields; i++) {
			e = encoded_size(t->fields[i].type, arch, big_endian, data + pos, avail - pos, &n);
			if (e)
				return e;
			pos += n;
		}
		*size = pos;
		return 0;
	case LTT_TYPE_UNION:
		bytes = ltt_size_bytes(t->size, arch);
		if (bytes > avail)
			return -EOVERFLOW;
		count = ltt_read_uint(data, bytes, big_endian);
		if (count >= t->n_fields)
			return -ERANGE;
		e = encoded_size(t->fields[count].type, arch, big_endian, data + bytes, avail - bytes, &n);
		if (e)
			return e;
		*size = bytes + n;
		return 0;
	default:
		return -EINVAL;
	}
}

int ltt_type_encoded_size(const struct ltt_type_desc *t, enum ltt_arch_size arch, int big_endian,
			  const void *data, size_t avail, size_t *size)
{
	if ((unsigned)arch >= LTT_ARCH_COUNT)
		return -EINVAL;
	return encoded_size(t, arch, big_endian, data, avail, size);
}
