#!/bin/sh
# SPDX-License-Identifier: MIT
# ltt sql pushes time constraints down to the reader: on a 10 M-event trace, a query on 1% of the
# time reads about 1% of the blocks (counted by --stats), and gives the rows ltt dump --from/--to gives.
set -u
: "${BUILD:?}" "${SRCDIR:?}" "${LTT:?}"
MK="$BUILD/tests/progs/mktrace"
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
# 10 M events 100 ns apart over 2 CPUs: 1700000000 .. 1700000001 s
"$MK" -o big -c 2 -n 10000000 || exit 1
fail=0
# stats LINE: "rows blocks_read blocks_total events_read"
stats() { sed -n 's/^ltt sql: stats: statement 1: \([0-9]*\) rows; [0-9]* scans read \([0-9]*\) of \([0-9]*\) blocks, \([0-9]*\) events$/\1 \2 \3 \4/p' "$1"; }

"$LTT" sql big --stats --format=csv -e 'SELECT count(*) FROM events' > full.out 2> full.err || { cat full.err; exit 1; }
set -- $(stats full.err)
total=$3
[ "$(tail -n 1 full.out)" = 10000000 ] || { echo "full scan: $(tail -n 1 full.out) rows"; fail=1; }
[ "$2" = "$total" ] && [ "$total" -gt 40000 ] || { echo "full scan read $2 of $total blocks"; fail=1; }

from=1700000000500000000 to=1700000000510000000
"$LTT" sql big --stats --format=csv -e "SELECT count(*), min(ts_ns), max(ts_ns) FROM events WHERE ts_ns BETWEEN $from AND $to" \
	> win.out 2> win.err || { cat win.err; exit 1; }
set -- $(stats win.err)
want=$("$LTT" dump --from 1700000000.5 --to 1700000000.51 big | wc -l)
[ "$(tail -n 1 win.out)" = "$want,$from,$to" ] || { echo "window: $(tail -n 1 win.out), want $want,$from,$to"; fail=1; }
# 1% of the time: at most 1% of the blocks plus one per tracefile at each end
[ "$2" -gt 0 ] && [ "$2" -le $((total / 100 + 4)) ] || { echo "window read $2 of $total blocks"; fail=1; }
echo "window: $want rows, $2 of $total blocks read"

# the same through a per-type table, with > and < (exclusive bounds) and a cpu
"$LTT" sql big --stats --format=csv -e "SELECT count(*) FROM synth_tick WHERE ts_ns > $from AND ts_ns < $to AND cpu = 1" \
	> tick.out 2> tick.err || { cat tick.err; exit 1; }
set -- $(stats tick.err)
want=$("$LTT" dump --event tick --cpu 1 --from 1700000000.500000001 --to 1700000000.509999999 big | wc -l)
[ "$(tail -n 1 tick.out)" = "$want" ] || { echo "tick window: $(tail -n 1 tick.out), want $want"; fail=1; }
[ "$3" -lt "$total" ] && [ "$2" -gt 0 ] && [ "$2" -le $(($3 / 100 + 4)) ] || { echo "tick window read $2 of $3 blocks"; fail=1; }

# an empty range reads nothing
"$LTT" sql big --stats --format=csv -e "SELECT count(*) FROM events WHERE ts_ns < 5" > none.out 2> none.err
set -- $(stats none.err)
[ "$(tail -n 1 none.out)" = 0 ] && [ "$2" -le 4 ] || { echo "empty range: $(tail -n 1 none.out) rows, $2 blocks"; fail=1; }
[ $fail -eq 0 ] && echo ok
exit $fail
