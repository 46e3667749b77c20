#!/bin/sh
# SPDX-License-Identifier: MIT
# A process killed between reserving an event and committing it: `ltt recover` keeps every event
# committed before (ticks 0 .. N-1, contiguous), drops the reserved one and counts it (events_lost,
# cause torn), never decodes it. A fixed-size event with half its payload: exactly one torn event; a
# string event with no payload written: at least one, and nothing else lost.
set -u
. "$SRCDIR/tests/e2e/lib/registry.sh"
prog="$BUILD/tests/progs/flight_prog"
[ -x "$prog" ] || { echo "skip: $prog not built"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ltt-e2e-flight-torn-XXXXXX")
trap 'for d in "$tmp"/*/; do reg_forget "${d}t"; done; rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
v() { echo "$out" | head -n 1 | tr ' ' '\n' | sed -n "s/^$1=//p"; }
export LTT_MODE=flight LTT_BLOCK_SIZE=4096 LTT_BLOCKS=8

for kind in tick note; do
	for n in 100 20000; do
		d="$tmp/$kind-$n"
		mkdir -p "$d/shm"
		LTT_TRACE="$d/t" LTT_SHM_DIR="$d/shm" "$prog" torn $n $kind
		rc=$?
		[ $rc -eq 137 ] || fail "$kind $n: exit status $rc, expected 137 (SIGKILL)"
		# the note cases name the directory: its one ring file of a dead process is taken
		if [ $kind = tick ]; then src=$(ls "$d"/shm/ltt-*.ring); else src="$d/shm"; fi
		"$LTT" recover "$src" -o "$d/rec" || fail "$kind $n: ltt recover failed"
		"$LTT" check "$d/rec" >/dev/null || fail "$kind $n: ltt check: not a valid trace"
		out=$("$prog" check "$d/rec") || fail "check failed: $out"
		echo "$kind $n: $out"
		[ "$(v problems)" = 0 ] || fail "$kind $n: problems: $out"
		[ "$(v bad)" = 0 ] || fail "$kind $n: garbage decoded: $out"
		[ "$(v notes)" = 0 ] || fail "$kind $n: the torn note was decoded"
		t0=$(v t0); count=${t0%%:*}; range=${t0#*:}; first=${range%-*}; last=${range#*-}
		[ "$last" = $((n - 1)) ] || fail "$kind $n: last tick $last, expected $((n - 1))"
		[ "$first" = $((n - count)) ] || fail "$kind $n: ticks not contiguous: $t0"
		[ "$(v blocks_lost_events)" = "$first" ] || fail "$kind $n: overwritten $(v blocks_lost_events) != $first"
		torn=$(v torn)
		if [ $kind = tick ]; then
			[ "$torn" = 1 ] || fail "$kind $n: torn=$torn, expected 1"
		else
			[ "$torn" -ge 1 ] || fail "$kind $n: torn=$torn, expected at least 1"
		fi
	done
done
echo "ok: torn events dropped and counted"
