#!/bin/sh
# SPDX-License-Identifier: MIT
# The driver of `make bench`: runs every row RUNS times (default 5), takes the median and the min-max,
# and prints one table with the ratios ltt/peer. POSIX sh + awk, no Python.
#
# Environment (set by bench/module.mk): BUILD (absolute build dir), LTT (the ltt command), SRCDIR.
#   BENCH_QUICK=1    about a minute: 1 M events per thread instead of 10 M
#   BENCH_RUNS=N     runs per row (default 5; at least 5 for the published table)
#   BENCH_EVENTS=N   events per thread (overrides the above)
#   BENCH_ONLY=WORD  only the rows whose key contains WORD (keys: see the first column of results.tsv)
# Rows of a concern go in bench/rows/NAME.sh (see "rows of each concern" below).
# Outputs: the table on stdout and in $BUILD/bench/table.txt; raw rows in $BUILD/bench/results.tsv.
set -u
: "${BUILD:?BUILD must name the build directory}"
LTT=${LTT:-$BUILD/bin/ltt}
SRCDIR=${SRCDIR:-.}
QUICK=${BENCH_QUICK:-0}
RUNS=${BENCH_RUNS:-5}
if [ "$QUICK" = 1 ]; then EVENTS=${BENCH_EVENTS:-1000000}; else EVENTS=${BENCH_EVENTS:-10000000}; fi
ONLY=${BENCH_ONLY:-}

B=$BUILD/bench
W=$B/work			# traces of the runs; removed after each run except the ones read below
T=$B/tmp			# scratch files of the driver
RES=$B/results.tsv
rm -rf "$W" "$T" && mkdir -p "$W" "$T" || exit 1
: > "$RES"

# Ring sizes, the same for every tracer: 8 blocks (sub-buffers) of 1 MiB per CPU, so 2 x 8 MiB here.
BLOCK=1048576
NBLOCKS=8

# The caller's own tracing settings must not leak into the rows.
unset LTT_TRACE LTT_MODE LTT_BLOCK_SIZE LTT_BLOCKS LTT_SHM_DIR LTT_SNAPSHOT_SIGNAL

FLOOR=$B/bench_floor
PRIMS=$B/bench_prims
LTTNG_PROG=$B/bench_lttng
LTT_PROG=$B/bench_ltt
REGION_PROG=$B/bench_region

log() { printf 'bench: %s\n' "$*" >&2; }
now_ns() { date +%s%N; }

# ---- the measuring loop -------------------------------------------------------------------------
# A run function sets RUN_VAL (the figure), and may set RUN_LOST (events lost in that run), RUN_BPE
# (bytes per event on disk), RUN_NOTE; or RUN_ERR (why the row cannot be measured: the row then says
# "not available" with that reason).
ROWNO=0
want() { [ -z "$ONLY" ] || case "$1" in *"$ONLY"*) return 0 ;; *) return 1 ;; esac; }

# stats FILE: "median min max" of the numbers in FILE, one a line ("- - -" when empty).
stats() {
	sort -g "$1" | awk '{ v[NR] = $1 }
		END { if (NR == 0) { print "- - -"; exit }
		      m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		      print m, v[1], v[NR] }'
}

# na KEY GROUP LABEL UNIT PEER REASON: a row that cannot be measured.
na() {
	want "$1" || return 0
	printf '%s\t%s\t%s\t%s\t%s\tNA\t-\t-\t-\t-\t%s\t-\n' "$1" "$2" "$3" "$4" "$5" "$6" >> "$RES"
	log "$3: not available: $6"
}

