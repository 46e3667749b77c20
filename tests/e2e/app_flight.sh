#!/bin/sh
# SPDX-License-Identifier: MIT
# Flight-recorder mode with a ring far too small for the run (tests/progs/app_flight.c): the
# snapshot taken at exit has lost the thread's early events, yet its persistent app events still
# name the process (version, start), the command (cmd_name, def_param) and the thread (thread_start),
# so the Trace2 printers attribute the surviving regions to "th01:spinner", not to a bare tid; and
# exit and atexit, recorded by the exit handler before the recorder's snapshot at exit, are in it.
set -u
prog="$BUILD/tests/progs/app_flight"
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
(cd "$(dirname "$prog")" && LTT_TRACE="$dir/trace" LTT_MODE=flight LTT_BLOCK_SIZE=4096 LTT_BLOCKS=2 ./app_flight) ||
	{ echo "app_flight failed"; exit 1; }
snap=$(ls -d "$dir"/trace/snapshot-* 2>/dev/null | head -n 1)
[ -n "$snap" ] || { echo "no snapshot at exit:"; ls -R "$dir"; exit 1; }
"$LTT" dump --format=perf --brief "$snap" >"$dir/perf" 2>"$dir/err" || { cat "$dir/err"; exit 1; }
fail=0
for want in '| main                     | version ' '| main                     | start        |' \
	    '| main                     | cmd_name     |.*| flight (flight)$' '| main                     | def_param    |.*| ring:small$' \
	    '| th01:spinner             | thread_start |' '| main                     | exit         |.*| code:0$' \
	    '| main                     | atexit       |.*| code:0$'; do
	grep -q -- "$want" "$dir/perf" || { echo "missing: $want"; fail=1; }
done
leaves=$(grep -c '| th01:spinner             | region_leave |' "$dir/perf")
[ "$leaves" -gt 0 ] && [ "$leaves" -lt 20000 ] || { echo "$leaves region_leave lines of th01:spinner"; fail=1; }
grep -q '| tid:' "$dir/perf" && { echo "a thread left unnamed"; fail=1; }
[ $fail -eq 0 ] || { head -n 20 "$dir/perf"; exit 1; }
echo ok
