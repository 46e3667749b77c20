/* SPDX-License-Identifier: MIT */
/* The facility dialect to well-formed XML, line for line.
 *
 * Facility files of the original tools were read by a hand-written tokenizer: attribute values may be
 * bare (`<facility name=core>`, `size=4`), comments may be C-style (`/ * * /`, `//`), and a file holds
 * several top-level <facility> elements. This pass rewrites such text into XML that libxml2 accepts:
 * bare values are quoted, C comments become blanks (their newlines kept, so every line number stays
 * right), a lone `&` or `<` in text is escaped, the XML declaration is blanked, and everything is
 * wrapped in one root element opened on line 1. Well-formed XML passes through unchanged, except that
 * from line LTT_BIG_LINE on each start tag gets an LTT_LINE_ATTR attribute holding its line.
 * Declarations (<!DOCTYPE ...>, hence entity definitions) are refused.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/buf.h"
#include "model.h"

#define ROOT_OPEN  "<ltt-eventdefs>"
#define ROOT_CLOSE "\n</ltt-eventdefs>\n"

/* Blanks in[from, to): newlines stay, everything else becomes a space. */
static void blank(struct ltt_buf *o, const char *in, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		ltt_buf_putc(o, in[i] == '\n' ? '\n' : ' ');
}

static int is_name_start(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':' || c >= 0x80;
}

