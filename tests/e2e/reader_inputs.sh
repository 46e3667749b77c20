#!/bin/sh
# SPDX-License-Identifier: MIT
# Inputs the reader must refuse or survive without hanging: FIFOs and other non-regular files in a
# trace, bad traces in a set, directories that are not traces. Exact messages and exit statuses.
set -u
. "$SRCDIR/tests/e2e/lib/common.sh"
types_trace good

fresh() { rm -rf t; cp -r good t; }
run() {
	echo "== $1"
	shift
	timeout 10 "$LTT" dump "$@" > d.out 2> d.err
	echo "dump: exit $?, $(wc -l < d.out) events"
	cat d.err
	timeout 10 "$LTT" check "$@" > c.out 2> c.err
	echo "check: exit $?"
	cat c.out c.err
}

{
fresh; rm t/cpu/0; mkfifo t/cpu/0; run "FIFO as a tracefile" t
fresh; mkfifo t/eventdefs/zz.xml; run "FIFO in eventdefs/" t
fresh; rm t/info/system.xml; mkfifo t/info/system.xml; run "FIFO as info/system.xml" t
fresh; mkfifo t/info/bookmarks.xml; run "FIFO as info/bookmarks.xml" t
fresh; printf '<system\n' > t/info/system.xml; mkdir -p none
run "bad traces in a set: the good one is still read" good t none nosuch
timeout 10 "$LTT" stats good t > s.out 2> s.err
echo "stats: exit $?, $(grep -c '^trace ' s.out) traces"
cat s.err
run "no good trace in the set" t nosuch
fresh; rm -r t/cpu t/control; cp -r good t/snapshot-0001; cp -r good t/snapshot-0002
run "flight-recorder top directory: its newest snapshot is read" t
fresh; rm -r t/cpu t/control; run "no tracefiles at all" t
fresh; rm t/control/processes; run "control/processes missing" t
fresh; rm t/control/interrupts t/control/processes; : > t/control/facilities
run "control/interrupts and processes missing, facilities empty" t
for i in 0 1 2 3 4 5 6 7 8 9; do rm -rf s$i; cp -r good s$i; done
echo "== out of file descriptors: ulimit -n 30, 10 traces of 5 tracefiles"
for cmd in dump stats check; do
	(ulimit -n 30; timeout 10 "$LTT" $cmd s0 s1 s2 s3 s4 s5 s6 s7 s8 s9 > o.out 2> o.err
	 echo "$cmd: exit $?, $(wc -l < o.out) lines")
	sed 's/^\(ltt [a-z]*: \)s[0-9]\/[^:]*:/\1TRACE\/FILE:/' o.err
done
} > out.txt 2>&1
if ! cmp -s out.txt "$G/inputs.txt"; then
	diff "$G/inputs.txt" out.txt
	exit 1
fi
exit 0
