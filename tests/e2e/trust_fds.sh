#!/bin/sh
# SPDX-License-Identifier: MIT
# `ltt sql` needs no more file descriptors than `ltt check` on the same traces (issue 28, point 6):
# at the smallest `ulimit -n` at which `ltt check` succeeds (found by trying), a statement over an event
# table, the events table or the regions table gives the exact count; one descriptor fewer, it fails
# (exit non-zero, never an empty answer). Before 26 Nov 2026 the catalog's descriptors stayed open
# beside each scan's: on an 8-CPU trace check worked from 16 descriptors, sql from 27.
set -u
. "$SRCDIR/tests/e2e/lib/common.sh"

# 8 CPUs and 3 control files: 16000 synth events, 14000 ticks (doc: mktrace -n)
"$MK" -o m8 -c 8 -b 4096 -n 16000 || exit 1
cp -r m8 m8b
(cd "$BUILD/tests/progs" && LTT_TRACE="$work/nest" ./regions_nest) || { echo "regions_nest failed"; exit 1; }

# least N CMD...: the smallest ulimit -n from 4 to 64 at which CMD exits 0 (empty when none)
least() {
	n=4
	while [ $n -le 64 ]; do
		(ulimit -n $n && exec "$@") > /dev/null 2>&1 && { echo $n; return; }
		n=$((n + 1))
	done
}

# under N TRACES... -- STATEMENT WANT: ltt sql at ulimit -n N prints WANT (csv, no header), exit 0
under() {
	n=$1 stmt=$2 want=$3
	shift 3
	got=$( (ulimit -n "$n" && exec "$LTT" sql --format=csv "$@" -e "$stmt") 2>&1); rc=$?
	check "ulimit -n $n: sql $* '$stmt': status" "$rc" 0
	check "ulimit -n $n: sql $* '$stmt'" "$(printf '%s\n' "$got" | tail -n +2)" "$want"
	got=$( (ulimit -n $((n - 1)) && exec "$LTT" sql --format=csv "$@" -e "$stmt") 2>&1); rc=$?
	[ $rc != 0 ] || { echo "ulimit -n $((n - 1)): sql $* '$stmt' exit 0 where check fails: $got"; fail=1; }
}

n=$(least "$LTT" check m8)
[ -n "$n" ] || { echo "ltt check m8 fails at every ulimit -n up to 64"; exit 1; }
echo "ltt check m8: from ulimit -n $n"
under "$n" "SELECT count(*) FROM synth_tick" 14000 m8
under "$n" "SELECT count(*) FROM events" 16000 m8
under "$n" "SELECT count(*), sum(facility = 'synth') FROM events WHERE ts_ns > 0" "16000,16000" m8

n=$(least "$LTT" check m8 m8b)
[ -n "$n" ] || { echo "ltt check m8 m8b fails at every ulimit -n up to 64"; exit 1; }
echo "ltt check m8 m8b: from ulimit -n $n"
under "$n" "SELECT count(*) FROM synth_msg" 4000 m8 m8b

# a recorded trace and the regions table (regions_nest.c: 1 + 2 x (3 + 15 + 30) regions)
n=$(least "$LTT" check nest)
[ -n "$n" ] || { echo "ltt check nest fails at every ulimit -n up to 64"; exit 1; }
echo "ltt check nest: from ulimit -n $n"
under "$n" "SELECT count(*), sum(label = 'leaf') FROM regions" "97,60" nest
# two tables read at once need a reader each: the right answer or a failure, never a wrong one (before
# 26 Nov 2026 a table that could not open its reader was empty: count 0, exit 0)
for stmt in "SELECT count(*) FROM regions r JOIN threads t ON t.tid = r.tid" \
	"SELECT count(*) FROM threads t JOIN regions r ON t.tid = r.tid" \
	"SELECT count(*) FROM app_region_leave e JOIN processes p ON e.ts_ns >= p.ts_ns"; do
	want=$("$LTT" sql --format=csv nest -e "$stmt" | tail -n 1)
	got=$( (ulimit -n "$n" && exec "$LTT" sql --format=csv nest -e "$stmt") 2> /dev/null); rc=$?
	[ $rc != 0 ] || [ "$(printf '%s\n' "$got" | tail -n 1)" = "$want" ] ||
		{ echo "ulimit -n $n: '$stmt' gave $got, exit 0 (want $want)"; fail=1; }
done
exit $fail
