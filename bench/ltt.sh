# SPDX-License-Identifier: MIT
# The ltt rows of `make bench`; sourced by bench/run.sh.
#
# Recording rows run bench_ltt with LTT_TRACE/LTT_MODE/LTT_BLOCK_SIZE/LTT_BLOCKS; bench_count then
# reads the trace with libltt-reader for the events it holds, the events_lost sums, the overwritten
# events and a check of every payload. Reading rows time the ltt command on a 1-thread int3 discard
# trace recorded for them (ltt_read_trace).

COUNT_PROG=$B/bench_count
LTT_READ=		# the ltt trace the reading rows read, and its number of bench events
LTT_READ_EVENTS=0
LTT_READ_NA=
READ_NOTE_LTT=

# ltt_count DIR: sets C_EVENTS C_LOST C_OVER C_BAD C_PROBLEMS from bench_count, or C_ERR.
ltt_count() {
	C_ERR= C_EVENTS= C_LOST= C_OVER= C_BAD= C_PROBLEMS=
	if [ ! -x "$COUNT_PROG" ]; then C_ERR="bench_count not built"; return; fi
	if ! "$COUNT_PROG" "$1" > "$T/count" 2> "$T/count.err"; then
		C_ERR="cannot read the trace: $(head -n 1 "$T/count.err")"
		return
	fi
	eval "$(sed -n 's/^events=\([0-9]*\) lost=\([0-9]*\) overwritten=\([0-9]*\) bad=\([0-9]*\) problems=\([0-9]*\)$/C_EVENTS=\1 C_LOST=\2 C_OVER=\3 C_BAD=\4 C_PROBLEMS=\5/p' "$T/count")"
	[ -n "$C_EVENTS" ] || C_ERR="bench_count printed nothing"
}

# ltt_check_note EMITTED MODE: a note when the trace is not exactly what was emitted.
ltt_check_note() {
	n=
	if [ -n "$C_ERR" ]; then
		n=$C_ERR
	else
		[ "$C_BAD" = 0 ] || n="$C_BAD events with a wrong payload"
		[ "$C_PROBLEMS" = 0 ] || n="${n:+$n; }$C_PROBLEMS reader problems"
		if [ "$2" = discard ] && [ $((C_EVENTS + C_LOST)) != "$1" ]; then
			n="${n:+$n; }$C_EVENTS in trace + $C_LOST lost != $1 emitted"
		fi
	fi
	[ -z "$n" ] || RUN_NOTE="CHECK: $n"
}

run_ltt_off() {
	run_prog "$LTT_PROG" "$1" "$2"
}

# run_ltt discard|flight KIND THREADS
run_ltt() {
	[ -x "$LTT_PROG" ] || { RUN_ERR="bench_ltt not built (see $B/build.log)"; return; }
	out=$W/ltt-$1
	rm -rf "$out"
	if ! LTT_TRACE=$out LTT_MODE=$1 LTT_BLOCK_SIZE=$BLOCK LTT_BLOCKS=$NBLOCKS \
		"$LTT_PROG" "$2" "$3" "$EVENTS" > "$T/out" 2> "$T/err"; then
		RUN_ERR="bench_ltt failed: $(head -n 1 "$T/err")"
		return
	fi
	RUN_VAL=$(ns_of "$T/out")
	RUN_CPU=$(cpu_of "$T/out")
	emitted=$((EVENTS * $3))
	trace=$out
	if [ "$1" = flight ]; then
		# the snapshot taken at exit (LTT_SNAPSHOT_AT_EXIT defaults to 1): the last one
		trace=$(ls -d "$out"/snapshot-* 2> /dev/null | tail -n 1)
		if [ -z "$trace" ]; then
			RUN_NOTE="CHECK: no snapshot at exit in $out"
			rm -rf "$out"
			return
		fi
	fi
	ltt_count "$trace"
	ltt_check_note "$emitted" "$1"
	if [ -z "$C_ERR" ]; then
		RUN_LOST=$C_LOST
		[ "$C_EVENTS" -gt 0 ] &&
			RUN_BPE=$(awk -v b="$(bytes "$trace")" -v n="$C_EVENTS" 'BEGIN { printf "%.3f", b / n }')
		[ "$1" = flight ] && [ -z "$RUN_NOTE" ] &&
			RUN_NOTE="snapshot holds $C_EVENTS events, $C_OVER overwritten before it"
	fi
	rm -rf "$out"
}

