#!/bin/sh
# SPDX-License-Identifier: MIT
# The per-CPU event path (restartable sequences, ltt/static/rseq.h) under forced preemption, migration
# and tracing signal handlers inside its sequences (tests/progs/perf_rseq.c, built with a spin inside
# each sequence): every event is in the trace exactly once, intact, in per-thread order, or counted
# lost; the sequences were really restarted and commits really went out of line. The same program
# with LTT_RSEQ=0 (the locked path) is exact too.
set -u
prog="$BUILD/tests/progs/perf_rseq"
tmp=$(mktemp -d /tmp/ltt-e2e-perf.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

count() { "$LTT" dump --event "$2" "$1" | wc -l; }
lost() { "$LTT" stats "$1" | sed -n 's/^ *lost *\([0-9]*\) events.*/\1/p'; }
field() { echo "$1" | sed -n "s/.*\\b$2=\\([0-9]*\\).*/\\1/p"; }

# the trace $1 holds each (thread, seq) of rtest.ev once, intact, seq increasing with cycles
in_order() {
	"$LTT" dump --format=json --event rtest.ev "$1" |
	sed 's/.*"cycles":\([0-9]*\).*"thread":\([0-9]*\),"seq":\([0-9]*\),"check":\([0-9]*\).*/\2 \1 \3 \4/' |
	sort -k1,1n -k2,2n | awk '
	{ same = NR > 1 && $1 == t
	  if (same && $3 != s + 1) { print "thread " $1 ": seq " $3 " after " s; bad = 1 }
	  if (!same && $3 != 0) { print "thread " $1 " starts at seq " $3; bad = 1 }
	  t = $1; s = $3 }
	END { exit bad }'
}

# exact DIR [ENV...]: a roomy ring, 4 threads on 2+ CPUs; prints the program's output
exact() {
	d=$1
	shift
	out=$(env "$@" LTT_TRACE="$tmp/$d" LTT_BLOCK_SIZE=65536 LTT_BLOCKS=256 "$prog" 4 20000) ||
		fail "perf_rseq: $out"
	ev=$(field "$out" ev) sig=$(field "$out" sig)
	[ "$ev" = 80000 ] || fail "emitted: $out"
	l=$(lost "$tmp/$d"); [ "$l" = 0 ] || fail "$d: roomy ring lost $l events"
	n=$(count "$tmp/$d" rtest.ev); [ "$n" = "$ev" ] || fail "$d: rtest.ev: $n in the trace, $ev emitted"
	n=$(count "$tmp/$d" rtest.sig); [ "$n" = "$sig" ] || fail "$d: rtest.sig: $n in the trace, $sig emitted"
	in_order "$tmp/$d" || fail "$d: per-thread order or completeness"
	echo "$out"
}

# 1. per-CPU path: exact, and the injected spin made the kernel restart sequences and move commits
out=$(exact rseq) || { echo "$out"; exit 1; }
r=$(field "$out" rseq) a=$(field "$out" aborts) s=$(field "$out" slow)
case "$SANITIZE" in
*thread*)	[ "$r" = 0 ] || fail "rseq path under ThreadSanitizer: $out" ;;
*)		[ "$r" = 1 ] || fail "the CPU rings are not per-CPU (rseq): $out"
		[ "$a" -gt 0 ] || fail "no sequence was restarted: $out"
		[ "$s" -gt 0 ] || fail "no commit went out of line: $out" ;;
esac

# 2. a ring far too small: events in the trace + events_lost == emitted, through the slow path's
#    sequences and remote operations, with the signal handlers' events (at least one per worker)
#    landing in reservations, drops and block openings of the interrupted thread on the same ring
out2=$(LTT_TRACE="$tmp/small" LTT_BLOCK_SIZE=4096 LTT_BLOCKS=2 "$prog" 4 20000) || fail "perf_rseq: $out2"
ev=$(field "$out2" ev) sig=$(field "$out2" sig)
[ "$ev" = 80000 ] && [ "$sig" -ge 4 ] || fail "small ring, emitted: $out2"
l=$(lost "$tmp/small") n1=$(count "$tmp/small" rtest.ev) n2=$(count "$tmp/small" rtest.sig)
[ $((n1 + n2 + l)) = $((ev + sig)) ] || fail "small ring: in trace $n1 + $n2, lost $l; emitted $ev + $sig"

# 3. the locked path (LTT_RSEQ=0), same program: exact
out3=$(exact locked LTT_RSEQ=0) || { echo "$out3"; exit 1; }
[ "$(field "$out3" rseq)" = 0 ] || fail "LTT_RSEQ=0 still per-CPU: $out3"
[ "$(field "$out3" aborts)" = 0 ] || fail "LTT_RSEQ=0 ran sequences: $out3"
echo "ok: per-CPU path exact ($(echo "$out" | tail -n 1)); small ring $n1 + $n2 + $l lost = $((ev + sig)); locked path exact"
