/* SPDX-License-Identifier: MIT */
/* What the reader commands (dump, stats, check, export, sql) share, one header per concern: their
 * trace set, problems and exit status (reader_tool.h), their event filters and times
 * (reader_filter.h), figures for people (text_units.h). Include the one needed; this header is all
 * three. */
#ifndef LTT_TOOLKIT_READER_COMMON_H
#define LTT_TOOLKIT_READER_COMMON_H

#include "common/grow.h"
#include "toolkit/reader_filter.h"
#include "toolkit/reader_tool.h"
#include "toolkit/text_units.h"

#endif
