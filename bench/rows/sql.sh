# SPDX-License-Identifier: MIT
# Rows of ltt sql and ltt export --format=rows (issue 16; sourced by bench/run.sh, uses its measure).
# They read the int3 trace of the reading rows ($LTT_READ, EVENTS events, 1 MiB blocks); with
# BENCH_ONLY selecting only these rows, that trace is recorded here the same way.
#   sql-count-int3   SELECT count(*) FROM bench_int3: M rows/s (goal >= 10)
#   sql-full-ms      SELECT count(*) FROM events: ms
#   sql-window-ms    SELECT count(*) FROM events WHERE ts_ns BETWEEN a 1% window: ms, ratio to the
#                    full scan (goal < 0.05)
#   sql-export-rows      ltt export --format=rows (events) to a file: M rows/s (goal >= 5)
Q="SQL and rows export ($EVENTS int3 events)"
SQL_TRACE= SQL_NA= SQL_EVENTS=0 SQL_FROM= SQL_TO=

sql_trace() {
	if [ -n "$LTT_READ" ] && [ -z "$LTT_READ_NA" ]; then
		SQL_TRACE=$LTT_READ
	elif [ -x "$LTT_PROG" ]; then
		SQL_TRACE=$W/sql-read
		rm -rf "$SQL_TRACE"
		LTT_TRACE=$SQL_TRACE LTT_MODE=discard LTT_BLOCK_SIZE=$BLOCK LTT_BLOCKS=${READ_BLOCKS:-512} \
			"$LTT_PROG" int3 1 "$EVENTS" > "$T/out" 2> "$T/err" ||
			{ SQL_NA="bench_ltt failed: $(head -n 1 "$T/err")"; return; }
	else
		SQL_NA="bench_ltt not built (see $B/build.log)"
		return
	fi
	"$LTT" sql "$SQL_TRACE" --format=csv -e 'SELECT count(*), min(ts_ns), max(ts_ns) FROM bench_int3' \
		> "$T/sqlb" 2> "$T/err" || { SQL_NA="ltt sql failed: $(head -n 1 "$T/err")"; return; }
	set -- $(tail -n 1 "$T/sqlb" | tr ',' ' ')
	SQL_EVENTS=$1
	# the 1% window in the middle of the trace
	SQL_FROM=$(awk -v a="$2" -v b="$3" 'BEGIN { printf "%.0f", a + (b - a) * 0.495 }')
	SQL_TO=$(awk -v a="$2" -v b="$3" 'BEGIN { printf "%.0f", a + (b - a) * 0.505 }')
	log "ltt sql trace: $SQL_EVENTS int3 events, window $SQL_FROM .. $SQL_TO"
}

run_sql_rate() {
	[ -z "$SQL_NA" ] || { RUN_ERR=$SQL_NA; return; }
	run_cmd_rate "$SQL_EVENTS" "$LTT" sql "$SQL_TRACE" -e "$1"
}

# run_sql_ms QUERY: ms of the whole command
run_sql_ms() {
	[ -z "$SQL_NA" ] || { RUN_ERR=$SQL_NA; return; }
	t0=$(now_ns)
	"$LTT" sql "$SQL_TRACE" -e "$1" > /dev/null 2> "$T/err" || { RUN_ERR="ltt sql failed: $(head -n 1 "$T/err")"; return; }
	t1=$(now_ns)
	RUN_VAL=$(awk -v d="$((t1 - t0))" 'BEGIN { printf "%.2f", d / 1e6 }')
}

run_export_rows() {
	[ -z "$SQL_NA" ] || { RUN_ERR=$SQL_NA; return; }
	run_cmd_rate "$SQL_EVENTS" "$LTT" export --format=rows --force -o "$W/rows.jsonl" "$SQL_TRACE"
	rm -f "$W/rows.jsonl"
}

if want sql-; then
	sql_trace
	measure sql-count-int3 "$Q" "ltt sql: SELECT count(*) FROM bench_int3" "Mrows/s" - \
		run_sql_rate 'SELECT count(*) FROM bench_int3'
	measure sql-full-ms "$Q" "ltt sql: count(*) FROM events (full scan)" ms - \
		run_sql_ms 'SELECT count(*) FROM events'
	measure sql-window-ms "$Q" "ltt sql: count(*) FROM events, 1% ts_ns window" ms sql-full-ms \
		run_sql_ms "SELECT count(*) FROM events WHERE ts_ns BETWEEN $SQL_FROM AND $SQL_TO"
	measure sql-export-rows "$Q" "ltt export --format=rows > file" "Mrows/s" - run_export_rows
	[ "$SQL_TRACE" = "$W/sql-read" ] && rm -rf "$SQL_TRACE"
fi