# measure KEY GROUP LABEL UNIT PEER FUNC ARGS...: RUNS runs of FUNC ARGS, one result line.
# results.tsv columns: key group label unit peer median min max lost bytes/event note cpu-median
measure() {
	key=$1 group=$2 label=$3 unit=$4 peer=$5
	shift 5
	want "$key" || return 0
	ROWNO=$((ROWNO + 1))
	: > "$T/vals"; : > "$T/lost"; : > "$T/bpe"; : > "$T/cpu"
	err= note=
	i=0
	while [ "$i" -lt "$RUNS" ]; do
		RUN_VAL= RUN_LOST= RUN_BPE= RUN_ERR= RUN_NOTE= RUN_CPU=
		"$@"
		if [ -n "$RUN_ERR" ]; then err=$RUN_ERR; break; fi
		case "$RUN_VAL" in ''|*[!0-9.e+-]*) err="no figure from run $i ($RUN_VAL)"; break ;; esac
		echo "$RUN_VAL" >> "$T/vals"
		[ -n "$RUN_LOST" ] && echo "$RUN_LOST" >> "$T/lost"
		[ -n "$RUN_BPE" ] && echo "$RUN_BPE" >> "$T/bpe"
		[ -n "$RUN_CPU" ] && echo "$RUN_CPU" >> "$T/cpu"
		[ -n "$RUN_NOTE" ] && note=$RUN_NOTE
		i=$((i + 1))
	done
	if [ -n "$err" ]; then
		na "$key" "$group" "$label" "$unit" "$peer" "$err"
		return 0
	fi
	set -- $(stats "$T/vals"); med=$1 min=$2 max=$3
	set -- $(stats "$T/lost")
	if [ "$1" = - ]; then lost=-; elif [ "$2" = "$3" ]; then lost=$2; else lost="$2-$3"; fi
	set -- $(stats "$T/bpe"); bpe=$1
	set -- $(stats "$T/cpu"); cpu=$1
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$key" "$group" "$label" "$unit" "$peer" \
		"$med" "$min" "$max" "$lost" "$bpe" "${note:--}" "$cpu" >> "$RES"
	log "[$ROWNO] $label: $med $unit (min $min, max $max; lost $lost)"
}

# The figure printed by a bench program (bench/workload.h): ns_per_event=F ...
ns_of() { sed -n 's/^ns_per_event=\([0-9.]*\) .*/\1/p' "$1"; }
# ... and the thread CPU time per event it prints after it (preemption by other processes excluded)
cpu_of() { sed -n 's/.* cpu_ns_per_event=\([0-9.]*\)$/\1/p' "$1"; }

# bytes FILE...: total size in bytes of the files (apparent size, not blocks allocated)
bytes() { du -sb "$@" 2>/dev/null | awk '{ s += $1 } END { print s + 0 }'; }

# run_prog PROG KIND THREADS [ENV=VALUE...]: a bench program alone (floor, empty loop, not recording).
run_prog() {
	prog=$1 kind=$2 th=$3
	shift 3
	[ -x "$prog" ] || { RUN_ERR="$(basename "$prog") not built (see $B/build.log)"; return; }
	if ! env "$@" "$prog" "$kind" "$th" "$EVENTS" > "$T/out" 2> "$T/err"; then
		RUN_ERR="$(basename "$prog") failed: $(head -n 1 "$T/err")"
		return
	fi
	RUN_VAL=$(ns_of "$T/out")
	RUN_CPU=$(cpu_of "$T/out")
}

# children_cpu FILE: the CPU seconds (user + system) used so far by the finished children of this shell,
# from the `times` builtin written to FILE (run in this shell: a subshell would see its own children).
children_cpu() { sed -n 2p "$1" | awk '{ s = 0; for (i = 1; i <= NF; i++) { split($i, a, "m"); s += a[1] * 60 + a[2] }
	printf "%.3f", s }'; }

# run_prims OP: bench_prims OP EVENTS
run_prims() {
	[ -x "$PRIMS" ] || { RUN_ERR="bench_prims not built (see $B/build.log)"; return; }
	if ! "$PRIMS" "$1" "$EVENTS" > "$T/out" 2> "$T/err"; then
		RUN_ERR="bench_prims failed: $(head -n 1 "$T/err")"
		return
	fi
	RUN_VAL=$(ns_of "$T/out")
	RUN_CPU=$(cpu_of "$T/out")
}

