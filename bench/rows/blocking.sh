# SPDX-License-Identifier: MIT
# Rows of blocking mode (issue 34, point 4; doc/recorder.md "Blocking"), sourced by bench/run.sh: what
# LTT_BLOCKING costs the program, at a rate the disk cannot follow and at one it can. bench_func_cyg
# (-finstrument-functions, linked with libltt) recording its calls (LTT_FUNCTIONS=1, discard mode, the
# bench's rings: 8 blocks of 1 MiB per CPU), written to $W's disk:
#   - `calls N`: N calls of a tiny leaf as fast as it can (2 events per call, far more than the disk
#     takes): the wall time per call with LTT_BLOCKING=0 (events lost: the lost column) and with
#     LTT_BLOCKING=1000 (nothing lost: the program waits for the disk);
#   - `paced N 1000`: one call per microsecond (2 M events/s, tens of MB/s): the same two settings,
#     where blocking should cost nothing.
# The figure is wall time (the program's waits are the cost), ns per call; the peer of each blocking
# row is the same run without blocking.
BL_PROG=$B/bench_func_cyg
BL_N=$((EVENTS / 2))
BL_PACED=$((EVENTS / 10))
BG="Blocking mode (wall ns per call of a function-traced program; lower is better)"

# run_blocking MODE MS: RUN_VAL wall ns per call, RUN_LOST events lost
run_blocking() {
	[ -x "$BL_PROG" ] || { RUN_ERR="bench_func_cyg not built (see $B/build.log)"; return; }
	command -v jq > /dev/null || { RUN_ERR="jq missing (make deps)"; return; }
	rm -rf "$W/blocking"
	if [ "$1" = calls ]; then set -- "$2" calls "$BL_N"; else set -- "$2" paced "$BL_PACED" 1000; fi
	ms=$1
	shift
	(cd "$T" && LTT_TRACE="$W/blocking" LTT_BLOCK_SIZE=$BLOCK LTT_BLOCKS=$NBLOCKS LTT_FUNCTIONS=1 \
		LTT_BLOCKING=$ms exec "$BL_PROG" "$@") > "$T/out" 2> "$T/err" ||
		{ RUN_ERR="bench_func_cyg $1 failed: $(head -n 1 "$T/err")"; return; }
	RUN_VAL=$(ns_of "$T/out")
	RUN_CPU=$(cpu_of "$T/out")
	RUN_LOST=$("$LTT" stats --format=json "$W/blocking" 2> /dev/null | jq -r '.counts.lost')
	RUN_BPE=$(du -sB1 "$W/blocking" 2>/dev/null | awk -v n="$BL_N" '{ printf "%.2f", $1 / n }')
	rm -rf "$W/blocking"
}

measure blocking-fast-off "$BG" "as fast as it can, LTT_BLOCKING=0 (drops)" ns - run_blocking calls 0
measure blocking-fast-on "$BG" "as fast as it can, LTT_BLOCKING=1000 (waits)" ns blocking-fast-off run_blocking calls 1000
measure blocking-paced-off "$BG" "1 call/us, LTT_BLOCKING=0" ns - run_blocking paced 0
measure blocking-paced-on "$BG" "1 call/us, LTT_BLOCKING=1000" ns blocking-paced-off run_blocking paced 1000
