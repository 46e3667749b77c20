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

# Seconds of kernel history per MiB (issue 36 point 4; doc/flight-recorder.md "Memory per second of
# history"): a program pinned to CPU 1 under `ltt record --mode flight --kernel=sched,syscalls` with
# 16 x 64 KiB blocks per ring; the figure is ltt stats' seconds_per_mib of its kernel stream in the
# snapshot at exit (the seconds kernel/1 holds per MiB of its kept blocks; the ring must have wrapped).
# The peer row records every call as syscall_entry + syscall_exit (LTT_EVENTS=-kernel.syscall: the
# encoding before whole calls) on the same load, in the same run. Loads: bench_getppid (a system call
# loop) and bench_flight (a 1 ms sleep loop: each iteration a blocking call, a switch out and in, 4 s,
# rings of 2 x 64 KiB so that they wrap).
KH_N=1000000
[ "$QUICK" = 1 ] && KH_N=300000

# run_khist LOAD ENCODING: one run; LOAD getppid or sleep, ENCODING whole or pair
run_khist() {
	case $1 in
	getppid) kp=$B/bench_getppid kb=16; set -- "$1" "$2" "$KH_N" ;;
	sleep) kp=$B/bench_flight kb=2; set -- "$1" "$2" 4 ;;
	esac
	[ -x "$kp" ] || { RUN_ERR="$(basename "$kp") not built (see $B/build.log)"; return; }
	command -v taskset > /dev/null || { RUN_ERR="taskset not installed"; return; }
	[ "$(id -u)" = 0 ] || { RUN_ERR="needs root (the sched and syscall tracepoints)"; return; }
	kl=$1 ke=$2
	shift 2
	rm -rf "$W/kh"
	ev=
	[ "$ke" = pair ] && ev=-kernel.syscall
	LTT_EVENTS=$ev taskset -c 1 "$LTT" record --mode flight --block-size 65536 --blocks $kb --kernel=sched,syscalls \
		-o "$W/kh" -- "$kp" "$@" > "$T/out" 2> "$T/err" || { RUN_ERR="$kl failed: $(tail -n 1 "$T/err")"; return; }
	"$LTT" stats --format=json "$W/kh/snapshot-0001" > "$T/kh.json" 2> "$T/err" ||
		{ RUN_ERR="ltt stats: $(head -n 1 "$T/err")"; return; }
	set -- $(python3 -c '
import json, sys
d = json.loads(open(sys.argv[1]).readline())
s = max((s for s in d["history"]["streams"] if s["name"].startswith("kernel/")), key=lambda s: s["kept_bytes"])
e = d["history"]["event_bytes"]
n = sum(v["events"] for k, v in e.items() if k.startswith("kernel.syscall"))
print(s["seconds_per_mib"], s["bytes_per_event"], int(s["overwritten_before"]), s["name"])
' "$T/kh.json")
	[ "${3:-0}" = 1 ] || { RUN_ERR="the kernel ring did not wrap (${4:-no kernel stream}): more calls needed"; return; }
	RUN_VAL=$1
	RUN_BPE=$2
	RUN_NOTE="$4 of the last run"
	rm -rf "$W/kh"
}

KH="Seconds of kernel history per MiB of kernel ring (flight snapshot, 64 KiB blocks, CPU 1; higher is better)"
measure flight-khist-getppid-pair "$KH" "getppid() loop, every call a syscall_entry + syscall_exit (the encoding before)" s/MiB - \
	run_khist getppid pair
measure flight-khist-getppid "$KH" "getppid() loop, whole calls (kernel.syscall)" s/MiB flight-khist-getppid-pair \
	run_khist getppid whole
measure flight-khist-sleep-pair "$KH" "1 ms sleep loop, every call a pair (the encoding before)" s/MiB - \
	run_khist sleep pair
measure flight-khist-sleep "$KH" "1 ms sleep loop, whole calls (kernel.syscall)" s/MiB flight-khist-sleep-pair \
	run_khist sleep whole
