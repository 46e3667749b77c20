/* SPDX-License-Identifier: MIT */
/* XML text (common/escape_xml.h). */
#include <errno.h>
#include <string.h>

#include "common/buf.h"
#include "common/escape_xml.h"

size_t ltt_xml_escape_unit(const char *str, size_t n, char *e, size_t *elen)
{
	static const char *const named[] = { "&amp;", "&lt;", "&gt;", "&quot;", "&#9;", "&#10;", "&#13;" };
	static const char special[] = "&<>\"\t\n\r";
	const unsigned char *s = (const unsigned char *)str;
	const char *k = s[0] ? strchr(special, s[0]) : NULL;
	size_t used = 1;

	if (k) {
		*elen = strlen(named[k - special]);
		memcpy(e, named[k - special], *elen);
		return 1;
	}
	if (s[0] < 0x20) {
		*elen = 0;
		return 1;
	}
	if (s[0] >= 0x80 && ltt_utf8_len(s, n) == 3)	/* U+FFFE or U+FFFF: one character replaced */
		used = 3;
	memcpy(e, "\xef\xbf\xbd", 3);
	*elen = 3;
	return used;
}

size_t ltt_xml_escape(char *dst, const char *s, size_t n)
{
	char *p = dst;
	size_t i = 0, elen;

	while (i < n) {
		size_t run = ltt_xml_plain(s + i, n - i);

		memcpy(p, s + i, run);
		p += run;
		i += run;
		if (i < n) {
			char e[LTT_XML_ESC_MAX];

			i += ltt_xml_escape_unit(s + i, n - i, e, &elen);
			memcpy(p, e, elen);
			p += elen;
		}
	}
	return (size_t)(p - dst);
}

void ltt_xml_to_buf(struct ltt_buf *b, const char *s, size_t n)
{
	size_t i = 0, elen;
	char e[LTT_XML_ESC_MAX];

	while (i < n) {
		size_t run = ltt_xml_plain(s + i, n - i);

		ltt_buf_add(b, s + i, run);
		i += run;
		if (i < n) {
			i += ltt_xml_escape_unit(s + i, n - i, e, &elen);
			ltt_buf_add(b, e, elen);
		}
	}
}

int ltt_xml_to_file(FILE *f, const char *s, size_t n)
{
	size_t i = 0, elen;
	char e[LTT_XML_ESC_MAX];

	while (i < n) {
		size_t run = ltt_xml_plain(s + i, n - i);

		fwrite(s + i, 1, run, f);
		i += run;
		if (i < n) {
			i += ltt_xml_escape_unit(s + i, n - i, e, &elen);
			fwrite(e, 1, elen, f);
		}
	}
	return ferror(f) ? -EIO : 0;
}