# The time of ltt_snapshot() on a full 2 x 8 MiB ring, measured inside bench_ltt (BENCH_SNAPSHOT=1)
# after two threads filled both CPUs' rings.
run_ltt_snaptime() {
	[ -x "$LTT_PROG" ] || { RUN_ERR="bench_ltt not built (see $B/build.log)"; return; }
	out=$W/ltt-snap
	rm -rf "$out"
	if ! BENCH_SNAPSHOT=1 LTT_SNAPSHOT_AT_EXIT=0 LTT_TRACE=$out LTT_MODE=flight LTT_BLOCK_SIZE=$BLOCK \
		LTT_BLOCKS=$NBLOCKS "$LTT_PROG" int3 2 "$EVENTS" > "$T/out" 2> "$T/err"; then
		RUN_ERR="bench_ltt failed: $(head -n 1 "$T/err")"
		return
	fi
	RUN_VAL=$(sed -n 's/^snapshot_ms=\([0-9.]*\).*/\1/p' "$T/out")
	if [ -z "$RUN_VAL" ]; then
		RUN_ERR="no snapshot: $(grep -v '^ns_per_event' "$T/out" "$T/err" | head -n 1)"
		return
	fi
	snap=$(sed -n 's/^snapshot_ms=[0-9.]* path=//p' "$T/out")
	ltt_count "$snap"
	[ -n "$C_ERR" ] || RUN_NOTE="snapshot holds $C_EVENTS events, $(bytes "$snap") bytes"
	ltt_check_note 0 flight
	rm -rf "$out"
}

# ltt_read_trace: records the trace the ltt reading rows read (EVENTS int3 events, 1 thread, not timed)
# in a ring large enough (READ_BLOCKS of 1 MiB; pages are used only as they fill) that nothing is lost.
READ_BLOCKS=512
ltt_read_trace() {
	want ltt-stats || want ltt-json || want ltt-text || return 0
	[ -x "$LTT_PROG" ] || { LTT_READ_NA="bench_ltt not built (see $B/build.log)"; return 0; }
	LTT_READ=$W/ltt-read
	rm -rf "$LTT_READ"
	if ! LTT_TRACE=$LTT_READ LTT_MODE=discard LTT_BLOCK_SIZE=$BLOCK LTT_BLOCKS=$READ_BLOCKS \
		"$LTT_PROG" int3 1 "$EVENTS" > "$T/out" 2> "$T/err"; then
		LTT_READ_NA="bench_ltt failed: $(head -n 1 "$T/err")"
		return 0
	fi
	ltt_count "$LTT_READ"
	if [ -n "$C_ERR" ]; then LTT_READ_NA=$C_ERR; return 0; fi
	LTT_READ_EVENTS=$C_EVENTS
	log "ltt trace to read: $C_EVENTS events ($C_LOST lost)"
	[ "$C_EVENTS" -gt 0 ] || LTT_READ_NA="no event in $LTT_READ"
	[ "$C_EVENTS" = "$EVENTS" ] || READ_NOTE_LTT="the trace holds $C_EVENTS events"
}

# run_ltt_read stats|json|text
run_ltt_read() {
	[ -z "$LTT_READ_NA" ] || { RUN_ERR="no ltt trace to read: $LTT_READ_NA"; return; }
	[ -x "$LTT" ] || { RUN_ERR="$LTT not built"; return; }
	if ! "$LTT" help 2> /dev/null | grep -q "^ *$1\b" && [ "$1" = stats ]; then
		RUN_ERR="ltt has no stats command yet"
		return
	fi
	case $1 in
	stats) run_cmd_rate "$LTT_READ_EVENTS" "$LTT" stats "$LTT_READ" ;;
	json) run_cmd_rate "$LTT_READ_EVENTS" "$LTT" dump --format=json "$LTT_READ" ;;
	text) run_cmd_rate "$LTT_READ_EVENTS" "$LTT" dump "$LTT_READ" ;;
	esac
	RUN_NOTE=$READ_NOTE_LTT
}

# run_region off|on: ns per region enter or leave (bench_region).
run_region() {
	[ -x "$REGION_PROG" ] || { RUN_ERR="bench_region not built (the app API of issue 9; see $B/build.log)"; return; }
	out=$W/ltt-region
	rm -rf "$out"
	if [ "$1" = on ]; then
		LTT_TRACE=$out LTT_BLOCK_SIZE=$BLOCK LTT_BLOCKS=$NBLOCKS "$REGION_PROG" "$EVENTS" > "$T/out" 2> "$T/err"
	else
		"$REGION_PROG" "$EVENTS" > "$T/out" 2> "$T/err"
	fi || { RUN_ERR="bench_region failed: $(head -n 1 "$T/err")"; rm -rf "$out"; return; }
	RUN_VAL=$(ns_of "$T/out")
	RUN_CPU=$(cpu_of "$T/out")
	if [ "$1" = on ]; then
		ltt_count "$out"
		[ -n "$C_ERR" ] || RUN_LOST=$C_LOST
	fi
	rm -rf "$out"
}
