# SPDX-License-Identifier: MIT
# Rows of profiling (issue 15; doc/recorder.md "Profiling"), sourced by bench/run.sh.
# - CPU usage sampling every 10 ms: the int3 loop of bench_ltt (1 thread, flight mode: no I/O) with and
#   without LTT_CPU_SAMPLE_MS=10 (target: < 0.5% more).
# - stack sampling at 1000 Hz: bench_profile's CPU-bound work (about 1 us an iteration, four calls
#   deep), recording with and without LTT_STACK_SAMPLE_HZ=1000 (target: < 3% more), and the cost of
#   one sample: libltt's signal queued to the thread as its timer would (bench_profile sample) beside
#   the same delivery to an empty handler (bench_profile signal).
# - ltt dump --format=tracelog over the reading rows' trace (target: >= 5 M events/s).
PROF_PROG=$B/bench_profile
PROF_ITERS=$((EVENTS / 10))

# run_prof PROG KIND ITERS ENV...: one recording run of PROG in flight mode (nothing written at exit).
run_prof() {
	prog=$1 kind=$2 n=$3
	shift 3
	[ -x "$prog" ] || { RUN_ERR="$(basename "$prog") not built (see $B/build.log)"; return; }
	rm -rf "$W/prof"
	if ! env LTT_TRACE="$W/prof" LTT_MODE=flight LTT_SNAPSHOT_AT_EXIT=0 LTT_BLOCK_SIZE=$BLOCK \
	    LTT_BLOCKS=$NBLOCKS "$@" "$prog" "$kind" 1 "$n" > "$T/out" 2> "$T/err"; then
		RUN_ERR="$(basename "$prog") failed: $(head -n 1 "$T/err")"
		return
	fi
	RUN_VAL=$(ns_of "$T/out")
	RUN_CPU=$(cpu_of "$T/out")
	rm -rf "$W/prof"
}

PR="Profiling (ns per event or iteration, lower is better)"
measure profile-int3-base "$PR" "ltt: int3, 1 thread, flight, no sampling" ns - \
	run_prof "$LTT_PROG" int3 "$EVENTS"
measure profile-int3-cpu10 "$PR" "ltt: int3, 1 thread, flight, CPU usage every 10 ms" ns profile-int3-base \
	run_prof "$LTT_PROG" int3 "$EVENTS" LTT_CPU_SAMPLE_MS=10
measure profile-work-base "$PR" "CPU-bound work (1 us/iteration), recording, no stack sampling" ns - \
	run_prof "$PROF_PROG" work "$PROF_ITERS"
measure profile-work-stack1k "$PR" "CPU-bound work, stack sampling at 1000 Hz" ns profile-work-base \
	run_prof "$PROF_PROG" work "$PROF_ITERS" LTT_STACK_SAMPLE_HZ=1000
measure profile-signal "$PR" "a queued real-time signal to an empty handler (delivery only)" ns - \
	run_prof "$PROF_PROG" signal $((EVENTS / 100))
measure profile-sample "$PR" "a stack sample: the same signal, libltt's handler (unwind + event)" ns profile-signal \
	run_prof "$PROF_PROG" sample $((EVENTS / 100)) LTT_STACK_SAMPLE_HZ=1000
# The reading rows' trace, or one recorded here when those rows did not run (BENCH_ONLY=profile).
PROF_READ=$LTT_READ PROF_READ_EVENTS=$LTT_READ_EVENTS
if [ -z "$PROF_READ" ] && want profile-tracelog && [ -x "$LTT_PROG" ]; then
	PROF_READ=$W/prof-read
	rm -rf "$PROF_READ"
	LTT_TRACE="$PROF_READ" LTT_BLOCK_SIZE=$BLOCK LTT_BLOCKS=$NBLOCKS "$LTT_PROG" int3 1 "$EVENTS" > /dev/null 2>&1
	PROF_READ_EVENTS=$("$LTT" stats "$PROF_READ" 2>/dev/null | awk '$1 == "bench.int3" { print $2 }')
	[ -n "$PROF_READ_EVENTS" ] || PROF_READ=
fi
if [ -n "$PROF_READ" ]; then
	measure profile-tracelog "Reading (M events per second, higher is better)" \
		"ltt dump --format=tracelog > /dev/null" "Mev/s" - \
		run_cmd_rate "$PROF_READ_EVENTS" "$LTT" dump --format=tracelog "$PROF_READ"
else
	na profile-tracelog "Reading (M events per second, higher is better)" \
		"ltt dump --format=tracelog > /dev/null" "Mev/s" - "${LTT_READ_NA:-no trace to read}"
fi
[ "$PROF_READ" = "$W/prof-read" ] && rm -rf "$PROF_READ"
