/* SPDX-License-Identifier: MIT */
/* Event fields as JSON, shared by `ltt dump --format=json`, `ltt sql` (the events table's `fields`,
 * the JSON of array, sequence and union columns) and `ltt export --format=rows`. Values: integers in
 * decimal, enums as their label (the number when no label has that value), floats in the shortest
 * form that reads back the same (null for NaN and infinities: JSON has none), strings as JSON
 * strings, arrays and sequences as arrays, structs as objects, a union as an object of its selected
 * field. */
#ifndef LTT_TOOLKIT_JSON_FIELDS_H
#define LTT_TOOLKIT_JSON_FIELDS_H

#include "toolkit/dump_format.h"

/* What json_fields precomputes for one event type (the keys of a struct of scalars, read straight
 * from the payload); opaque. */
struct json_plan;

/* Writes the body of ev as one JSON object ({} for an event without payload). *plan caches the
 * event type's plan: NULL before the first event of the type, kept by the caller (one per event type
 * of one reader), freed with json_plan_free. Returns 0, or -ENOMEM (nothing written). */
int json_fields(struct dump_out *o, const struct ltt_event *ev, struct json_plan **plan);
void json_plan_free(struct json_plan *p);

/* For formats that reserve room once per event (fmt_json.c): the plan of ev's type (made on the first
 * call, as json_fields does), and its flat plan in *flat, or NULL when the body is walked (then call
 * json_fields). Returns 0 or -ENOMEM. */
struct dump_plan;
int json_plan_get(const struct ltt_event *ev, struct json_plan **plan, const struct dump_plan **flat);

/* The same object as a JSON string literal ("{\"a\":1}"), for engines without a JSON type
 * (`ltt export --format=rows`). A plan is for one of the two functions only. Returns 0, -ENOMEM, or
 * -EFBIG when the object is longer than DUMP_OUT_SIZE (nothing written). */
int json_fields_string(struct dump_out *o, const struct ltt_event *ev, struct json_plan **plan);

/* Writes the n bytes of JSON text j with '"' and '\\' escaped (j is valid UTF-8 without control
 * characters, as JSON text is), between double quotes when quotes is nonzero. */
void json_quote(struct dump_out *o, const char *j, size_t n, int quotes);

/* Writes one value (any type) as JSON. */
void json_value(struct dump_out *o, const struct ltt_value *v);

/* A malloc'ed string pre + JSON string literal of s + post (*len its length), or NULL. */
char *json_literal(const char *pre, const char *s, const char *post, size_t *len);

#endif
