#!/bin/sh
# SPDX-License-Identifier: MIT
# The facility file of the one surviving 2004 trace (original dialect: bare attribute values) parses:
# facility core, 22 events. Its checksum is the one ltt computes by doc/format.md section 8 (the
# trace's control/facilities is empty, so there is no recorded checksum to compare with).
set -u
. "$SRCDIR/tests/e2e/lib/reference.sh"
need_reference lttv-smp-example/eventdefs/core.xml
f="$REF/lttv-smp-example/eventdefs/core.xml"
got=$("$LTT" facilities "$f") || { echo "ltt facilities failed on $f"; exit 1; }
[ "$got" = "core 0x06588858 22" ] || { echo "got '$got'"; exit 1; }
# and the generator accepts it
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
"$LTT" gen "$f" -o "$dir" || { echo "ltt gen failed on $f"; exit 1; }
grep -q 'trace_core_block_start(const struct core_timestamp \*timestamp, uint32_t block_id)' "$dir/core.h" ||
	{ echo "core.h lacks trace_core_block_start"; exit 1; }
echo ok
