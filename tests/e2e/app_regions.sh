#!/bin/sh
# `ltt stats --regions` on the trace of tests/progs/app_golden.c: exact counts per thread and
# overall, and self times that are exactly total minus the directly nested regions' totals.
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
		in_sec && $1 == cat && $2 == lab { print $3, $4, $5, $6, $7, $8; exit }' "$dir/out"
}
to_ns() { echo "$1" | awk -F. '{ printf "%d\n", $1 * 1000000000 + $2 * 1000 }'; }

fail=0
check_count() {
	got=$(row "$1" "$2" "$3" | cut -d' ' -f1)
	[ "$got" = "$4" ] || { echo "$1 $2 $3: count '$got', want $4"; fail=1; }
}
check_count "thread main" index do_read_index 1
check_count "thread main" dir read_recursive 1
check_count "thread main" index preload_all 1
check_count "thread th01:preload_thread" index preload 1
check_count "thread th02:preload_thread" index preload 1
check_count "all threads" index preload 2
check_count "all threads" index do_read_index 1
[ "$(grep -c '^regions of thread' "$dir/out")" -eq 3 ] || { echo "not 3 thread sections"; fail=1; }

# do_read_index's self is its total minus read_recursive's total (the one region inside it);
# read_recursive has nothing inside: self = total; min = median = max = total for one region.
set -- $(row "thread main" index do_read_index)
outer_total=$(to_ns "$2") outer_self=$(to_ns "$3")
set -- $(row "thread main" dir read_recursive)
inner_total=$(to_ns "$2") inner_self=$(to_ns "$3")
[ "$inner_self" -eq "$inner_total" ] || { echo "read_recursive self $inner_self != total $inner_total"; fail=1; }
[ "$4" = "$2" ] && [ "$5" = "$2" ] && [ "$6" = "$2" ] || { echo "one region: min/median/max != total"; fail=1; }
d=$((outer_total - inner_total - outer_self))
# microsecond rounding of three printed values: at most 2 us apart
[ $d -ge -2000 ] && [ $d -le 2000 ] || { echo "do_read_index self $outer_self != $outer_total - $inner_total"; fail=1; }

"$LTT" stats --regions --format=json "$dir/trace" | grep -q '"overall":\[' || { echo "no JSON output"; fail=1; }
[ $fail -eq 0 ] && echo ok
