# SPDX-License-Identifier: MIT
# Rows of the flight recorder's snapshots (issue 36, point 2; doc/flight-recorder.md "Running it on a
# server"), sourced by bench/run.sh: bench_flight's thread sleeps 1 ms and records an event, 3 s per run,
# while a snapshot is asked for every 250 ms (12 per run) by `ltt snapshot PID` (libltt's thread takes
# it: the program's thread is not interrupted), by `kill -USR2 PID` (a thread of the program passes it
# on: its sleep may end early, EINTR), or not at all. The figure: the 99th percentile of the time an
# iteration took beyond its 1 ms (us); the note: the sleeps cut short (EINTR) in the last run.
FLIGHT_PROG=$B/bench_flight

# run_flight HOW: one run; HOW is none, ltt or kill
run_flight() {
	[ -x "$FLIGHT_PROG" ] || { RUN_ERR="bench_flight not built (see $B/build.log)"; return; }
	rm -rf "$W/flight"
	LTT_TRACE="$W/flight" LTT_MODE=flight LTT_SNAPSHOT_AT_EXIT=0 LTT_SNAPSHOT_KEEP=2 LTT_BLOCK_SIZE=65536 \
		LTT_BLOCKS=16 "$FLIGHT_PROG" 3 > "$T/out" 2> "$T/err" &
	fp=$!
	i=0
	while [ ! -s "$T/out" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
	k=0
	while [ $k -lt 12 ] && kill -0 $fp 2>/dev/null; do
		sleep 0.25
		case $1 in
		ltt) "$LTT" snapshot --timeout 5 $fp > /dev/null 2>&1 ;;
		kill) kill -USR2 $fp 2>/dev/null ;;
		esac
		k=$((k + 1))
	done
	wait $fp || { RUN_ERR="bench_flight failed: $(head -n 1 "$T/err")"; return; }
	RUN_VAL=$(sed -n 's/.* p99_us=\([0-9.]*\) .*/\1/p' "$T/out")
	RUN_NOTE="EINTR $(sed -n 's/.* eintr=\([0-9]*\) .*/\1/p' "$T/out") of 12 snapshots (last run)"
	[ "$1" = none ] && RUN_NOTE="EINTR $(sed -n 's/.* eintr=\([0-9]*\) .*/\1/p' "$T/out") (last run)"
	rm -rf "$W/flight"
}

FR="A 1 ms sleep-and-event loop during flight snapshots (p99 us beyond 1 ms, lower is better)"
measure flight-nosnap "$FR" "no snapshot" us - run_flight none
measure flight-ltt-snapshot "$FR" "ltt snapshot PID every 250 ms (libltt's thread)" us flight-nosnap run_flight ltt
measure flight-kill-usr2 "$FR" "kill -USR2 PID every 250 ms (passed on by the program's thread)" us flight-nosnap \
	run_flight kill
