#!/bin/sh
# SPDX-License-Identifier: MIT
# The three Trace2 renderings of a program that uses every call of <ltt/app.h>
# (tests/progs/app_golden.c), in brief mode, against tests/golden/app/*.txt. What still varies from
# run to run is masked first: seconds (t_abs, t_rel, elapsed) become S.SSSSSS, the event format's
# sid and time become SID and TIME, ltt's version becomes VERSION.
# UPDATE=1 rewrites the golden files (check the difference by hand first).
set -u
prog="$BUILD/tests/progs/app_golden"
golden="$SRCDIR/tests/golden/app"
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
version=$("$LTT" --version | sed 's/^ltt //')

# argv[0] is ./app_golden: run from its directory
(cd "$(dirname "$prog")" && LTT_TRACE="$dir/trace" ./app_golden one 'two words' "it's")
rc=$?
[ $rc -eq 3 ] || { echo "app_golden exited with $rc, not 3"; exit 1; }

fail=0
for f in normal perf event; do
	"$LTT" dump --format=$f --brief "$dir/trace" >"$dir/$f.raw" 2>"$dir/$f.err" ||
		{ echo "ltt dump --format=$f failed:"; cat "$dir/$f.err"; exit 1; }
	[ -s "$dir/$f.err" ] && { echo "ltt dump --format=$f complained:"; cat "$dir/$f.err"; exit 1; }
	sed -E -e 's/[0-9]\.[0-9]{6}/S.SSSSSS/g' -e 's/"sid":"[^"]*"/"sid":"SID"/' \
	    -e 's/"time":"[^"]*"/"time":"TIME"/' -e "s/$version/VERSION/g" "$dir/$f.raw" >"$dir/$f.txt"
	if [ "${UPDATE:-}" = 1 ]; then
		cp "$dir/$f.txt" "$golden/$f.txt"
	elif ! diff -u "$golden/$f.txt" "$dir/$f.txt"; then
		echo "--format=$f differs from $golden/$f.txt"
		fail=1
	fi
done
[ $fail -eq 0 ] || exit 1

# Without --brief: time, file and line are there (normal: "HH:MM:SS.uuuuuu app_golden.c:LINE").
"$LTT" dump --format=normal "$dir/trace" >"$dir/full" || exit 1
grep -Eq '^[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6} tests/progs/app_golden\.c:[0-9]+ +cmd_name golden \(golden\)$' \
	"$dir/full" || { echo "normal without --brief lacks time and file:line"; cat "$dir/full"; exit 1; }
"$LTT" dump --format=event "$dir/trace" | grep -q '"file":"tests/progs/app_golden.c","line":[0-9]*,"name":"golden"' ||
	{ echo "event without --brief lacks file and line"; exit 1; }
echo ok
