#!/bin/sh
# SPDX-License-Identifier: MIT
# Every field kind ltt dump writes, at its limits, in the text, JSON and CSV formats: integers of every
# size and sign (minimum, maximum, -1, digit-count boundaries), enums (labelled, unlabelled, a value
# with two labels, labels to escape, values of 256 and more), strings (empty, escapes, control
# characters, UTF-8 valid and not), floats (shortest form, 17 digits, NaN, infinities, -0, extremes),
# a struct of them all mixed, walked bodies (sequence, array, nested struct) and a struct without
# fields; little and big endian, LP64 and ILP32. The output must match tests/golden/reader/kinds.*
# byte for byte: the formats' compiled per-type plans (toolkit/dump_plan.c) write exactly what the
# ltt_value walk writes.
set -u
. "$SRCDIR/tests/e2e/lib/common.sh"
# the events; strings hold raw bytes (tab, \001, \037, \177, UTF-8, bytes that are not UTF-8)
{
	echo "ev 0 1000 kinds.ints -128 255 -32768 65535 -2147483648 4294967295 -9223372036854775808 18446744073709551615 -32768 4294967295 -2147483648"
	echo "ev 0 1001 kinds.ints 127 0 32767 0 2147483647 0 9223372036854775807 0 32767 0 2147483647"
	echo "ev 0 1002 kinds.ints -1 1 -1 1 -1 1 -1 1 -1 1 -1"
	echo "ev 0 1003 kinds.ints 0 10 -10 100 -100000 99999999 -100000000 10000000000000000 9 100000000 -99999999"
	echo "ev 1 1004 kinds.enums A 0 ZERO"
	echo "ev 1 1005 kinds.enums ALSO_B THREE 1"
	echo "ev 1 1006 kinds.enums 2 THOUSAND 18446744073709551615"
	echo "ev 1 1007 kinds.enums 3 BIG 256"
	echo "ev 1 1008 kinds.enums 255 4000000001 0"
	printf 'ev 0 1009 kinds.strs "" 0 "plain text"\n'
	printf 'ev 0 1010 kinds.strs "q\\"uote b\\\\ackslash\\nnewline\ttab" 7 "ctl\001\037 del\177 end"\n'
	printf 'ev 0 1011 kinds.strs "utf-8 \303\251\342\202\254\360\237\230\200" 4294967295 "bad \377 \300\200 \355\240\200 \303"\n'
	echo "ev 1 1012 kinds.floats 1.5 0.1"
	echo "ev 1 1013 kinds.floats 0.333333333333 0.33333333333333331"
	echo "ev 1 1014 kinds.floats nan inf"
	echo "ev 1 1015 kinds.floats -inf -nan"
	echo "ev 1 1016 kinds.floats -0 1e300"
	echo "ev 1 1017 kinds.floats 3.4e38 5e-324"
	echo "ev 1 1018 kinds.floats 16777216 123456789012345678"
	printf 'ev 0 1019 kinds.mixed 4000000000 "a\\"b" ON 2.5 -9223372036854775808\n'
	printf 'ev 0 1020 kinds.mixed 0 "" 8 nan 0\n'
	printf 'ev 1 1021 kinds.walked 3 1.25 nan -inf Y 5 "in\\"ner" -7\n'
	printf 'ev 1 1022 kinds.walked 0 X X "" 0\n'
	echo "ev 0 1023 kinds.nofields"
} > kinds.script
for e in little big; do
	for a in LP64 ILP32; do
		"$MK" -o k -e "$e" -a "$a" -c 2 -b 4096 -f "$G/kinds.xml" -s kinds.script || exit 1
		for f in text json csv; do
			"$LTT" dump --format=$f k > out.$f 2>&1 || { echo "dump --format=$f ($e, $a) failed"; fail=1; }
			ext=$f; [ $f = text ] && ext=txt
			cmp -s out.$f "$G/kinds.$ext" || { echo "$f differs ($e, $a):"; diff -a "$G/kinds.$ext" out.$f; fail=1; }
		done
		rm -rf k
	done
done
# several traces (the trace named on every line), the time modes, and the fields as a JSON string
# (ltt export --format=rows: every quote and backslash escaped once more)
"$MK" -o k -c 2 -b 4096 -f "$G/kinds.xml" -s kinds.script || exit 1
cp -r k k2
{
	echo "== two traces, text"; "$LTT" dump --event 'kinds.[sm]*' k k2
	echo "== two traces, json"; "$LTT" dump --format=json --event mixed k k2
	for t in rel delta; do
		echo "== --time=$t text"; "$LTT" dump --time=$t --event ints k
		echo "== --time=$t json"; "$LTT" dump --time=$t --format=json --event ints k
	done
	echo "== export rows"; "$LTT" export --format=rows -o - --event 'kinds.[esmw]*' k
	echo "exit $?"
} > more.out 2>&1
cmp -s more.out "$G/kinds-more.txt" || { echo "more output differs:"; diff -a "$G/kinds-more.txt" more.out; fail=1; }
exit $fail
