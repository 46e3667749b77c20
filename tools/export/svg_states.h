/* SPDX-License-Identifier: MIT */
/* Thread-state lanes of the SVG exporter (svg_states.c): with kernel events (the kernel facility, a
 * 2004 trace's core events), the scheduling model's state of each thread (toolkit/sched_model.h:
 * user, syscall, trap, irq, softirq on CPU; runnable, sleeping, blocked, other off CPU) as a lane of
 * coloured runs, one colour per state: each pixel column takes the state that held the thread
 * longest in it. Each lane carries its exact totals (ns and interval count per state) in data-*
 * attributes and in a <title>, so that a figure read off the picture can be checked.
 *
 * Memory: one lane of SVG_STATE_LANES at most, SCHED_NSTATES floats per pixel column each. */
#ifndef LTT_TOOLS_EXPORT_SVG_STATES_H
#define LTT_TOOLS_EXPORT_SVG_STATES_H

#include <stdint.h>

#include <ltt/reader.h>

#include "toolkit/dump_out.h"

#define SVG_STATE_LANES 32	/* threads drawn; the others are counted */
#define SVG_STATE_H 14		/* height of a state lane, pixels */
#define SVG_STATE_HEAD 34	/* the section's heading and legend, pixels */

struct svg_states;

/* The plot: time t0 at x0, px_ns ns per pixel column, pw columns. */
int svg_states_new(struct svg_states **out, uint64_t t0, double px_ns, unsigned pw);
/* Where each kernel stream's kept history starts (toolkit/sched_decode.h), before the first event. */
int svg_states_history(struct svg_states *s, struct ltt_reader *r);
void svg_states_free(struct svg_states *s);
/* Feeds the next event (merge order): 0 or a negative errno. */
int svg_states_event(struct svg_states *s, const struct ltt_event *ev);
/* Ends every thread's last state at end_ns: 0 or a negative errno. Call once. */
int svg_states_finish(struct svg_states *s, uint64_t end_ns);
/* Lanes to draw (0: no kernel states, nothing to draw). */
unsigned svg_states_lanes(const struct svg_states *s);
/* Height of the section, pixels (0 without lanes). */
unsigned svg_states_height(const struct svg_states *s);
/* Writes the section from y down: the heading, the legend, a lane per thread (label at x 4, plot at
 * x0). */
void svg_states_draw(struct svg_states *s, struct dump_out *o, int x0, int y);

#endif
