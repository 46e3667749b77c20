# SPDX-License-Identifier: MIT
# The LTTng-UST and babeltrace2 rows of `make bench`; sourced by bench/run.sh.
#
# The session daemon: when one answers already (`lttng list`), it is used; otherwise the bench starts
# its own and stops exactly that one (by the pid it wrote) when it ends. LTTNG_HOME points at a private
# directory under the bench's work dir, so the client configuration and, for a non-root user, the
# daemon's run directory are the bench's own. (As root, lttng-sessiond always uses /var/run/lttng: the
# bench then shares the machine's daemon, or starts it there.) Sessions are named
# ltt-bench-PID-N and destroyed as soon as their run is over, and at exit if a run is interrupted.

LTTNG_NA=		# why the LTTng recording rows cannot run ("" when they can)
BT2_NA=			# why the babeltrace2 rows cannot run
LTTNG_STARTED_PID=	# the lttng-sessiond this bench started, if any
LTTNG_SESSION=		# the session currently alive
LTTNG_SEQ=0
LTTNG_READ=		# the LTTng trace read by babeltrace2, and its number of events
LTTNG_READ_EVENTS=0

lttng_destroy() {
	if [ -n "$LTTNG_SESSION" ]; then
		lttng destroy "$LTTNG_SESSION" > /dev/null 2>&1
		LTTNG_SESSION=
	fi
}

