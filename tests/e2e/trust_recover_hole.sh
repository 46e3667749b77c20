#!/bin/sh
# SPDX-License-Identifier: MIT
# `ltt recover` never decodes uncommitted ring bytes (issue 28, point 3): a writer stopped between
# reserve and commit (its tick's thread written, its seq not: the previous lap's bytes stay there),
# another thread committing ticks after it on the same CPU, in the same block, then SIGKILL (4 KiB x 4
# blocks, tests/progs/trust_prog hole). Before 26 Nov 2026 recover decoded the hole as a tick (a
# sequence going back one lap), exited 0, and `ltt check` said ok. Now: every tick kept is one that was
# committed (each thread's ticks contiguous, no duplicate), the hole and what could not be told from
# one are dropped and counted torn, exactly (ticks + torn + overwritten = ticks reserved), and `ltt
# check` reports them as lost.
set -u
. "$SRCDIR/tests/e2e/lib/common.sh"
. "$SRCDIR/tests/e2e/lib/registry.sh"
prog="$BUILD/tests/progs/trust_prog" fp="$BUILD/tests/progs/flight_prog"
[ -x "$prog" ] && [ -x "$fp" ] || { echo "skip: test programs not built"; exit 77; }
v() { echo "$out" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
for n in 20000 20050 20100 20150 20200 20250; do
	for k in 3 40; do
		d="$work/h$n-$k"
		mkdir -p "$d/shm"
		LTT_MODE=flight LTT_BLOCK_SIZE=4096 LTT_BLOCKS=4 LTT_TRACE="$d/t" LTT_SHM_DIR="$d/shm" "$prog" hole $n $k
		reg_forget "$d/t"
		"$LTT" recover "$d/shm" -o "$d/r" >/dev/null || { echo "$n $k: ltt recover failed"; fail=1; continue; }
		out=$("$fp" check "$d/r")
		echo "$n $k: $out"
		check "$n $k: problems" "$(v problems)" 0
		check "$n $k: bad payloads" "$(v bad)" 0
		case "$out" in *gappy*|*dup*) echo "$n $k: a tick decoded from uncommitted bytes: $out"; fail=1 ;; esac
		t0=$(v t0); last=${t0##*-}
		[ -z "$t0" ] || [ "$last" -lt "$n" ] || { echo "$n $k: tick $last of thread 0 was never committed"; fail=1; }
		torn=$(v torn)
		[ "$torn" -ge 1 ] || { echo "$n $k: the hole is not counted torn"; fail=1; }
		check "$n $k: ticks + torn + overwritten" "$(( $(v ticks) + torn + $(v blocks_lost_events) ))" $((n + 1 + k))
		lost=$("$LTT" check "$d/r" | sed -n 's/.* \([0-9]*\) lost.*/\1/p')
		check "$n $k: ltt check counts the torn events lost" "$lost" "$torn"
	done
done
exit $fail
