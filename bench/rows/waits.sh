# SPDX-License-Identifier: MIT
# Rows of waits on locks (issue 25; doc/recorder.md "Waits on locks"), sourced by bench/run.sh:
# bench_waits' uncontended lock/unlock pairs through libltt's pthread_mutex_lock without LTT_WAITS
# (one branch before the C library's), with LTT_WAITS=1 (the trylock), and straight to the C
# library's (no interposition: the floor; goal: within 2 ns); two threads contending for one mutex with
# LTT_WAITS=1 and a threshold of 0 (every wait recorded) beside the same without LTT_WAITS: the
# difference per pair over the waits recorded (ltt stats --waits) is the cost of one recorded wait.
WAITS_PROG=$B/bench_waits

# run_waits MODE THREADS N ENV...: one run recording in flight mode (nothing written at exit), or with
# LTT_TRACE=$W/waits when RUN_KEEP is set (for the count of waits).
run_waits() {
	mode=$1 th=$2 n=$3
	shift 3
	[ -x "$WAITS_PROG" ] || { RUN_ERR="bench_waits not built (see $B/build.log)"; return; }
	rm -rf "$W/waits"
	if ! env LTT_TRACE="$W/waits" LTT_MODE=flight LTT_SNAPSHOT_AT_EXIT=0 LTT_BLOCK_SIZE=$BLOCK \
	    LTT_BLOCKS=$NBLOCKS "$@" "$WAITS_PROG" "$mode" "$th" "$n" > "$T/out" 2> "$T/err"; then
		RUN_ERR="bench_waits failed: $(head -n 1 "$T/err")"
		return
	fi
	RUN_VAL=$(ns_of "$T/out")
	RUN_CPU=$(cpu_of "$T/out")
	rm -rf "$W/waits"
}

WR="Waits on locks (ns per lock/unlock pair, lower is better)"
measure waits-direct "$WR" "uncontended pair, the C library's lock (no interposition)" ns - \
	run_waits direct 1 "$EVENTS"
measure waits-off "$WR" "uncontended pair, libltt's lock, LTT_WAITS unset" ns waits-direct \
	run_waits lock 1 "$EVENTS"
measure waits-on "$WR" "uncontended pair, libltt's lock, LTT_WAITS=1 (trylock)" ns waits-direct \
	run_waits lock 1 "$EVENTS" LTT_WAITS=1
measure waits-contended-off "$WR" "2 threads contending, LTT_WAITS unset" ns - \
	run_waits contended 2 $((EVENTS / 10))
measure waits-contended-on "$WR" "2 threads contending, LTT_WAITS=1, threshold 0 (every wait)" ns \
	waits-contended-off run_waits contended 2 $((EVENTS / 10)) LTT_WAITS=1 LTT_WAITS_THRESHOLD_US=0
