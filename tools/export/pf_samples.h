/* SPDX-License-Identifier: MIT */
/* tools/export/pf_samples.h: stack samples for the Perfetto exporter (pf_samples.c). */
#ifndef LTT_TOOLS_PROFILE_PF_SAMPLES_H
#define LTT_TOOLS_PROFILE_PF_SAMPLES_H

#include <stdint.h>

#include <ltt/reader.h>

struct pb;
struct prof_pf;

struct prof_pf *prof_pf_new(uint32_t pid);
void prof_pf_free(struct prof_pf *s);
/* Feeds ev: 0 when it is not a stack sample (core.mapping is taken note of; the caller exports the
 * event as usual), 1 for a stack sample left out (not decodable, tables full), 2 when a PerfSample
 * (TracePacket field 66) was written to body and what it uses to in (the packet's InternedData), or a
 * negative errno. */
int prof_pf_event(struct prof_pf *s, const struct ltt_event *ev, struct pb *in, struct pb *body);
/* Stack samples left out so far. */
uint64_t prof_pf_left_out(const struct prof_pf *s);

#endif
