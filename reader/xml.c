/* SPDX-License-Identifier: MIT */
/* libxml2 as the reader uses it: capped reads, a structured error handler on every parser, streaming
 * (see xml.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/xmlreader.h>

#include "xml.h"

/* No network, no entity substitution, no message of libxml2's own, line numbers past 65535. */
#define RD_XML_OPTIONS (XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_BIG_LINES)

/* Keeps the first error, on one line; warnings are not errors. */
static void keep_first(struct rd_xml_error *e, int *set, const xmlError *x)
{
	const char *m;
	size_t n;

	if (*set || !x || x->level < XML_ERR_ERROR)
		return;
	*set = 1;
	m = x->message ? x->message : "not well-formed XML";
	n = strcspn(m, "\n");
	e->line = x->line > 0 ? x->line : 0;
	snprintf(e->msg, sizeof(e->msg), "%.*s", (int)n, m);
}

struct parse_err {
	struct rd_xml_error *e;
	int set;
};

/* The parser context's structured handler: libxml2 passes the context as user data. */
static void on_ctxt_error(void *user, xmlErrorPtr x)
{
	xmlParserCtxtPtr ctxt = user;
	struct parse_err *pe = ctxt ? ctxt->_private : NULL;

	if (pe)
		keep_first(pe->e, &pe->set, x);
}

static void on_reader_error(void *user, xmlErrorPtr x)
{
	struct parse_err *pe = user;

	keep_first(pe->e, &pe->set, x);
}

static void too_large(struct rd_xml_error *e)
{
	e->line = 0;
	snprintf(e->msg, sizeof(e->msg), "larger than %d bytes", INT_MAX);
}

xmlDocPtr rd_xml_parse(const char *buf, size_t len, const char *url, struct rd_xml_error *e)
{
	struct parse_err pe = { e, 0 };
	xmlParserCtxtPtr ctxt;
	xmlDocPtr doc;

	memset(e, 0, sizeof(*e));
	if (len > INT_MAX) {
		too_large(e);
		return NULL;
	}
	ctxt = xmlNewParserCtxt();
	if (!ctxt) {
		snprintf(e->msg, sizeof(e->msg), "out of memory");
		return NULL;
	}
	ctxt->sax->serror = on_ctxt_error;
	ctxt->_private = &pe;
	doc = xmlCtxtReadMemory(ctxt, buf, (int)len, url, NULL, RD_XML_OPTIONS);
	if (doc && pe.set) {	/* recovered from an error: still an error */
		xmlFreeDoc(doc);
		doc = NULL;
	}
	if (!doc && !pe.set)
		snprintf(e->msg, sizeof(e->msg), "not well-formed XML");
	xmlFreeParserCtxt(ctxt);
	return doc;
}

int rd_xml_stream(const char *buf, size_t len, const char *url, int (*root)(xmlNodePtr n, void *arg),
		  int (*child)(xmlNodePtr n, void *arg), void *arg, struct rd_xml_error *e)
{
	struct parse_err pe = { e, 0 };
	xmlTextReaderPtr r;
	int st, ret = 0, roots = 0;

	memset(e, 0, sizeof(*e));
	if (len > INT_MAX) {
		too_large(e);
		return -EBADMSG;
	}
	r = xmlReaderForMemory(buf, (int)len, url, NULL, RD_XML_OPTIONS);
	if (!r)
		return -ENOMEM;
	xmlTextReaderSetStructuredErrorHandler(r, on_reader_error, &pe);
	st = xmlTextReaderRead(r);
	while (st == 1 && !ret && !pe.set) {
		int type = xmlTextReaderNodeType(r), depth = xmlTextReaderDepth(r);
		xmlNodePtr n;

		if (type != XML_READER_TYPE_ELEMENT || depth > 1) {
			st = xmlTextReaderRead(r);
		} else if (depth == 0) {
			roots++;
			n = xmlTextReaderCurrentNode(r);
			ret = n ? root(n, arg) : -ENOMEM;
			st = xmlTextReaderRead(r);
		} else {
			n = xmlTextReaderExpand(r);
			if (!n)
				break;
			ret = child(n, arg);
			st = xmlTextReaderNext(r);
		}
	}
	if (!ret && (st != 0 || pe.set)) {
		if (!pe.set)
			snprintf(e->msg, sizeof(e->msg), "not well-formed XML");
		ret = -EBADMSG;
	} else if (!ret && !roots) {
		snprintf(e->msg, sizeof(e->msg), "no root element");
		ret = -EBADMSG;
	}
	xmlFreeTextReader(r);
	return ret;
}
