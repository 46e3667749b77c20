#!/bin/sh
# SPDX-License-Identifier: MIT
# `ltt stats --regions` on the trace of tests/progs/app_golden.c: exact counts and children per thread
# and overall, and self times that are exactly total minus the directly nested regions' totals.
set -u
prog="$BUILD/tests/progs/app_golden"
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
(cd "$(dirname "$prog")" && LTT_TRACE="$dir/trace" ./app_golden)
"$LTT" stats --regions "$dir/trace" >"$dir/out" 2>"$dir/err" || { echo "ltt stats --regions failed"; cat "$dir/err"; exit 1; }
cat "$dir/out"

# "count" of a row: section (the text after "regions of "), category, label
row() {
	awk -v sec="$1" -v cat="$2" -v lab="$3" '
		/^regions of / { in_sec = index($0, "regions of " sec) == 1; next }
		in_sec && $1 == cat && $2 == lab { print $3, $4; exit }' "$dir/out"
}

fail=0
check_count() {
	got=$(row "$1" "$2" "$3" | cut -d' ' -f1)
	[ "$got" = "$4" ] || { echo "$1 $2 $3: count '$got', want $4"; fail=1; }
}
check_children() {
	got=$(row "$1" "$2" "$3" | cut -d' ' -f2)
	[ "$got" = "$4" ] || { echo "$1 $2 $3: children '$got', want $4"; fail=1; }
}
check_count "thread main" index do_read_index 1
check_count "thread main" dir read_recursive 1
check_count "thread main" index preload_all 1
check_count "thread th01:preload_thread" index preload 1
check_count "thread th02:preload_thread" index preload 1
check_count "all threads" index preload 2
check_count "all threads" index do_read_index 1
[ "$(grep -c '^regions of thread' "$dir/out")" -eq 3 ] || { echo "not 3 thread sections"; fail=1; }

# regions nest per thread: preload_all's preload regions ran on other threads
check_children "thread main" index do_read_index 1
check_children "thread main" dir read_recursive 0
check_children "thread main" index preload_all 0
check_children "all threads" index preload 0

# do_read_index's self is its total minus read_recursive's total (the one region inside it), in ns;
# read_recursive has nothing inside: self = total; min = every percentile = max = total for one region.
"$LTT" stats --regions --format=json "$dir/trace" > "$dir/json" || { echo "no JSON output"; fail=1; }
ns() { jq -r --arg l "$1" --arg k "$2" '.threads[] | select(.thread == "main") | .regions[] | select(.label == $l) | .[$k]' "$dir/json"; }
[ "$(ns read_recursive self_ns)" = "$(ns read_recursive total_ns)" ] || { echo "read_recursive self != total"; fail=1; }
for k in min_ns median_ns p50_ns p90_ns p99_ns max_ns; do
	[ "$(ns read_recursive $k)" = "$(ns read_recursive total_ns)" ] || { echo "one region: $k != total"; fail=1; }
done
[ "$(ns do_read_index self_ns)" -eq $(($(ns do_read_index total_ns) - $(ns read_recursive total_ns))) ] ||
	{ echo "do_read_index self != total - read_recursive's total"; fail=1; }
[ $fail -eq 0 ] && echo ok
