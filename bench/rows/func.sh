# SPDX-License-Identifier: MIT
# Rows of function tracing (issue 26; doc/recorder.md "Function tracing"), sourced by bench/run.sh.
# bench/func/bench_func.c's `calls N` (N calls of a tiny leaf function) built with -pg and with
# -finstrument-functions. Each run times the same binary untraced and traced, one after the other, and
# the row is the difference per call and return (ns), so the loop and the hook's untraced cost cancel:
# - the -pg binary under ltt record --functions (discard mode, written to disk) and under uftrace record
#   (its default: per-thread buffers flushed by its helper), untraced = run alone (glibc's mcount);
# - the -finstrument-functions build recording (LTT_FUNCTIONS=1, discard) minus the same not recording;
# - -pg -mfentry, and -finstrument-functions not linked with libltt (bench_func_cygp: empty hooks in
#   libcygstub.so when untraced), each under ltt record --functions and uftrace record;
# - library calls through the PLT (bench_func libcalls: sched_getcpu, the vDSO), -pg binary, recorded by
#   default by both (ltt: func_plt.c's stubs; uftrace: its PLT hooks);
# - with a 1 us minimum duration (LTT_FUNCTIONS_MIN_NS=1000): no call of leaf lasts that long;
# - the floor: two cycle-counter reads and two 16-byte stores per iteration (bench_func floor).
# The figures are the program thread's CPU time (CLOCK_THREAD_CPUTIME_ID), not wall time: on this
# shared 2-CPU machine (load 5-20) wall time mostly measures preemption. Work done in other threads
# or processes (ltt's consumer thread, uftrace's writer) is not in them, for either tracer.
# Bytes per call on disk: the blocks the trace directory takes (du, holes not counted) over the calls
# (B/event column); ltt's tracefiles are whole blocks of 1 MiB, so small runs overstate it.
FUNC_PG=$B/bench_func_pg
FUNC_CYG=$B/bench_func_cyg
FUNC_FENTRY=$B/bench_func_fentry
FUNC_CYGP=$B/bench_func_cygp
FUNC_N=$((EVENTS / 2))
FR="Function tracing (CPU ns per call and return, traced minus untraced; lower is better)"

# func_untraced PROG ENV...: the loop's ns per call of PROG run plainly, into FUNC_BASE.
func_untraced() {
	prog=$1
	shift
	FUNC_BASE=
	(cd "$T" && env "$@" "$prog" "${FUNC_MODE:-calls}" "$FUNC_N") > "$T/out0" 2> "$T/err" || return 1
	FUNC_BASE=$(cpu_of "$T/out0")
}

# run_func HOW: one pair of runs; RUN_VAL traced - untraced, RUN_BPE bytes per call on disk.
run_func() {
	how=$1
	case $how in plt*) FUNC_MODE=libcalls ;; *) FUNC_MODE=calls ;; esac
	case $how in cygp*) prog=$FUNC_CYGP ;; cyg*) prog=$FUNC_CYG ;; fentry*) prog=$FUNC_FENTRY ;; *) prog=$FUNC_PG ;; esac
	[ -x "$prog" ] || { RUN_ERR="$(basename "$prog") not built (see $B/build.log)"; return; }
	rm -rf "$W/func"
	func_untraced "$prog" || { RUN_ERR="$(basename "$prog") failed: $(head -n 1 "$T/err")"; return; }
	case $how in *-uftrace) ;; *) false ;; esac && ! command -v uftrace > /dev/null &&
		{ RUN_ERR="uftrace not installed (make deps-bench)"; return; }
	# in $T: a -pg program writes gmon.out where it runs, never in the source tree
	(cd "$T" || exit 1
	case $how in
	pg-ltt|fentry-ltt|cygp-ltt|plt-ltt) exec "$LTT" record -o "$W/func" -b $BLOCK -n $NBLOCKS --functions -- \
		"$prog" "$FUNC_MODE" "$FUNC_N" ;;
	pg-min) exec "$LTT" record -o "$W/func" -b $BLOCK -n $NBLOCKS --functions --functions-min-ns 1000 -- \
		"$prog" calls "$FUNC_N" ;;
	*-uftrace) exec uftrace record -d "$W/func" "$prog" "$FUNC_MODE" "$FUNC_N" ;;
	cyg-ltt) LTT_TRACE="$W/func" LTT_BLOCK_SIZE=$BLOCK LTT_BLOCKS=$NBLOCKS LTT_FUNCTIONS=1 \
		exec "$prog" calls "$FUNC_N" ;;
	esac) > "$T/out" 2> "$T/err"
	[ $? = 0 ] || { RUN_ERR="$how failed: $(head -n 1 "$T/err")"; return; }
	RUN_VAL=$(awk -v a="$(cpu_of "$T/out")" -v b="$FUNC_BASE" 'BEGIN { printf "%.3f", a - b }')
	RUN_CPU=$RUN_VAL
	RUN_BPE=$(du -sB1 "$W/func" 2>/dev/null | awk -v n="$FUNC_N" '{ printf "%.2f", $1 / n }')
	rm -rf "$W/func"
}

run_func_floor() {
	[ -x "$FUNC_PG" ] || { RUN_ERR="bench_func_pg not built (see $B/build.log)"; return; }
	(cd "$T" && exec "$FUNC_PG" floor "$FUNC_N") > "$T/out" 2> "$T/err" || { RUN_ERR="floor failed"; return; }
	RUN_VAL=$(cpu_of "$T/out")
	RUN_CPU=$RUN_VAL
}

measure func-floor "$FR" "floor: 2 cycle-counter reads + 2 16-byte stores" ns - run_func_floor
measure func-pg-uftrace "$FR" "uftrace record, -pg binary" ns - run_func pg-uftrace
measure func-pg-ltt "$FR" "ltt record --functions, -pg binary" ns func-pg-uftrace run_func pg-ltt
measure func-pg-ltt-floor "$FR" "  (the same, against the floor)" ns func-floor run_func pg-ltt
measure func-cyg-ltt "$FR" "ltt, -finstrument-functions build (LTT_FUNCTIONS=1)" ns func-floor run_func cyg-ltt
measure func-fentry-uftrace "$FR" "uftrace record, -pg -mfentry binary" ns - run_func fentry-uftrace
measure func-fentry-ltt "$FR" "ltt record --functions, -pg -mfentry binary" ns func-fentry-uftrace run_func fentry-ltt
measure func-cygp-uftrace "$FR" "uftrace record, -finstrument-functions binary" ns - run_func cygp-uftrace
measure func-cygp-ltt "$FR" "ltt record --functions, the same binary (libltt.so preloaded)" ns func-cygp-uftrace run_func cygp-ltt
measure func-plt-uftrace "$FR" "uftrace record, -pg binary, library calls through the PLT" ns - run_func plt-uftrace
measure func-plt-ltt "$FR" "ltt record --functions, the same library calls" ns func-plt-uftrace run_func plt-ltt
measure func-pg-min1us "$FR" "ltt, -pg, 1 us minimum duration, tiny calls" ns func-pg-ltt run_func pg-min
