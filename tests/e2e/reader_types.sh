#!/bin/sh
# SPDX-License-Identifier: MIT
# The reader on synthetic traces of every type (tests/golden/reader/types.xml, types.script), in both
# byte orders and two arch_sizes: text, JSON, --all and the filters must match the golden outputs
# exactly, and ltt check must find the traces clean.
set -u
. "$SRCDIR/tests/e2e/lib/common.sh"
fail=0
for e in little big; do
	for a in LP64 ILP32; do
		t=ty-$e-$a
		"$MK" -o "$t" -e "$e" -a "$a" -c 2 -b 4096 -f "$G/types.xml" -s "$G/types.script" || exit 1
		# the same events whatever the byte order and arch_size: compare under one name
		mv "$t" ty
		"$LTT" dump ty > text.out 2>&1 || { echo "dump $t failed"; fail=1; }
		"$LTT" dump --format=json ty > json.out 2>&1 || { echo "dump json $t failed"; fail=1; }
		"$LTT" check ty > check.out 2>&1 || { echo "check $t failed:"; cat check.out; fail=1; }
		cmp -s text.out "$G/types.txt" || { echo "text differs ($t):"; diff "$G/types.txt" text.out; fail=1; }
		cmp -s json.out "$G/types.json" || { echo "json differs ($t):"; diff "$G/types.json" json.out; fail=1; }
		rm -rf ty
	done
done
"$MK" -o ty -c 2 -b 4096 -f "$G/types.xml" -s "$G/types.script" || exit 1
{
	echo "== --all"; "$LTT" dump --all ty
	echo "== --event 'types.t*' --cpu 0"; "$LTT" dump --event 'types.t*' --cpu 0 ty
	echo "== --event nested --event empty"; "$LTT" dump --event nested --event empty ty
	echo "== --facility 'ty*' --limit 2"; "$LTT" dump --facility 'ty*' --limit 2 ty
	echo "== --from 1700000000.0000012 --to +2.5"; "$LTT" dump --from 1700000000.0000012 --to +2.5 ty
	echo "== --from +2"; "$LTT" dump --from +2 ty
	echo "== stats"; "$LTT" stats ty
	echo "== stats json"; "$LTT" stats --format=json ty
	echo "== two traces"; cp -r ty ty2; "$LTT" dump --format=json --event scalars ty ty2
	echo "== check"; "$LTT" check ty
	echo "== bookmarks"
	printf '<bookmarks>\n<location name="boot" cpu="1" start_time="1700000000.5" end_time="1700000001">first\n</location>\n<location cycle="2300">x</location>\n<location name="bad" time="soon"/>\n</bookmarks>\n' > ty/info/bookmarks.xml
	"$LTT" stats ty | grep bookmark
	echo "exit $?"
} > more.out 2>&1
cmp -s more.out "$G/types-more.txt" || { echo "options output differs:"; diff "$G/types-more.txt" more.out; fail=1; }
exit $fail
