# SPDX-License-Identifier: MIT
# Rows of ltt export in parallel (issue 17.2, "the same for ltt export"; sourced by bench/run.sh, uses
# its measure). Every format once with one thread, to a file in the bench's work directory, on the
# int3 trace of the reading rows ($LTT_READ; recorded here the same way when BENCH_ONLY selects only
# these rows); then ctf, the format with a parallel path (tools/export/ctf_par.c), with one thread per
# CPU, its ratio to one thread in the ltt/peer column.
#   export-par-FORMAT-1   ltt export --format=FORMAT --threads=1: M events/s
#   export-par-ctf-n      ltt export --format=ctf --threads=NCPU: M events/s, ratio to export-par-ctf-1
XP="Issue 17.2: ltt export of $EVENTS int3 events, one thread against --threads (M events/s; ltt/peer: --threads=N against --threads=1)"
XP_TRACE= XP_NA= XP_EVENTS=0 XP_OWN=

xp_trace() {
	if [ -n "$LTT_READ" ] && [ -z "$LTT_READ_NA" ] && [ -d "$LTT_READ" ]; then
		XP_TRACE=$LTT_READ XP_EVENTS=$LTT_READ_EVENTS
		return
	fi
	[ -x "$LTT_PROG" ] || { XP_NA="bench_ltt not built (see $B/build.log)"; return; }
	XP_TRACE=$W/export-par-read XP_OWN=1
	rm -rf "$XP_TRACE"
	LTT_TRACE=$XP_TRACE LTT_MODE=discard LTT_BLOCK_SIZE=$BLOCK LTT_BLOCKS=${READ_BLOCKS:-512} \
		"$LTT_PROG" int3 1 "$EVENTS" > "$T/out" 2> "$T/err" ||
		{ XP_NA="bench_ltt failed: $(head -n 1 "$T/err")"; return; }
	ltt_count "$XP_TRACE"
	[ -z "$C_ERR" ] || { XP_NA=$C_ERR; return; }
	XP_EVENTS=$C_EVENTS
	log "ltt export --threads trace: $C_EVENTS events ($C_LOST lost)"
}

# run_export_par FORMAT THREADS
run_export_par() {
	[ -z "$XP_NA" ] || { RUN_ERR=$XP_NA; return; }
	rm -rf "$W/export-par.out"
	run_cmd_rate "$XP_EVENTS" "$LTT" export --format="$1" --threads="$2" -o "$W/export-par.out" "$XP_TRACE"
	rm -rf "$W/export-par.out"
}

XP_KEYS="export-par-ctf-1 export-par-perfetto-1 export-par-chrome-json-1 export-par-svg-1 export-par-rows-1 export-par-ctf-n"
XP_ANY=
for k in $XP_KEYS; do want "$k" && XP_ANY=1; done
if [ -n "$XP_ANY" ]; then
	xp_trace
	for f in ctf perfetto chrome-json svg rows; do
		measure "export-par-$f-1" "$XP" "ltt export --format=$f, --threads=1" "Mev/s" - run_export_par "$f" 1
	done
	measure export-par-ctf-n "$XP" "ltt export --format=ctf, --threads=$ncpu" "Mev/s" export-par-ctf-1 \
		run_export_par ctf "$ncpu"
	[ -z "$XP_OWN" ] || rm -rf "$XP_TRACE"
fi
