/* SPDX-License-Identifier: MIT */
/* Numbers in text (common/parse.h). */
#include <errno.h>
#include <string.h>

#include "common/parse.h"

/* The decimal digits at *p (at least one): 0, -EINVAL or -ERANGE; *p moves past them. */
static int digits(const char **p, unsigned base, uint64_t *out)
{
	const char *s = *p;
	uint64_t v = 0;
	int ret = 0;

	for (;; s++) {
		unsigned d;

		if (*s >= '0' && *s <= '9')
			d = (unsigned)(*s - '0');
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = (unsigned)(*s - 'a' + 10);
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = (unsigned)(*s - 'A' + 10);
		else
			break;
		if (d >= base)
			return -EINVAL;
		if (v > (UINT64_MAX - d) / base)
			ret = -ERANGE;	/* keeps reading: "99...9x" is -EINVAL, not -ERANGE */
		v = v * base + d;
	}
	if (s == *p)
		return -EINVAL;
	*p = s;
	*out = v;
	return ret;
}

int ltt_parse_u64(const char *s, uint64_t *out)
{
	uint64_t v;
	int ret;

	if (!s)
		return -EINVAL;
	ret = digits(&s, 10, &v);
	if (ret == -EINVAL || *s)
		return -EINVAL;
	if (!ret)
		*out = v;
	return ret;
}

int ltt_parse_u64_in(const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
	uint64_t v;
	int ret = ltt_parse_u64(s, &v);

	if (ret)
		return ret;
	if (v < lo || v > hi)
		return -ERANGE;
	*out = v;
	return 0;
}

int ltt_parse_c_u64(const char *s, uint64_t *out)
{
	unsigned base = 10;
	uint64_t v;
	int ret;

	if (!s)
		return -EINVAL;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	} else if (s[0] == '0' && s[1]) {
		base = 8;
		s++;
	}
	ret = digits(&s, base, &v);
	if (ret == -EINVAL || *s)
		return -EINVAL;
	if (!ret)
		*out = v;
	return ret;
}

int ltt_parse_size(const char *s, uint64_t *out)
{
	unsigned shift = 0;
	uint64_t v;
	int ret;

	if (!s)
		return -EINVAL;
	ret = digits(&s, 10, &v);
	if (ret == -EINVAL)
		return ret;
	switch (*s) {
	case '\0': break;
	case 'k': case 'K': shift = 10; break;
	case 'm': case 'M': shift = 20; break;
	case 'g': case 'G': shift = 30; break;
	case 't': case 'T': shift = 40; break;
	default: return -EINVAL;
	}
	if (*s && s[1] && strcmp(s + 1, "B") && strcmp(s + 1, "iB"))
		return -EINVAL;
	if (ret)
		return ret;
	if (v > UINT64_MAX >> shift)
		return -ERANGE;
	*out = v << shift;
	return 0;
}
