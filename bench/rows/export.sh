# SPDX-License-Identifier: MIT
# Rows of ltt export (issue 12; sourced by bench/run.sh, uses its measure). They read the int3 trace
# of the reading rows ($LTT_READ) and the LTTng trace of the babeltrace2 rows ($LTTNG_READ); with
# BENCH_ONLY selecting only these rows, the traces are recorded here the same way.
#   export-perfetto   ltt export --format=perfetto to a file: M events/s (goal >= 10)
#   export-ctf-bt2    the peer: babeltrace2 TRACE -o ctf -w DIR on the LTTng trace: M events/s
#   export-ctf        ltt export --format=ctf to a directory: M events/s, ratio to the peer (goal >= 10)
#   export-svg        ltt export --format=svg: M events/s (no goal; the picture's cost)
X="Export of $EVENTS int3 events (M events/s, higher is better)"
EXP_TRACE= EXP_NA= EXP_EVENTS=0 EXP_BT2_NA=

exp_ltt_trace() {
	if [ -n "$LTT_READ" ] && [ -z "$LTT_READ_NA" ]; then
		EXP_TRACE=$LTT_READ EXP_EVENTS=$LTT_READ_EVENTS
		return
	fi
	[ -x "$LTT_PROG" ] || { EXP_NA="bench_ltt not built (see $B/build.log)"; return; }
	EXP_TRACE=$W/export-read
	rm -rf "$EXP_TRACE"
	LTT_TRACE=$EXP_TRACE LTT_MODE=discard LTT_BLOCK_SIZE=$BLOCK LTT_BLOCKS=${READ_BLOCKS:-512} \
		"$LTT_PROG" int3 1 "$EVENTS" > "$T/out" 2> "$T/err" ||
		{ EXP_NA="bench_ltt failed: $(head -n 1 "$T/err")"; return; }
	ltt_count "$EXP_TRACE"
	[ -z "$C_ERR" ] || { EXP_NA=$C_ERR; return; }
	EXP_EVENTS=$C_EVENTS
	log "ltt export trace: $C_EVENTS events ($C_LOST lost)"
}

exp_lttng_trace() {
	[ -z "$LTTNG_READ" ] || [ "${LTTNG_READ_EVENTS:-0}" = 0 ] || return 0
	[ -z "$LTTNG_NA" ] || { EXP_BT2_NA="no LTTng trace: $LTTNG_NA"; return 0; }
	LTTNG_READ=$W/lttng-read
	if ! lttng_session discard "$LTTNG_READ" "${READ_SUBBUFS:-64}"; then
		EXP_BT2_NA="lttng session setup failed: $(grep -v '^ *$' "$T/lttng.out" | head -n 1)"
		lttng_destroy
		return 0
	fi
	"$LTTNG_PROG" int3 1 "$EVENTS" > "$T/out" 2> "$T/err" ||
		{ EXP_BT2_NA="bench_lttng failed: $(head -n 1 "$T/err")"; lttng_destroy; return 0; }
	lttng_stop
	LTTNG_READ_EVENTS=$(bt2_count "$LTTNG_READ")
	[ "${LTTNG_READ_EVENTS:-0}" -gt 0 ] || EXP_BT2_NA="babeltrace2 finds no event in $LTTNG_READ"
}

# run_export FORMAT
run_export() {
	[ -z "$EXP_NA" ] || { RUN_ERR=$EXP_NA; return; }
	rm -rf "$W/export.out"
	run_cmd_rate "$EXP_EVENTS" "$LTT" export --format="$1" -o "$W/export.out" "$EXP_TRACE"
	rm -rf "$W/export.out"
}

run_export_bt2() {
	[ -z "$EXP_BT2_NA" ] || { RUN_ERR=$EXP_BT2_NA; return; }
	rm -rf "$W/bt2-ctf"
	run_cmd_rate "$LTTNG_READ_EVENTS" babeltrace2 "$LTTNG_READ" -o ctf -w "$W/bt2-ctf"
	rm -rf "$W/bt2-ctf"
}

if want export-; then
	exp_ltt_trace
	want export-ctf && exp_lttng_trace
	measure export-perfetto "$X" "ltt export --format=perfetto > file" "Mev/s" - run_export perfetto
	measure export-ctf-bt2 "$X" "babeltrace2 TRACE -o ctf -w DIR (LTTng trace)" "Mev/s" - run_export_bt2
	measure export-ctf "$X" "ltt export --format=ctf > directory" "Mev/s" export-ctf-bt2 run_export ctf
	measure export-svg "$X" "ltt export --format=svg > file" "Mev/s" - run_export svg
	[ "$EXP_TRACE" = "$W/export-read" ] && rm -rf "$EXP_TRACE"
fi