static int is_name_char(unsigned char c)
{
	return is_name_start(c) || (c >= '0' && c <= '9') || c == '-' || c == '.';
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Length of an entity or character reference at in[i] (`&amp;`, `&#10;`, `&#x1f;`), 0 if none. */
static size_t entity_len(const char *in, size_t len, size_t i)
{
	size_t j = i + 1;

	if (j < len && in[j] == '#') {
		j++;
		if (j < len && in[j] == 'x') {
			j++;
			while (j < len && strchr("0123456789abcdefABCDEF", in[j]) && in[j])
				j++;
		} else {
			while (j < len && in[j] >= '0' && in[j] <= '9')
				j++;
		}
	} else {
		while (j < len && ((in[j] >= 'a' && in[j] <= 'z') || (in[j] >= 'A' && in[j] <= 'Z')))
			j++;
	}
	if (j == i + 1 || j >= len || in[j] != ';' || in[j - 1] == '#' || in[j - 1] == 'x')
		return 0;
	return j + 1 - i;
}

/* Copies one character of text (quote 0), of a quoted value (quote is the quote character) or of a
 * bare value (quote 'b', to be written between double quotes), escaping what XML refuses there. */
static size_t put_text_char(struct ltt_buf *o, const char *in, size_t len, size_t i, char quote)
{
	size_t n;

	if (in[i] == '&') {
		n = entity_len(in, len, i);
		if (n) {
			ltt_buf_add(o, in + i, n);
			return n;
		}
		ltt_buf_add(o, "&amp;", 5);
	} else if (in[i] == '<') {
		ltt_buf_add(o, "&lt;", 4);
	} else if (quote && in[i] == '"' && quote != '"') {
		ltt_buf_add(o, "&quot;", 6);
	} else {
		ltt_buf_putc(o, in[i]);
	}
	return 1;
}

static size_t find(const char *in, size_t len, size_t from, const char *what)
{
	size_t n = strlen(what);

	for (size_t i = from; i + n <= len; i++)
		if (!memcmp(in + i, what, n))
			return i;
	return len;
}

static unsigned line_at(const char *in, size_t i)
{
	unsigned line = 1;

	for (size_t k = 0; k < i; k++)
		line += in[k] == '\n';
	return line;
}

/* Attributes per start tag: facility elements have at most two; libxml2 checks duplicates in
 * quadratic time, so a tag with millions of them must not reach it. */
#define MAX_ATTRS 32

/* A start tag from in[i] == '<': quotes bare attribute values. Returns the index after the tag, or
 * len + 1 when the tag has more than MAX_ATTRS attributes. */
static size_t start_tag(struct ltt_buf *o, const char *in, size_t len, size_t i, unsigned line)
{
	unsigned attrs = 0;

	ltt_buf_putc(o, in[i++]);
	while (i < len && is_name_char((unsigned char)in[i]))
		ltt_buf_putc(o, in[i++]);
	if (line >= LTT_BIG_LINE) {
		/* libxml2 keeps element lines in 16 bits: say it in an attribute (see line_of()) */
		char buf[40];
		int n = snprintf(buf, sizeof(buf), " " LTT_LINE_ATTR "=\"%u\"", line);

		ltt_buf_add(o, buf, (size_t)n);
	}
	while (i < len) {
		char c = in[i];

		if (c == '>') {
			ltt_buf_putc(o, c);
			return i + 1;
		}
		if (c == '/' && i + 1 < len && in[i + 1] == '>') {
			ltt_buf_add(o, "/>", 2);
			return i + 2;
		}
		if (c != '=') {
			ltt_buf_putc(o, c);
			i++;
			continue;
		}
		/* an attribute value follows */
		if (++attrs > MAX_ATTRS)
			return len + 1;
		ltt_buf_putc(o, in[i++]);
		while (i < len && is_space(in[i]))
			ltt_buf_putc(o, in[i++]);
		if (i >= len)
			break;
		if (in[i] == '"' || in[i] == '\'') {
			char q = in[i];

			ltt_buf_putc(o, in[i++]);
			while (i < len && in[i] != q)
				i += put_text_char(o, in, len, i, q);
			if (i < len)
				ltt_buf_putc(o, in[i++]);
			continue;
		}
		ltt_buf_putc(o, '"');
		while (i < len && !is_space(in[i]) && in[i] != '>' && in[i] != '\'' &&
		       !(in[i] == '/' && i + 1 < len && in[i + 1] == '>'))
			i += put_text_char(o, in, len, i, 'b');
		ltt_buf_putc(o, '"');
	}
	return i;
}

int eventdefs_prepass(const char *in, size_t len, char **out, size_t *out_len, unsigned *bad_line,
		      const char **what)
{
	struct ltt_buf o = LTT_BUF_INIT;
	size_t i = 0, e, line_pos = 0;
	unsigned line = 1;

	*out = NULL;
	if (memchr(in, '\0', len)) {
		*bad_line = line_at(in, (size_t)((const char *)memchr(in, '\0', len) - in));
		*what = "NUL byte in the file";
		return -EINVAL;
	}
	if (len >= 3 && !memcmp(in, "\xef\xbb\xbf", 3))
		i = 3;
	ltt_buf_add(&o, ROOT_OPEN, strlen(ROOT_OPEN));
	while (i < len) {
		const char *p = in + i;
		size_t left = len - i;

		if (left >= 4 && !memcmp(p, "<!--", 4)) {
			e = find(in, len, i + 4, "-->");
			if (e == len)
				goto unterminated_comment;
			ltt_buf_add(&o, p, e + 3 - i);
			i = e + 3;
		} else if (left >= 9 && !memcmp(p, "<![CDATA[", 9)) {
			e = find(in, len, i + 9, "]]>");
			if (e == len) {
				*what = "unterminated CDATA section";
				goto bad;
			}
			ltt_buf_add(&o, p, e + 3 - i);
			i = e + 3;
		} else if (left >= 2 && !memcmp(p, "<!", 2)) {
			*what = "declarations (<!DOCTYPE ...>) are not allowed";
			goto bad;
		} else if (left >= 2 && !memcmp(p, "<?", 2)) {
			e = find(in, len, i + 2, "?>");
			if (e == len) {
				*what = "unterminated <? ... ?>";
				goto bad;
			}
			blank(&o, in, i, e + 2);
			i = e + 2;
		} else if (left >= 2 && p[0] == '<' && p[1] == '/') {
			ltt_buf_add(&o, "</", 2);
			i += 2;
			while (i < len && in[i] != '>' && in[i] != '<')
				ltt_buf_putc(&o, in[i++]);
			if (i < len && in[i] == '>')
				ltt_buf_putc(&o, in[i++]);
		} else if (left >= 2 && p[0] == '<' && is_name_start((unsigned char)p[1])) {
			size_t end;

			for (; line_pos < i; line_pos++)
				line += in[line_pos] == '\n';
			end = start_tag(&o, in, len, i, line);

			if (end > len) {
				*what = "more than 32 attributes in one element";
				goto bad;
			}
			i = end;
		} else if (left >= 2 && p[0] == '/' && p[1] == '*') {
			e = find(in, len, i + 2, "*/");
			if (e == len)
				goto unterminated_comment;
			blank(&o, in, i, e + 2);
			i = e + 2;
		} else if (left >= 2 && p[0] == '/' && p[1] == '/' && (i == 0 || in[i - 1] != ':')) {
			e = i;
			while (e < len && in[e] != '\n')
				e++;
			blank(&o, in, i, e);
			i = e;
		} else if (*p == '<' || *p == '&' || *p == '/') {
			i += put_text_char(&o, in, len, i, 0);
		} else {
			/* a run of plain text: copied at once */
			e = i + 1;
			while (e < len && in[e] != '<' && in[e] != '&' && in[e] != '/')
				e++;
			ltt_buf_add(&o, p, e - i);
			i = e;
		}
	}
	ltt_buf_add(&o, ROOT_CLOSE, strlen(ROOT_CLOSE));
	if (o.nomem) {
		free(o.buf);
		return -ENOMEM;
	}
	*out = o.buf;
	*out_len = o.len;
	return 0;

unterminated_comment:
	*what = "unterminated comment";
bad:
	*bad_line = line_at(in, i);
	free(o.buf);
	return -EINVAL;
}
