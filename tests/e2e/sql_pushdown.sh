#!/bin/sh
# SPDX-License-Identifier: MIT
# ltt sql's derived tables streamed with their constraints pushed down (issue 34, point 8; doc/cli.md
# "ltt sql"): tests/func/func_many.c, 2 threads of 100 000 calls, recorded with function tracing and
# the kernel's sched and syscalls events (root: the tracepoints). For calls, thread_states and syscalls
# the rows of a query SQLite hands to the table (tid = X, ts_ns ranges with >= > <= < =, both) are the
# rows of the same query written so that SQLite cannot hand it over (tid + 0 = X, ts_ns + 0 ...), row
# for row; a NULL bound gives no row; and calls' counts are the program's own (100 000 leaf calls per
# worker thread, 200 000 in all).
set -u
: "${BUILD:?}" "${SRCDIR:?}" "${LTT:?}"
[ "$(id -u)" = 0 ] || { echo "skip: needs root for the kernel's tracepoints (CI runs as root)"; exit 77; }
prog="$BUILD/tests/func/func_many_cyg"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ltt-e2e-sqlpush-XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
N=100000
LTT_TRACE="$tmp/t" LTT_FUNCTIONS=1 LTT_KERNEL=sched,syscalls "$prog" $N 2 > /dev/null 2> "$tmp/err" ||
	fail "func_many: $(cat "$tmp/err")"
q() { "$LTT" sql "$tmp/t" --format=csv -e "$1" 2> "$tmp/qerr" | tail -n +2; }
same() {	# TABLE PUSHED NOT-PUSHED: the same rows, ordered by every column
	cols=$(q "SELECT group_concat(name, ',') FROM pragma_table_info('$1')" | tr -d '"')
	a=$(q "SELECT * FROM $1 WHERE $2 ORDER BY $cols" | md5sum)
	b=$(q "SELECT * FROM $1 WHERE $3 ORDER BY $cols" | md5sum)
	n=$(q "SELECT count(*) FROM $1 WHERE $2")
	[ "$a" = "$b" ] || fail "$1 WHERE $2: not the rows of WHERE $3 ($n rows; $(cat "$tmp/qerr"))"
	echo "$1 WHERE $2: $n rows"
}

# calls: the program's counts
[ "$(q "SELECT count(*) FROM calls WHERE function = 'leaf'")" = $((2 * N)) ] ||
	fail "calls: $(q "SELECT count(*) FROM calls WHERE function = 'leaf'") leaf calls, expected $((2 * N))"
T=$(q "SELECT tid FROM calls WHERE function = 'work' ORDER BY ts_ns LIMIT 1")
[ -n "$T" ] || fail "no work() call"
[ "$(q "SELECT count(*) FROM calls WHERE tid = $T AND function = 'leaf'")" = $N ] ||
	fail "calls WHERE tid = $T: $(q "SELECT count(*) FROM calls WHERE tid = $T AND function = 'leaf'") leaf calls, expected $N"
# a window of the middle of the trace, and one row's time
set -- $(q "SELECT min(ts_ns), max(ts_ns) FROM calls" | tr ',' ' ')
A=$(( $1 + ($2 - $1) * 2 / 5 )) B=$(( $1 + ($2 - $1) * 3 / 5 ))
X=$(q "SELECT ts_ns FROM calls WHERE function = 'leaf' LIMIT 1 OFFSET 777")
for tb in calls thread_states syscalls; do
	[ "$(q "SELECT count(*) FROM $tb")" -gt 0 ] || fail "$tb: no rows ($(cat "$tmp/qerr"))"
	same $tb "tid = $T" "tid + 0 = $T"
	same $tb "ts_ns >= $A AND ts_ns < $B" "ts_ns + 0 >= $A AND ts_ns + 0 < $B"
	same $tb "ts_ns > $A AND ts_ns <= $B AND tid = $T" "ts_ns + 0 > $A AND ts_ns + 0 <= $B AND tid + 0 = $T"
	same $tb "ts_ns = $X" "ts_ns + 0 = $X"
	same $tb "ts_ns BETWEEN $A AND $B AND ts_ns >= $X" "ts_ns + 0 BETWEEN $A AND $B AND ts_ns + 0 >= $X"
	[ "$(q "SELECT count(*) FROM $tb WHERE tid = NULL OR ts_ns > NULL")" = 0 ] || fail "$tb: rows for a NULL bound"
done
# aggregates over the pushed scan equal those over the whole table
[ "$(q "SELECT count(*), sum(dur_ns), sum(self_ns), max(depth) FROM calls WHERE tid = $T")" = \
  "$(q "SELECT count(*), sum(dur_ns), sum(self_ns), max(depth) FROM calls WHERE tid + 0 = $T")" ] || fail "calls aggregates of tid $T"
[ "$(q "SELECT state, count(*), sum(dur_ns) FROM thread_states WHERE tid = $T GROUP BY state")" = \
  "$(q "SELECT state, count(*), sum(dur_ns) FROM thread_states WHERE tid + 0 = $T GROUP BY state")" ] || fail "thread_states aggregates of tid $T"
echo "ok"
