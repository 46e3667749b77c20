#!/bin/sh
# SPDX-License-Identifier: MIT
# `ltt export --help` lists every export format the command has (issue 35 point 5: lttng was missing):
# each exporter's .name in tools/export/exp_*.c and tools/sql/exp_rows.c is a "NAME:" entry of the
# --format option.
set -u
: "${SRCDIR:?}" "${LTT:?}"
help=$(mktemp) || exit 1
trap 'rm -f "$help"' EXIT
"$LTT" export --help > "$help" 2>&1
n=0
for f in "$SRCDIR"/tools/export/exp_*.c "$SRCDIR"/tools/sql/exp_rows.c; do
	name=$(sed -n 's/^	\.name = "\([^"]*\)",$/\1/p' "$f" | head -n 1)
	[ -n "$name" ] || { echo "FAIL: no exporter name in $f"; exit 1; }
	grep -Eq "^  (--format=FORMAT)? +$name: " "$help" || { echo "FAIL: ltt export --help does not list $name"; exit 1; }
	n=$((n + 1))
done
echo "ok: $n formats listed"
