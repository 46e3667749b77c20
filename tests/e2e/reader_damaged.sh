#!/bin/sh
# SPDX-License-Identifier: MIT
# Damaged traces (tests/damaged/README.md): every case must give its exact messages (file, offset,
# what), a non-zero exit, and ltt dump must still print every good event. No crash, no hang.
set -u
. "$SRCDIR/tests/e2e/lib/common.sh"
types_trace good

poke() { printf "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null; }
fresh() { rm -rf t; cp -r good t; }
run() {
	echo "== $1"
	timeout 20 "$LTT" dump t > d.out 2> d.err
	echo "dump: exit $?, $(wc -l < d.out) events"
	cat d.err
	timeout 20 "$LTT" check t > c.out 2> c.err
	echo "check: exit $?"
	cat c.err
}
script_trace() { rm -rf t; printf "$1" | "$MK" -o t -b 4096 -f "$G/types.xml" -s - || exit 1; }

{
fresh; run "good trace"
fresh; poke t/cpu/0 4092 '\377\377\000\000'; run "trailer outside the block"
fresh; poke t/cpu/0 0 '\005\000'; run "first event not block_start"
fresh; poke t/cpu/0 4092 '\164\000\000\000'; run "trailer not at a block_end"
fresh; poke t/cpu/0 32 '\167\167'; run "unknown event id"
fresh; poke t/cpu/1 89 '\377\377'; run "sequence length beyond the block"
fresh; poke t/cpu/1 96 '\007'; run "union code out of range"
fresh; poke t/cpu/0 38 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'
	run "string without NUL before block_end"
fresh; poke t/cpu/1 50 '\022\000'; poke t/cpu/1 72 '\000\000\000\000'; poke t/cpu/1 4092 '\062\000\000\000'
	run "event crossing block_end"
fresh; truncate -s 4196 t/cpu/1; run "truncated tracefile"
fresh; rm t/eventdefs/types.xml; run "missing eventdefs file"
fresh; sed -i 's/"u8"/"u9"/' t/eventdefs/types.xml; run "checksum mismatch"
fresh; printf '<system\n' > t/info/system.xml; run "malformed system.xml"
fresh; sed -i 's/ltt_block_size="4096"/ltt_block_size="0"/' t/info/system.xml; run "block size 0"
fresh; sed -i 's/ltt_block_size="4096"/ltt_block_size="3000"/' t/info/system.xml; run "block size not dividing the files"
fresh; poke t/cpu/0 200 '\001'; run "nonzero byte in the zero fill"
fresh; : > t/cpu/abc; run "stray file in cpu/"
script_trace 'ev 0 2000 types.empty\nskip 0 3\nev 0 2100 types.empty\n'; run "block_id gap without a summary block"
script_trace 'ev 0 2000 types.empty\nev 0 1900 types.empty\n'; run "clock skew of 100 cycles (within the tolerance)"
script_trace 'ev 0 70000 types.empty\nev 0 4464 types.empty\n'; run "going back 65536 cycles (the tolerance)"
script_trace 'ev 0 70000 types.empty\nev 0 4463 types.empty\n'; run "going back 65537 cycles"
script_trace 'ev 0 200000 types.empty\nev 0 100000 types.empty\n'; run "time going back"
printf '<facility name="z"><event name="e"><struct><field name="s"><sequence lengthsize="4"><struct>
</struct></sequence></field></struct></event></facility>\n' > z.xml
rm -rf t; printf 'ev 0 2000 z.e 0\n' | "$MK" -o t -b 4096 -f z.xml -s - || exit 1
run "sequence of zero-byte elements"
rm -rf t; mkdir t; run "not a trace directory"
rm -rf t; run "no such path"
} > out.txt 2>&1
if ! cmp -s out.txt "$G/damaged.txt"; then
	diff "$G/damaged.txt" out.txt
	exit 1
fi
exit 0