lttng_cleanup() {
	lttng_destroy
	if [ -n "$LTTNG_STARTED_PID" ]; then
		kill "$LTTNG_STARTED_PID" 2> /dev/null
		i=0
		while kill -0 "$LTTNG_STARTED_PID" 2> /dev/null && [ "$i" -lt 50 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		log "stopped the lttng-sessiond it started (pid $LTTNG_STARTED_PID)"
		LTTNG_STARTED_PID=
	fi
}

lttng_begin() {
	LTTNG_HOME=$W/lttng-home
	export LTTNG_HOME
	mkdir -p "$LTTNG_HOME"
	if ! command -v babeltrace2 > /dev/null 2>&1; then
		BT2_NA="babeltrace2 not installed (make deps-bench)"
	fi
	if ! command -v lttng > /dev/null 2>&1 || ! command -v lttng-sessiond > /dev/null 2>&1; then
		LTTNG_NA="lttng-tools not installed (make deps-bench)"
		return
	fi
	if [ ! -x "$LTTNG_PROG" ]; then
		LTTNG_NA="bench_lttng not built (liblttng-ust-dev missing? see $B/build.log)"
		return
	fi
	trap lttng_cleanup EXIT
	trap 'exit 130' INT TERM HUP
	if lttng list > /dev/null 2>&1; then
		log "using the lttng-sessiond already running"
		return
	fi
	if ! lttng-sessiond --daemonize --no-kernel > "$T/sessiond.err" 2>&1; then
		LTTNG_NA="lttng-sessiond cannot start: $(grep -v '^ *$' "$T/sessiond.err" | head -n 1)"
		return
	fi
	if [ "$(id -u)" = 0 ]; then pidfile=/var/run/lttng/lttng-sessiond.pid
	else pidfile=$LTTNG_HOME/.lttng/lttng-sessiond.pid; fi
	LTTNG_STARTED_PID=$(cat "$pidfile" 2> /dev/null)
	i=0
	until lttng list > /dev/null 2>&1; do
		i=$((i + 1))
		if [ "$i" -gt 50 ]; then
			LTTNG_NA="lttng-sessiond started but does not answer"
			return
		fi
		sleep 0.1
	done
	log "started lttng-sessiond (pid ${LTTNG_STARTED_PID:-unknown})"
}

lttng_end() {
	lttng_cleanup
}

# lttng_session MODE OUTDIR [NSUB]: creates a session with one channel of NSUB (default NBLOCKS) x 1 MiB
# sub-buffers per CPU (discard, or overwrite for snapshot mode) enabling the bench's events, and starts it.
lttng_session() {
	LTTNG_SEQ=$((LTTNG_SEQ + 1))
	s=ltt-bench-$$-$LTTNG_SEQ
	rm -rf "$2"
	if [ "$1" = snapshot ]; then
		lttng create "$s" --snapshot --output="$2" > "$T/lttng.out" 2>&1 || return 1
		chmode=--overwrite
	else
		lttng create "$s" --output="$2" > "$T/lttng.out" 2>&1 || return 1
		chmode=--discard
	fi
	LTTNG_SESSION=$s
	lttng enable-channel -u -s "$s" $chmode --subbuf-size="$BLOCK" --num-subbuf="${3:-$NBLOCKS}" bench \
		> "$T/lttng.out" 2>&1 &&
	lttng enable-event -u -s "$s" -c bench 'ltt_bench:*' > "$T/lttng.out" 2>&1 &&
	lttng start "$s" > "$T/lttng.out" 2>&1
}

# lttng_stop: stops and destroys the session; LOST = the events lttng says were discarded.
lttng_stop() {
	lttng stop "$LTTNG_SESSION" > "$T/lttng.stop" 2>&1
	lttng destroy "$LTTNG_SESSION" > /dev/null 2>&1
	LTTNG_SESSION=
	LOST=$(sed -n 's/.*Warning: \([0-9][0-9]*\) events were discarded.*/\1/p' "$T/lttng.stop" |
		awk '{ s += $1 } END { print s + 0 }')
}

# bt2_count DIR: the number of events babeltrace2 finds in the trace
bt2_count() {
	babeltrace2 "$1" -c sink.utils.counter -p step=+0 2> /dev/null |
		sed -n 's/^ *\([0-9][0-9]*\) Event messages$/\1/p'
}

run_lttng_off() {
	[ -x "$LTTNG_PROG" ] || { RUN_ERR="bench_lttng not built (liblttng-ust-dev missing? see $B/build.log)"; return; }
	run_prog "$LTTNG_PROG" "$1" "$2"
}

# run_lttng discard|snapshot KIND THREADS
run_lttng() {
	[ -z "$LTTNG_NA" ] || { RUN_ERR=$LTTNG_NA; return; }
	out=$W/lttng-$1
	if ! lttng_session "$1" "$out"; then
		RUN_ERR="lttng session setup failed: $(grep -v '^ *$' "$T/lttng.out" | head -n 1)"
		lttng_destroy
		return
	fi
	if ! "$LTTNG_PROG" "$2" "$3" "$EVENTS" > "$T/out" 2> "$T/err"; then
		RUN_ERR="bench_lttng failed: $(head -n 1 "$T/err")"
		lttng_destroy
		return
	fi
	RUN_VAL=$(ns_of "$T/out")
	RUN_CPU=$(cpu_of "$T/out")
	emitted=$((EVENTS * $3))
	if [ "$1" = snapshot ]; then
		t0=$(now_ns)
		lttng snapshot record -s "$LTTNG_SESSION" > "$T/lttng.out" 2>&1
		t1=$(now_ns)
		LTTNG_SNAP_MS=$(awk -v d="$((t1 - t0))" 'BEGIN { printf "%.3f", d / 1e6 }')
		lttng_stop
		# In overwrite mode nothing is discarded; what the snapshot holds is counted instead.
		n=0
		[ -z "$BT2_NA" ] && n=$(bt2_count "$out")
		if [ "${n:-0}" -gt 0 ]; then
			RUN_BPE=$(awk -v b="$(bytes "$out")" -v n="$n" 'BEGIN { printf "%.3f", b / n }')
			RUN_NOTE="snapshot holds $n events"
		fi
		RUN_LOST=$LOST
	else
		lttng_stop
		RUN_LOST=$LOST
		kept=$((emitted - LOST))
		[ "$kept" -gt 0 ] && RUN_BPE=$(awk -v b="$(bytes "$out")" -v n="$kept" 'BEGIN { printf "%.3f", b / n }')
	fi
	rm -rf "$out"
}

# The time of `lttng snapshot record` of a full 2 x 8 MiB ring (the command, end to end).
run_lttng_snaptime() {
	LTTNG_SNAP_MS=
	run_lttng snapshot int3 2
	[ -n "$RUN_ERR" ] && return
	RUN_VAL=$LTTNG_SNAP_MS RUN_BPE= RUN_NOTE= RUN_CPU=
}

READ_SUBBUFS=64		# sub-buffers per CPU for the trace to read: its consumer keeps up, nothing lost

# lttng_read_trace: records the trace the babeltrace2 rows read (EVENTS int3 events, 1 thread, not
# timed) with rings large enough that nothing is discarded, and counts its events with babeltrace2.
lttng_read_trace() {
	[ -z "$BT2_NA" ] || return 0
	want bt2-dummy || want bt2-text || return 0
	[ -z "$LTTNG_NA" ] || { BT2_NA="no LTTng trace to read: $LTTNG_NA"; return 0; }
	LTTNG_READ=$W/lttng-read
	if ! lttng_session discard "$LTTNG_READ" "$READ_SUBBUFS"; then
		BT2_NA="lttng session setup failed: $(grep -v '^ *$' "$T/lttng.out" | head -n 1)"
		lttng_destroy
		return 0
	fi
	if ! "$LTTNG_PROG" int3 1 "$EVENTS" > "$T/out" 2> "$T/err"; then
		BT2_NA="bench_lttng failed: $(head -n 1 "$T/err")"
		lttng_destroy
		return 0
	fi
	lttng_stop
	LTTNG_READ_EVENTS=$(bt2_count "$LTTNG_READ")
	log "LTTng trace to read: ${LTTNG_READ_EVENTS:-0} events ($LOST discarded)"
	[ "${LTTNG_READ_EVENTS:-0}" -gt 0 ] || BT2_NA="babeltrace2 finds no event in $LTTNG_READ"
	READ_NOTE_BT2=
	[ "$LTTNG_READ_EVENTS" = "$EVENTS" ] || READ_NOTE_BT2="the trace holds $LTTNG_READ_EVENTS events"
}

# run_bt2 dummy|text
run_bt2() {
	[ -z "$BT2_NA" ] || { RUN_ERR=$BT2_NA; return; }
	if [ "$1" = dummy ]; then
		run_cmd_rate "$LTTNG_READ_EVENTS" babeltrace2 "$LTTNG_READ" --output-format=dummy
	else
		run_cmd_rate "$LTTNG_READ_EVENTS" babeltrace2 "$LTTNG_READ"
	fi
	RUN_NOTE=$READ_NOTE_BT2
}
