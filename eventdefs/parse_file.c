/* SPDX-License-Identifier: MIT */
/* Facility files and buffers: the dialect pre-pass, libxml2 (first error kept), then the walk.
 *
 * libxml2 runs with XML_PARSE_NONET and without XML_PARSE_NOENT (no entity substitution); the
 * pre-pass refuses declarations, so no entity can be defined at all.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "common/io.h"
#include "model.h"
#include "names.h"
#include "parse.h"

#define MAX_FILE_BYTES (1u << 20)	/* 90 times app.xml, the largest shipped; bounds the tree libxml2 builds */

/* The first error libxml2 reports while parsing. */
struct first_err {
	int set;
	unsigned line;
	char msg[256];
};

static void first_error(void *user, xmlErrorPtr e)
{
	xmlParserCtxtPtr ctxt = user;
	struct first_err *fe = ctxt ? ctxt->_private : NULL;

	if (!fe || fe->set || !e || e->level < XML_ERR_ERROR)
		return;
	fe->set = 1;
	fe->line = e->line > 0 ? (unsigned)e->line : 0;
	snprintf(fe->msg, sizeof(fe->msg), "%s", e->message ? e->message : "not well-formed XML");
	/* an element left open at the end of the file meets the pre-pass's closing root tag */
	if (strstr(fe->msg, "ltt-eventdefs")) {
		char tag[64];
		unsigned line;

		if (sscanf(fe->msg, "Opening and ending tag mismatch: %63s line %u and", tag, &line) == 2) {
			snprintf(fe->msg, sizeof(fe->msg), "<%s> not closed at the end of the file", tag);
			fe->line = line;
		} else {
			snprintf(fe->msg, sizeof(fe->msg), "unexpected end of the file");
		}
	}
}

static int parse_doc(struct pctx *c, const char *xml, size_t len, struct eventdefs_owner *o)
{
	xmlParserCtxtPtr ctxt = xmlNewParserCtxt();
	struct first_err fe = { 0 };
	struct ltt_facility_desc *facs;
	xmlDocPtr doc;
	xmlNode *root;
	uint32_t n = 0, i = 0;
	int r = 0;

	if (!ctxt)
		return -ENOMEM;
	if (len > INT32_MAX) {
		xmlFreeParserCtxt(ctxt);
		eventdefs_error(c->err, c->errlen, c->file, 0, "file too large");
		return -EFBIG;
	}
	/* keep the first error: later ones are usually consequences (and name the wrapper root) */
	ctxt->sax->serror = first_error;
	ctxt->_private = &fe;
	doc = xmlCtxtReadMemory(ctxt, xml, (int)len, c->file, "UTF-8",
				XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_BIG_LINES);
	if (!doc || fe.set) {
		const char *msg = fe.set ? fe.msg : "not well-formed XML";
		size_t ml = strlen(msg);

		while (ml && (msg[ml - 1] == '\n' || msg[ml - 1] == ' '))
			ml--;
		eventdefs_error(c->err, c->errlen, c->file, fe.set ? fe.line : 0, "%.*s", (int)ml, msg);
		xmlFreeDoc(doc);
		xmlFreeParserCtxt(ctxt);
		return -EINVAL;
	}
	root = xmlDocGetRootElement(doc);
	for (xmlNode *k = root ? root->children : NULL; k; k = k->next) {
		if (ed_is_elem(k, "facility")) {
			n++;
		} else if (!ed_is_ignorable(k)) {
			r = k->type == XML_ELEMENT_NODE ?
				FAIL(c, k, "unknown element <%s> outside <facility>", (const char *)k->name) :
				FAIL(c, k, "unexpected text outside <facility>");
			goto out;
		}
	}
	if (!n) {
		eventdefs_error(c->err, c->errlen, c->file, 0, "no <facility> element");
		r = -EINVAL;
		goto out;
	}
	facs = arena_alloc(c->arena, n * sizeof(*facs));
	if (!facs) {
		r = -ENOMEM;
		goto out;
	}
	for (xmlNode *k = root->children; k; k = k->next)
		if (ed_is_elem(k, "facility") && (r = ed_parse_facility(c, k, &facs[i++])))
			goto out;
	o->pub.facilities = facs;
	o->pub.n_facilities = n;
out:
	xmlFreeDoc(doc);
	xmlFreeParserCtxt(ctxt);
	return r;
}

int ltt_eventdefs_parse_mem(const char *buf, size_t len, const char *name, struct ltt_eventdefs **out,
			    char *err, size_t errlen)
{
	struct eventdefs_owner *o;
	struct pctx c = { .err = err, .errlen = errlen };
	const char *what = NULL;
	unsigned bad_line = 0;
	size_t xml_len = 0;
	char *xml = NULL;
	int r;

	*out = NULL;
	if (err && errlen)
		err[0] = '\0';
	if (!name)
		name = "(memory)";
	o = calloc(1, sizeof(*o));
	if (!o)
		goto nomem;
	c.arena = &o->arena;
	c.file = o->pub.file = arena_strdup(&o->arena, name);
	if (!c.file)
		goto nomem;
	r = eventdefs_prepass(buf, len, &xml, &xml_len, &bad_line, &what);
	if (r == -EINVAL)
		eventdefs_error(err, errlen, name, bad_line, "%s", what);
	if (!r)
		r = parse_doc(&c, xml, xml_len, o);
	free(xml);
	if (r == -ENOMEM)
		goto nomem;
	if (r) {
		ltt_eventdefs_free(&o->pub);
		return r;
	}
	*out = &o->pub;
	return 0;

nomem:
	eventdefs_error(err, errlen, name, 0, "out of memory");
	ltt_eventdefs_free(o ? &o->pub : NULL);
	return -ENOMEM;
}

int ltt_eventdefs_parse_file(const char *path, struct ltt_eventdefs **out, char *err, size_t errlen)
{
	char *buf;
	size_t len;
	struct stat st;
	int r;

	*out = NULL;
	/* a regular file only, opened O_NONBLOCK: opening a FIFO must not wait for a writer */
	r = ltt_read_small_file(path, 0, MAX_FILE_BYTES, &buf, &len);
	if (r == -LTT_ENOTREG && !stat(path, &st) && S_ISDIR(st.st_mode))
		r = -EISDIR;
	if (r == -LTT_ENOTREG) {
		eventdefs_error(err, errlen, path, 0, "not a regular file");
		return -EINVAL;
	}
	if (r == -EFBIG)
		eventdefs_error(err, errlen, path, 0, "larger than %u bytes", MAX_FILE_BYTES);
	else if (r == -ENOMEM)
		eventdefs_error(err, errlen, path, 0, "out of memory");
	else if (r)
		eventdefs_error(err, errlen, path, 0, r == -EISDIR ? "cannot read: %s" : "cannot open: %s", strerror(-r));
	if (r)
		return r;
	r = ltt_eventdefs_parse_mem(buf, len, path, out, err, errlen);
	free(buf);
	return r;
}