# run_cmd_rate EVENTS CMD...: runs CMD (stdout to /dev/null); the figure is M events per second.
# RUN_CPU is the same figure computed with the CPU time (user + system) of the command.
run_cmd_rate() {
	n=$1
	shift
	times > "$T/times0"
	t0=$(now_ns)
	if ! "$@" > /dev/null 2> "$T/err"; then
		RUN_ERR="$* failed: $(grep -v '^ *$' "$T/err" | head -n 1)"
		return
	fi
	t1=$(now_ns)
	times > "$T/times1"
	RUN_VAL=$(awk -v n="$n" -v d="$((t1 - t0))" 'BEGIN { printf "%.3f", n * 1000 / d }')
	RUN_CPU=$(awk -v n="$n" -v a="$(children_cpu "$T/times0")" -v b="$(children_cpu "$T/times1")" \
		'BEGIN { if (b > a) printf "%.3f", n / (b - a) / 1e6 }')
}

. "$SRCDIR/bench/lttng.sh"
. "$SRCDIR/bench/ltt.sh"

# ---- the machine --------------------------------------------------------------------------------
cpu_model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
ncpu=$(getconf _NPROCESSORS_ONLN)
log "$(date -u '+%Y-%m-%d %H:%M UTC'): $cpu_model, $ncpu CPUs, Linux $(uname -r); load $(cut -d' ' -f1-3 /proc/loadavg)"
log "$EVENTS events per thread, $RUNS runs per row; traces under $W"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
t_start=$(now_ns)

# ---- primitives ---------------------------------------------------------------------------------
P="Primitives of an event path (ns per operation, 1 thread)"
measure prims-rdtsc "$P" "rdtsc (the TSC; ltt's clock)" ns - run_prims rdtsc
measure prims-clock "$P" "clock_gettime MONOTONIC (LTTng's clock)" ns - run_prims clock
measure prims-add "$P" "lock add, uncontended (a commit)" ns - run_prims add
measure prims-cas "$P" "lock cmpxchg, uncontended (a reservation)" ns - run_prims cas

# ---- recording ----------------------------------------------------------------------------------
R="Recording (ns per event per thread, lower is better)"
measure floor-int3-1t "$R" "floor: rdtsc + copy, int3, 1 thread" ns - run_prog "$FLOOR" int3 1
measure floor-str-1t "$R" "floor: rdtsc + copy, str, 1 thread" ns - run_prog "$FLOOR" str 1
measure floor-int3-2t "$R" "floor: rdtsc + copy, int3, 2 threads" ns - run_prog "$FLOOR" int3 2
measure empty-1t "$R" "empty loop, 1 thread" ns - run_prog "$FLOOR" empty 1

lttng_begin
measure lttng-off-int3-1t "$R" "lttng: not recording, int3, 1 thread" ns - run_lttng_off int3 1
measure ltt-off-int3-1t "$R" "ltt: not recording, int3, 1 thread" ns lttng-off-int3-1t run_ltt_off int3 1
for kind in int3 str; do
	for th in 1 2; do
		t="$th thread"; [ "$th" = 1 ] || t="${t}s"
		measure "lttng-discard-$kind-${th}t" "$R" "lttng: discard, $kind, $t" ns - \
			run_lttng discard "$kind" "$th"
		measure "ltt-discard-$kind-${th}t" "$R" "ltt: discard, $kind, $t" ns "lttng-discard-$kind-${th}t" \
			run_ltt discard "$kind" "$th"
		measure "lttng-snapshot-$kind-${th}t" "$R" "lttng: snapshot mode, $kind, $t" ns - \
			run_lttng snapshot "$kind" "$th"
		measure "ltt-flight-$kind-${th}t" "$R" "ltt: flight mode, $kind, $t" ns "lttng-snapshot-$kind-${th}t" \
			run_ltt flight "$kind" "$th"
	done
done

# ---- snapshots ----------------------------------------------------------------------------------
S="Snapshot of a 2 x 8 MiB ring (ms, lower is better)"
measure lttng-snaptime "$S" "lttng: snapshot record (command)" ms - run_lttng_snaptime
measure ltt-snaptime "$S" "ltt: flight snapshot (API call)" ms lttng-snaptime run_ltt_snaptime

