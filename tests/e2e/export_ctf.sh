#!/bin/sh
# SPDX-License-Identifier: MIT
# ltt export --format=ctf, read by babeltrace2: for the type-rich facility (tests/eventdefs/gentypes.xml
# and the TSDL-keyword names of tests/export/ctfnames.xml, events of tests/export/gentypes.script) in
# both byte orders and two arch sizes, babeltrace2's events, times and values equal ltt dump's, line for
# line (tests/export/bt2_to_dump.sed undoes only babeltrace2's display); lost events and overwritten
# blocks (tests/golden/reader/types.script) are reported by babeltrace2 as discarded events and
# packets; a recorded trace (tests/progs/app_golden.c) and a trace set (tests/progs/app_child.c, one
# CTF trace per process) read back with as many events as ltt dump prints.
set -u
. "$SRCDIR/tests/e2e/lib/common.sh"
P="$SRCDIR/tests/export"
fail=0
check() { [ "$2" = "$3" ] || { echo "$1: got '$2', want '$3'"; fail=1; }; }

for e in little big; do
	for a in LP64 ILP32; do
		rm -rf gt gt.ctf
		"$MK" -o gt -e $e -a $a -c 2 -b 4096 -f "$SRCDIR/tests/eventdefs/gentypes.xml" -f "$P/ctfnames.xml" \
			-s "$P/gentypes.script" || exit 1
		"$LTT" dump gt | sed 's/^\([^:]*\): \([0-9.]*\) ([^)]*)/\1: \2/' > dump.txt || { echo "dump failed"; exit 1; }
		"$LTT" export --format=ctf gt || { echo "export ($e $a) failed"; fail=1; continue; }
		babeltrace2 --clock-seconds gt.ctf > bt.raw 2> bt.err || { echo "babeltrace2 failed ($e $a):"; cat bt.err; fail=1; }
		sed -f "$P/bt2_to_dump.sed" bt.raw > bt.txt
		[ "$(wc -l < dump.txt)" -ge 23 ] || { echo "only $(wc -l < dump.txt) events in the gentypes trace"; fail=1; }
		cmp -s dump.txt bt.txt || { echo "babeltrace2 differs from ltt dump ($e $a):"; diff dump.txt bt.txt; fail=1; }
		[ -s bt.err ] && { echo "babeltrace2 complained ($e $a):"; cat bt.err; fail=1; }
	done
done

# lost events and overwritten blocks
"$MK" -o ty -c 2 -b 4096 -f "$SRCDIR/tests/golden/reader/types.xml" -s "$SRCDIR/tests/golden/reader/types.script" || exit 1
"$LTT" export --format=ctf ty || { echo "export of the types trace failed"; fail=1; }
babeltrace2 ty.ctf > ty.out 2> ty.err || { echo "babeltrace2 failed on the types trace:"; cat ty.err; fail=1; }
check "events of the types trace" "$(wc -l < ty.out | tr -d ' ')" "$("$LTT" dump ty | wc -l | tr -d ' ')"
grep -q 'discarded events' ty.err || { echo "babeltrace2 reports no discarded events:"; cat ty.err; fail=1; }
grep -q 'discarded 4 packets' ty.err || { echo "babeltrace2 reports no 4 discarded packets:"; cat ty.err; fail=1; }

# a recorded trace and a trace set
(cd "$BUILD/tests/progs" && LTT_TRACE="$work/trace" ./app_golden >/dev/null)  # exits 3 on purpose
"$LTT" export --format=ctf trace || { echo "export of the app trace failed"; fail=1; }
babeltrace2 trace.ctf > app.out 2> app.err || { echo "babeltrace2 failed on the app trace:"; cat app.err; fail=1; }
check "events of the app trace" "$(wc -l < app.out | tr -d ' ')" "$("$LTT" dump trace | wc -l | tr -d ' ')"
grep -q 'app.region_enter: .*category = "index"' app.out || { echo "no region_enter of category index"; fail=1; }
# times exact on a recorded trace (a TSC clock: cycles are not ns): babeltrace2's time of every event is
# ltt dump's, to the nanosecond (compared as sorted lists: the two merges may order equal times apart)
babeltrace2 --clock-seconds trace.ctf 2>/dev/null | sed -n 's/^\[\([0-9]*\.[0-9]*\)\].*/\1/p' | sort > bt.times
"$LTT" dump trace | sed -n 's/^[^:]*: \([0-9]*\.[0-9]*\) .*/\1/p' | sort > ltt.times
check "event times (babeltrace2 = ltt dump)" "$(cmp bt.times ltt.times && wc -l < bt.times | tr -d ' ')" "$(wc -l < ltt.times | tr -d ' ')"
[ "$(wc -l < ltt.times)" -ge 10 ] || { echo "only $(wc -l < ltt.times) event times"; fail=1; }
mkdir set && (cd "$BUILD/tests/progs" && LTT_TRACE="$work/set" ./app_child >/dev/null 2>&1)
"$LTT" export --format=ctf -o set.ctf set/* || { echo "export of the set failed"; fail=1; }
check "CTF traces of the set" "$(ls set.ctf/*/metadata | wc -l | tr -d ' ')" 3
babeltrace2 set.ctf > set.out 2> set.err || { echo "babeltrace2 failed on the set:"; cat set.err; fail=1; }
check "events of the set" "$(wc -l < set.out | tr -d ' ')" "$("$LTT" dump set/* | wc -l | tr -d ' ')"

# OUT exists: refused; --force replaces a directory or a file by the new directory
"$LTT" export --format=ctf ty 2>/dev/null; check "exit with OUT existing" "$?" 1
touch ty.ctf/stale
"$LTT" export --format=ctf --force ty || fail=1
[ -e ty.ctf/stale ] && { echo "--force kept the old directory's files"; fail=1; }
rm -rf ty.ctf && echo file > ty.ctf
"$LTT" export --format=ctf --force ty || fail=1
[ -f ty.ctf/metadata ] || { echo "--force did not replace a file by the CTF directory"; fail=1; }
ls -a | grep -q -e 'tmp-' -e 'old-' && { echo "temporary files left:"; ls -a; fail=1; }
exit $fail
