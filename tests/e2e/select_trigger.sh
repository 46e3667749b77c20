#!/bin/sh
# SPDX-License-Identifier: MIT
# Snapshot triggers (LTT_SNAPSHOT_ON; doc/flight-recorder.md "Triggers"): one trigger event in a 10 M
# event run gives exactly one snapshot, which holds it and names it (ltt stats), even when the ring is
# far too small to keep it until the recorder's thread looks (the rings hold it); a storm of triggers
# gives at most one snapshot per LTT_SNAPSHOT_MIN_INTERVAL_MS and LTT_SNAPSHOT_KEEP keeps the newest;
# bad settings are one line and no trace.
set -u
prog="$BUILD/tests/progs/select_flight"
[ -x "$prog" ] || { echo "skip: $prog not built"; exit 77; }
tmp=$(mktemp -d /tmp/ltt-e2e-select-trigger-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export LTT_MODE=flight LTT_SNAPSHOT_AT_EXIT=0

# one trigger among 10 M events
LTT_TRACE="$tmp/one" LTT_SNAPSHOT_ON="seltest.c" "$prog" trigger 10000000 7000000 || fail "trigger run"
[ "$(ls "$tmp/one" | tr '\n' ' ')" = "eventdefs info snapshot-0001 " ] || fail "snapshots: $(ls "$tmp/one")"
out=$("$LTT" dump --event seltest.c "$tmp/one/snapshot-0001") || fail "dump"
case "$out" in "seltest.c: "*"{ thread = 0, seq = 7000000 }") ;; *) fail "trigger event: '$out'" ;; esac
[ "$(printf '%s\n' "$out" | wc -l)" = 1 ] || fail "trigger events: $out"
"$LTT" dump --event seltest.a "$tmp/one/snapshot-0001" | grep -q "seq = 7000000 }" || fail "a(7000000) not in it"
stats=$("$LTT" stats "$tmp/one/snapshot-0001") || fail "stats"
printf '%s\n' "$stats" | grep -q "^  trigger     snapshot taken for seltest.c recorded at [0-9]*\.[0-9]\{9\} (LTT_SNAPSHOT_ON)$" ||
	fail "stats trigger line: $(printf '%s\n' "$stats" | grep trigger)"
got=$("$LTT" stats --format=json "$tmp/one/snapshot-0001" | jq -r '.trigger.event + " " + .trigger.time') || fail "stats json"
case "$got" in "seltest.c "[0-9]*.[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]) ;; *) fail "stats json trigger: '$got'" ;; esac
grep -q 'ltt_trigger="seltest.c"' "$tmp/one/snapshot-0001/info/system.xml" || fail "system.xml"

# the rings hold the trigger's blocks until its snapshot: with 2 blocks of 4 KiB (about 450 events) the
# 2 M events after the trigger would overwrite it 4000 times over before the thread's next look; they
# are dropped instead (counted), and the snapshot holds the trigger and the event before it
LTT_TRACE="$tmp/small" LTT_BLOCKS=2 LTT_BLOCK_SIZE=4096 LTT_SNAPSHOT_ON="seltest.c" "$prog" trigger 3000000 1000000 ||
	fail "small ring run"
out=$("$LTT" dump --event seltest.c "$tmp/small/snapshot-0001") || fail "small: dump"
case "$out" in "seltest.c: "*"{ thread = 0, seq = 1000000 }") ;; *) fail "small: trigger event: '$out'" ;; esac
"$LTT" dump --event seltest.a "$tmp/small/snapshot-0001" | grep -q "seq = 1000000 }" || fail "small: a(1000000) not in it"

# a storm: every event a trigger for 600 ms, one snapshot per 100 ms at most, the newest 2 kept
LTT_TRACE="$tmp/storm" LTT_SNAPSHOT_ON="seltest.*" LTT_SNAPSHOT_MIN_INTERVAL_MS=100 LTT_SNAPSHOT_KEEP=2 \
	"$prog" storm 600 || fail "storm run"
set -- $(ls "$tmp/storm" | grep '^snapshot-' | sed 's/^snapshot-0*//')
[ $# = 2 ] || fail "storm: $# snapshots kept, 2 expected: $(ls "$tmp/storm")"
[ "$2" = $(($1 + 1)) ] || fail "storm: kept $1 and $2, not the newest two"
[ "$2" -le 7 ] || fail "storm: $2 snapshots in 600 ms + 300 ms at most 1 per 100 ms"
for n in "$1" "$2"; do
	d=$(printf '%s/storm/snapshot-%04u' "$tmp" "$n")
	grep -q 'ltt_trigger="seltest.c"' "$d/info/system.xml" || fail "$d: no trigger"
done

# the interval: triggers inside it are ignored (default 1000 ms: a 300 ms storm gives one snapshot)
LTT_TRACE="$tmp/iv" LTT_SNAPSHOT_ON="seltest.c" "$prog" storm 300 || fail "interval run"
[ "$(ls "$tmp/iv" | grep -c '^snapshot-')" = 1 ] || fail "interval: $(ls "$tmp/iv")"

# bad settings
err=$(LTT_TRACE="$tmp/bad1" LTT_SNAPSHOT_ON="seltest.c,," "$prog" run 1 2>&1)
[ "$err" = "ltt: LTT_SNAPSHOT_ON='seltest.c,,': an empty rule at byte 10 (two commas, a comma at an end, or '-' alone); not tracing" ] ||
	fail "bad LTT_SNAPSHOT_ON: '$err'"
err=$(LTT_TRACE="$tmp/bad2" LTT_SNAPSHOT_ON=seltest.c LTT_SNAPSHOT_KEEP=x "$prog" run 1 2>&1)
[ "$err" = "ltt: LTT_SNAPSHOT_KEEP=x: not a count in [0, 1000000] (0: all); not tracing" ] || fail "bad keep: '$err'"
err=$(LTT_TRACE="$tmp/bad3" LTT_SNAPSHOT_MIN_INTERVAL_MS=-1 "$prog" run 1 2>&1)
[ "$err" = "ltt: LTT_SNAPSHOT_MIN_INTERVAL_MS=-1: not a number of ms in [0, 86400000]; not tracing" ] ||
	fail "bad interval: '$err'"
[ -e "$tmp/bad1" ] || [ -e "$tmp/bad2" ] || [ -e "$tmp/bad3" ] && fail "a bad setting made a trace"
# discard mode: one warning, traced without triggers
err=$(LTT_MODE=discard LTT_TRACE="$tmp/disc" LTT_SNAPSHOT_ON=seltest.c "$prog" run 1 2>&1)
[ "$err" = "ltt: LTT_SNAPSHOT_ON=seltest.c: snapshots are taken in flight mode only (LTT_MODE=flight); ignored" ] ||
	fail "discard: '$err'"
echo ok