# ---- reading ------------------------------------------------------------------------------------
D="Reading $EVENTS int3 events (M events/s, higher is better)"
lttng_read_trace
ltt_read_trace
measure bt2-dummy "$D" "babeltrace2 --output-format=dummy" "Mev/s" - run_bt2 dummy
measure bt2-text "$D" "babeltrace2 (text) > /dev/null" "Mev/s" - run_bt2 text
measure ltt-stats "$D" "ltt stats" "Mev/s" bt2-dummy run_ltt_read stats
measure ltt-json "$D" "ltt dump --format=json > /dev/null" "Mev/s" bt2-text run_ltt_read json
measure ltt-text "$D" "ltt dump > /dev/null" "Mev/s" bt2-text run_ltt_read text

# ---- rows of each concern: bench/rows/NAME.sh, sourced in name order ------------------------------
# A file there adds its own section with `measure` (and its run functions); it may read the traces
# made above: $LTT_READ (ltt, $LTT_READ_EVENTS int3 events; $LTT_READ_NA says why there is none) and
# the LTTng trace of lttng.sh ($LTTNG_READ, $LTTNG_READ_EVENTS), and the programs in $B.
for rows in "$SRCDIR"/bench/rows/*.sh; do
	[ -f "$rows" ] || continue
	. "$rows"
done
lttng_end

# ---- application API (issue 9) ------------------------------------------------------------------
A="Application API (ns per call, lower is better)"
measure region-off "$A" "ltt: region enter+leave, not recording" ns - run_region off
measure region-on "$A" "ltt: region enter+leave, recording" ns - run_region on

t_end=$(now_ns)

# ---- the table ----------------------------------------------------------------------------------
# ratio = ltt median / peer median, in the row's unit: below 1 is better for times, above 1 for rates.
{
	printf '%s, %s CPUs, Linux %s\n' "$cpu_model" "$ncpu" "$(uname -r)"
	printf '%s; %s events per thread; median of %s runs; load before %s, after %s; %s s in all\n' \
		"$(date -u '+%Y-%m-%d %H:%M UTC')" "$EVENTS" "$RUNS" "$load_before" \
		"$(cut -d' ' -f1-3 /proc/loadavg)" "$(( (t_end - t_start) / 1000000000 ))"
	awk -F '\t' '
	{ key[NR] = $1; grp[NR] = $2; lab[NR] = $3; unit[NR] = $4; peer[NR] = $5; med[NR] = $6
	  lo[NR] = $7; hi[NR] = $8; lost[NR] = $9; bpe[NR] = $10; note[NR] = $11; cpu[NR] = $12
	  idx[$1] = NR }
	END {
		for (i = 1; i <= NR; i++) {
			if (grp[i] != last) {
				printf "\n%s\n", grp[i]
				printf "  %-44s %10s %21s %8s %17s %8s %9s\n", "", "median", "min-max", "cpu", \
					"lost/run", "B/event", "ltt/peer"
				last = grp[i]
			}
			if (med[i] == "NA") {
				printf "  %-44s not available: %s\n", lab[i], note[i]
				continue
			}
			r = "-"
			if (peer[i] != "-" && (peer[i] in idx) && med[idx[peer[i]]] != "NA" && med[idx[peer[i]]] > 0)
				r = sprintf("%.2f", med[i] / med[idx[peer[i]]])
			# 2-thread rows: total throughput relative to the same row with 1 thread
			if (key[i] ~ /-2t$/) {
				k1 = key[i]; sub(/-2t$/, "-1t", k1)
				if ((k1 in idx) && med[idx[k1]] != "NA" && med[i] > 0) {
					s = sprintf("2 threads = %.2fx the throughput of 1", 2 * med[idx[k1]] / med[i])
					if (cpu[i] > 0 && cpu[idx[k1]] > 0)
						s = s sprintf(" (%.2fx by CPU time)", 2 * cpu[idx[k1]] / cpu[i])
					note[i] = (note[i] == "-") ? s : s "; " note[i]
				}
			}
			b = (bpe[i] == "-") ? "-" : sprintf("%.1f", bpe[i])
			c = (cpu[i] == "-" || cpu[i] == "") ? "-" : sprintf("%.2f", cpu[i])
			printf "  %-44s %10.2f %10.2f-%-10.2f %8s %17s %8s %9s%s\n", lab[i], med[i], lo[i], hi[i], \
				c, lost[i], b, r, (note[i] != "-" ? "  " note[i] : "")
		}
	}' "$RES"
} > "$B/table.txt"
echo
cat "$B/table.txt"
