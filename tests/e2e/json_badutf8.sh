#!/bin/sh
# SPDX-License-Identifier: MIT
# JSON output is valid JSON whatever bytes the trace holds (common/escape_json.h): `ltt sql
# --format=json`, `ltt stats --regions --format=json` and `ltt dump --format=json` on the trace of
# tests/progs/app_badutf8.c (a thread name, region categories and labels, a data string and a message
# with invalid UTF-8, overlong forms, an encoded surrogate, a sequence cut short, control characters,
# quotes) print what jq parses, and jq reads back each string as the rule says: every byte that is not
# part of valid UTF-8 as the character U+00XX of its value.
set -u
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
(cd "$BUILD/tests/progs" && LTT_TRACE="$dir/trace" ./app_badutf8) || { echo "app_badutf8 failed"; exit 1; }
fail=0

# The strings of app_badutf8.c as jq decodes them (each invalid byte XX as U+00XX, in UTF-8 here).
thread=$(printf 'th\303\277\001 \303\200\302\200')
cat_=$(printf 'cat\303\255\302\240\302\200')
label=$(printf 'lab\303\277el"\\\n\303\203')
main_label=$(printf 'main\303\276')

"$LTT" stats --regions --format=json "$dir/trace" > "$dir/regions.json" 2>"$dir/err" ||
	{ echo "ltt stats --regions --format=json failed"; cat "$dir/err"; fail=1; }
jq -e . "$dir/regions.json" > /dev/null || { echo "ltt stats --regions --format=json: not JSON"; cat "$dir/regions.json"; fail=1; }
got=$(jq -r --arg t "$thread" --arg c "$cat_" --arg l "$label" \
	'[.threads[] | select(.thread | endswith($t)) | .regions[] | select(.category == $c and .label == $l) | .count] | add' \
	"$dir/regions.json")
[ "$got" = 2 ] || { echo "regions: the worker's region under its name, count '$got', want 2"; fail=1; }
got=$(jq -r --arg c "$cat_" --arg l "$main_label" '[.overall[] | select(.category == $c and .label == $l) | .count] | add' \
	"$dir/regions.json")
[ "$got" = 1 ] || { echo "regions: the main thread's region, count '$got', want 1"; fail=1; }

for q in "SELECT * FROM regions" "SELECT * FROM threads" "SELECT * FROM events"; do
	"$LTT" sql --format=json -e "$q" "$dir/trace" > "$dir/sql.json" 2>"$dir/err" ||
		{ echo "ltt sql --format=json -e '$q' failed"; cat "$dir/err"; fail=1; }
	[ -s "$dir/sql.json" ] || { echo "ltt sql -e '$q': no rows"; fail=1; }
	jq -e . "$dir/sql.json" > /dev/null || { echo "ltt sql --format=json -e '$q': not JSON"; cat "$dir/sql.json"; fail=1; }
done
got=$("$LTT" sql --format=json -e "SELECT label FROM regions" "$dir/trace" |
	jq -r --arg l "$label" 'select(.label == $l) | .label' | wc -l)
[ "$got" = 4 ] || { echo "sql: the worker's label, $got lines, want 4 (two regions, two lines each)"; fail=1; }
got=$("$LTT" sql --format=json -e "SELECT trace2_name AS name FROM threads" "$dir/trace" | jq -r --arg t "$thread" 'select(.name | endswith($t)) | "x"')
[ "$got" = x ] || { echo "sql: the thread name not read back: '$got'"; fail=1; }

"$LTT" dump --format=json "$dir/trace" > "$dir/dump.json" || { echo "ltt dump --format=json failed"; fail=1; }
jq -e . "$dir/dump.json" > /dev/null || { echo "ltt dump --format=json: not JSON"; fail=1; }
exit $fail
