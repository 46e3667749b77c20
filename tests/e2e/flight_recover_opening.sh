#!/bin/sh
# SPDX-License-Identifier: MIT
# A flight-mode process killed while a block was being opened (its opener past the reservation, before
# its block_start: the window flight_recover.sh's kill -9 hit about one run in six under load, which
# `ltt recover` then reported as "1 damaged blocks left out"). tests/progs/flight_prog `opening` stops
# the opener at each point of recorder/ring.c's order: right after the CAS on the write offset (the
# block it overwrites not counted yet: it is still whole in its slot and recovered), after counting that
# block's events, after counting the block too (it is overwritten: counted, not recovered). Each time
# recover exits 0, says the block was being opened, counts the opener's event torn, and the trace holds
# ticks first..N-1 with ticks 0..first-1 counted overwritten, exactly.
set -u
. "$SRCDIR/tests/e2e/lib/registry.sh"
prog="$BUILD/tests/progs/flight_prog"
[ -x "$prog" ] || { echo "skip: $prog not built"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ltt-e2e-flight-opening-XXXXXX")
trap 'for s in cas events blocks; do reg_forget "$tmp/$s/t"; done; rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
N=5000

for state in cas events blocks; do
	mkdir "$tmp/$state" "$tmp/$state/shm"
	LTT_TRACE="$tmp/$state/t" LTT_MODE=flight LTT_BLOCK_SIZE=4096 LTT_BLOCKS=8 LTT_SHM_DIR="$tmp/$state/shm" \
		"$prog" opening $N $state
	[ $? = 137 ] || fail "$state: flight_prog did not die by SIGKILL"
	out=$("$LTT" recover "$tmp/$state/shm" -o "$tmp/$state/rec" 2>&1) || fail "$state: ltt recover: $out"
	echo "$state: $out"
	case "$out" in
	*", 1 torn events dropped, "*", 1 blocks being opened at the death ("*) ;;
	*) fail "$state: not reported as the block being opened, with its opener's event torn: $out" ;;
	esac
	case "$out" in *damaged*) fail "$state: reported as damage: $out" ;; esac
	"$LTT" check "$tmp/$state/rec" > /dev/null || fail "$state: ltt check"
	res=$("$prog" check "$tmp/$state/rec") || fail "$state: check: $res"
	v() { echo "$res" | head -n 1 | tr ' ' '\n' | sed -n "s/^$1=//p"; }
	[ "$(v problems)" = 0 ] && [ "$(v bad)" = 0 ] && [ "$(v gaps)" = 0 ] || fail "$state: $res"
	[ "$(v torn)" = 1 ] || fail "$state: torn $(v torn): $res"
	t0=$(v t0)
	case "$t0" in *gappy*|*dup*) fail "$state: ticks not contiguous: $t0" ;; esac
	count=${t0%%:*} range=${t0#*:}
	first=${range%-*} last=${range#*-}
	[ "$last" = $((N - 1)) ] || fail "$state: last tick $last, expected $((N - 1))"
	[ "$first" = $((N - count)) ] || fail "$state: $t0"
	[ "$(v blocks_lost_events)" = "$first" ] || fail "$state: overwritten $(v blocks_lost_events), ticks before $first"
	eval "lost_$state=$(v blocks_lost)"
done
# the block the opener was overwriting: recovered when not counted yet, else counted overwritten
[ $((lost_cas + 1)) = "$lost_events" ] && [ "$lost_events" = "$lost_blocks" ] ||
	fail "blocks counted overwritten: cas $lost_cas, events $lost_events, blocks $lost_blocks"
echo "ok: a block being opened at the kill is reported as such, every count exact"
