/* The CTF export's TSDL metadata of ltt types (ctf_meta.c). */
#ifndef LTT_TOOLS_EXPORT_CTF_H
#define LTT_TOOLS_EXPORT_CTF_H

#include <stdio.h>

#include <ltt/eventdefs.h>

/* name, or "_name" in buf when it is a TSDL keyword or starts with '_' (CTF 1.8 readers remove one
 * leading underscore). */
const char *ctf_name(const char *name, char *buf, size_t len);
/* Writes s as a TSDL string literal. */
void ctf_quoted(FILE *m, const char *s);
/* Writes "fields := struct { ... };" for an event body (NULL: no payload). */
void ctf_body_decl(FILE *m, const struct ltt_type_desc *body, enum ltt_arch_size arch);

#endif
