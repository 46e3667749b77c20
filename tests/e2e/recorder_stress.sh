#!/bin/sh
# SPDX-License-Identifier: MIT
# Recorder end to end, read back by libltt-reader (ltt dump / ltt stats): threads migrating between
# CPUs and signal handlers tracing. With a roomy ring every event is in the trace exactly once, intact
# and in per-thread order; with a ring far too small, events in the trace + events_lost == emitted.
set -u
prog="$BUILD/tests/progs/rec_stress"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ltt-e2e-recorder.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# count of the events named $2 in trace $1
count() { "$LTT" dump --event "$2" "$1" | wc -l; }
# the "lost N events" figure of ltt stats
lost() { "$LTT" stats "$1" | sed -n 's/^ *lost *\([0-9]*\) events.*/\1/p'; }

# 1. roomy ring: no loss, each (thread, seq) once, check value intact, seq increasing with cycles
out=$(LTT_TRACE="$tmp/big" LTT_BLOCK_SIZE=65536 LTT_BLOCKS=256 "$prog" 3 50000 migrate signal) || fail "rec_stress: $out"
ev=$(echo "$out" | sed -n 's/^emitted ev=\([0-9]*\) sig=\([0-9]*\)$/\1/p')
sig=$(echo "$out" | sed -n 's/^emitted ev=\([0-9]*\) sig=\([0-9]*\)$/\2/p')
[ "$ev" = 150000 ] || fail "emitted: $out"
l=$(lost "$tmp/big"); [ "$l" = 0 ] || fail "roomy ring lost $l events"
n=$(count "$tmp/big" rtest.ev); [ "$n" = "$ev" ] || fail "rtest.ev: $n in the trace, $ev emitted"
n=$(count "$tmp/big" rtest.sig); [ "$n" = "$sig" ] || fail "rtest.sig: $n in the trace, $sig emitted"
"$LTT" dump --format=json --event rtest.ev "$tmp/big" |
	sed 's/.*"cycles":\([0-9]*\).*"thread":\([0-9]*\),"seq":\([0-9]*\),"check":\([0-9]*\).*/\2 \1 \3 \4/' |
	sort -k1,1n -k2,2n | awk '
	{ same = NR > 1 && $1 == t
	  if (same && $3 != s + 1) { print "thread " $1 ": seq " $3 " after " s; bad = 1 }
	  if (!same && $3 != 0) { print "thread " $1 " starts at seq " $3; bad = 1 }
	  t = $1; s = $3 }
	END { exit bad }' || fail "per-thread order or completeness"

# 2. ring far too small: exact accounting
out=$(LTT_TRACE="$tmp/small" LTT_BLOCK_SIZE=4096 LTT_BLOCKS=2 "$prog" 2 200000 migrate signal) || fail "rec_stress: $out"
ev=$(echo "$out" | sed -n 's/^emitted ev=\([0-9]*\) sig=\([0-9]*\)$/\1/p')
sig=$(echo "$out" | sed -n 's/^emitted ev=\([0-9]*\) sig=\([0-9]*\)$/\2/p')
l=$(lost "$tmp/small")
n1=$(count "$tmp/small" rtest.ev)
n2=$(count "$tmp/small" rtest.sig)
[ "$l" -gt 0 ] || fail "small ring lost nothing"
[ $((n1 + n2 + l)) = $((ev + sig)) ] || fail "in trace $n1 + $n2, lost $l; emitted $ev + $sig"
echo "ok: roomy ring exact; small ring $n1 + $n2 recorded + $l lost = $((ev + sig)) emitted"
