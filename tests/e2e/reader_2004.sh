#!/bin/sh
# SPDX-License-Identifier: MIT
# The one surviving trace of the original tools (2004, v1 dialect: doc/format.md section 10) decodes
# completely: exact event counts per CPU and type, first and last events of each CPU with their
# decoded values and times, clean ltt check. Golden: tests/golden/reader/lttv-smp-example.txt.
set -u
: "${SRCDIR:?}" "${LTT:?}"
. "$SRCDIR/tests/e2e/lib/reference.sh"
need_reference lttv-smp-example
ref=$REF
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
cd "$ref" || exit 1
t=lttv-smp-example
{
	echo "== check"; "$LTT" check "$t"; echo "exit $?"
	echo "== stats"; "$LTT" stats "$t"; echo "exit $?"
	for cpu in 0 1; do
		echo "== cpu/$cpu first and last events (--all)"
		"$LTT" dump --all --cpu $cpu "$t" | head -n 4
		"$LTT" dump --all --cpu $cpu "$t" | tail -n 4
		echo "== cpu/$cpu events: $("$LTT" dump --cpu $cpu "$t" | wc -l)"
	done
	echo "== merged: $("$LTT" dump "$t" | wc -l) events, first 6 and last 3 (json)"
	"$LTT" dump --format=json "$t" | head -n 6
	"$LTT" dump --format=json "$t" | tail -n 3
	echo "== merge order is by time: $("$LTT" dump --format=json "$t" | cut -d'"' -f4 | sort -c 2>&1 | wc -l) disorders"
} > "$out" 2>&1
if ! cmp -s "$out" "$SRCDIR/tests/golden/reader/lttv-smp-example.txt"; then
	diff "$SRCDIR/tests/golden/reader/lttv-smp-example.txt" "$out"
	exit 1
fi
exit 0
