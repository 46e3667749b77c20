#!/bin/sh
# SPDX-License-Identifier: MIT
# `ltt record --mode flight`: prints the snapshot directories (the traces), not the top-level flight
# directory, which holds only eventdefs/, info/ and the snapshots (no empty control/ or cpu/ that would
# look like an empty trace); with no snapshot taken it says so.
set -u
prog="$BUILD/tests/progs/flight_prog"
[ -x "$prog" ] || { echo "skip: $prog not built"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ltt-e2e-flight-record-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

out=$(cd "$tmp" && "$LTT" record --mode flight --block-size 4096 --blocks 4 -o rf -- "$prog" exit 100 2>&1 >/dev/null) ||
	fail "ltt record: $out"
nopid() { printf '%s\n' "$1" | grep -v '^ltt record: pid [0-9]* runs '; }	# the line naming the program's pid
out=$(nopid "$out")
[ "$out" = "ltt record: snapshot written to $tmp/rf/snapshot-0001" ] || fail "output: $out"
[ "$(ls "$tmp/rf" | tr '\n' ' ')" = "eventdefs info snapshot-0001 " ] || fail "top level: $(ls "$tmp/rf")"
[ "$("$LTT" dump --event flighttest.tick "$tmp/rf/snapshot-0001" | wc -l)" = 100 ] || fail "ticks"

out=$(cd "$tmp" && LTT_SNAPSHOT_AT_EXIT=0 "$LTT" record --mode flight -o rf2 -- "$prog" exit 10 2>&1 >/dev/null) ||
	fail "ltt record, no snapshot: $out"
out=$(nopid "$out")
case "$out" in "ltt record: flight trace $tmp/rf2: no snapshot taken"*) ;; *) fail "no snapshot: $out" ;; esac

# discard mode is unchanged
out=$(cd "$tmp" && "$LTT" record -o rd -- "$prog" exit 10 2>&1 >/dev/null) || fail "discard: $out"
out=$(nopid "$out")
[ "$out" = "ltt record: trace written to $tmp/rd" ] || fail "discard output: $out"
[ -d "$tmp/rd/control" ] && [ -d "$tmp/rd/cpu" ] || fail "discard: no control/ or cpu/"
echo ok
