/* SPDX-License-Identifier: MIT */
/* libxml2 as the reader uses it (info/system.xml, info/bookmarks.xml, info/manifest.xml): files read
 * whole under a size cap, parsed without network access or entity substitution, every libxml2
 * message caught by a structured error handler (libxml2 prints nothing itself; ltt prints one line),
 * large documents streamed one element at a time so that memory stays bounded by the file's size.
 * Private to libltt-reader. */
#ifndef LTT_READER_XML_H
#define LTT_READER_XML_H

#include <stddef.h>

#include <libxml/tree.h>

/* The first error libxml2 reported, one line. */
struct rd_xml_error {
	int line;
	char msg[200];
};

/* Parses a whole document (small ones: info/system.xml). NULL on failure, with e filled. */
xmlDocPtr rd_xml_parse(const char *buf, size_t len, const char *url, struct rd_xml_error *e);

/* Streams a document: root(node, arg) with the root element (its attributes; no children), then
 * child(node, arg) with each element child of the root, expanded with its subtree, which is freed once
 * the callback returns. Other nodes at depth 1 (text, comments) are skipped. Returns 0; the first
 * nonzero value a callback returned; or -EBADMSG for malformed XML, with e filled. */
int rd_xml_stream(const char *buf, size_t len, const char *url, int (*root)(xmlNodePtr n, void *arg),
		  int (*child)(xmlNodePtr n, void *arg), void *arg, struct rd_xml_error *e);

#endif
