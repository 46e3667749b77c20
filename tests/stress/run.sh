#!/bin/sh
# SPDX-License-Identifier: MIT
# make stress (doc/recorder.md "Stress"): minutes of recording under everything that moves threads,
# then every event checked. Not part of make check.
#
# For each mode (discard, then flight), STRESS_THREADS threads of tests/progs/stress_emit record
# rtest.ev events as fast as they can, moving themselves to the next CPU every 1,000 events, while a
# signaling thread interrupts them with nested tracing signal handlers (SIGUSR1 records, raises SIGUSR2
# which records inside it) and an outside loop moves every thread with taskset. tests/progs/stress_check
# then reads the trace (discard: the trace directory; flight: the snapshot taken at exit) and checks
# every event: no torn or mixed payload, no (thread, seq) twice, and events in the trace + events counted
# lost == events emitted, exactly.
#
#   STRESS_THREADS      threads (default 8)
#   STRESS_DISCARD      events per thread in discard mode (default 25000000: 200 M events, ~5 GB written)
#   STRESS_FLIGHT       events per thread in flight mode (default 100000000: 800 M events, in memory)
#   STRESS_DIR          where the traces go (default a directory under $TMPDIR; removed at the end)
set -u
: "${BUILD:?}" "${LTT:?}"
EMIT="$BUILD/tests/progs/stress_emit"
CHECK="$BUILD/tests/progs/stress_check"
TH=${STRESS_THREADS:-8}
ND=${STRESS_DISCARD:-25000000}
NF=${STRESS_FLIGHT:-100000000}
dir=${STRESS_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/ltt-stress.XXXXXX")} || exit 1
mkdir -p "$dir" || exit 1
trap 'rm -rf "$dir"' EXIT
command -v taskset > /dev/null || { echo "stress: taskset (util-linux) not found"; exit 1; }
ncpu=$(getconf _NPROCESSORS_ONLN)
fail=0

# mover PID: moves every thread of PID to another CPU, round robin, until PID is gone
mover() {
	i=0
	while kill -0 "$1" 2> /dev/null; do
		for t in /proc/"$1"/task/*; do
			taskset -pc $((i % ncpu)) "${t##*/}" > /dev/null 2>&1
			i=$((i + 1))
		done
		sleep 0.05
	done
}

# run MODE EVENTS TRACE-TO-CHECK ENV...: one recording and its check
run() {
	mode=$1 n=$2 trace=$3
	shift 3
	echo "stress: $mode: $TH threads x $n events, migrations every 1,000 events, nested signal handlers," \
		"taskset loop over $ncpu CPUs"
	start=$(date +%s)
	env "$@" "$EMIT" "$TH" "$n" > "$dir/$mode.out" 2> "$dir/$mode.err" &
	pid=$!
	mover $pid &
	mpid=$!
	wait $pid
	rc=$?
	wait $mpid
	end=$(date +%s)
	if [ $rc != 0 ]; then
		echo "stress: $mode: stress_emit exited $rc: $(head -n 3 "$dir/$mode.err")"
		fail=1
		return
	fi
	set -- $(sed -n 's/^emitted ev=\([0-9]*\) sig=\([0-9]*\) sigmax=\([0-9]*\)$/\1 \2 \3/p' "$dir/$mode.out")
	echo "stress: $mode: emitted $1 rtest.ev and $2 rtest.sig in $((end - start)) s"
	if "$CHECK" "$trace" "$TH" "$n" "$2" "$3" > "$dir/$mode.check" 2>&1; then
		echo "stress: $mode: ok: $(tail -n 1 "$dir/$mode.check")"
	else
		echo "stress: $mode: FAIL:"
		sed 's/^/    /' "$dir/$mode.check"
		fail=1
	fi
	du -sh "$trace" | sed "s/^/stress: $mode: trace size /"
	rm -rf "$dir/t-$mode"
}

run discard "$ND" "$dir/t-discard" LTT_TRACE="$dir/t-discard" LTT_MODE=discard LTT_BLOCK_SIZE=1M LTT_BLOCKS=64
run flight "$NF" "$dir/t-flight/snapshot-0001" LTT_TRACE="$dir/t-flight" LTT_MODE=flight LTT_BLOCK_SIZE=1M \
	LTT_BLOCKS=16
[ $fail = 0 ] && echo "stress: every event checked: ok" || echo "stress: FAILED"
exit $fail
