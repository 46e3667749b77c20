#!/bin/sh
# SPDX-License-Identifier: MIT
# Frames that no symbol names (ltt stats --profile, the profile exports, doc/tracelog.md; read here
# through ltt export --format=folded):
# - an address in a PLT stub is NAME@plt: for every stub objdump names in .plt, .plt.sec and .plt.got of
#   a real binary (binutils' own NAME@plt labels, the ground truth), a stack sample whose top frame is
#   inside that stub, in a mapping of the binary, is counted under that very name;
# - an address in a mapping whose binary is absent is MODULE+0xOFFSET with OFFSET its offset in the file
#   (address - mapping start + mapping offset, the same from run to run, as perf prints it), not the
#   run's address; an address in no mapping is 0xADDRESS.
# The trace is made by mktrace from core.xml's core.mapping and core.stack_sample.
set -u
. "$SRCDIR/tests/e2e/lib/common.sh"
bin="$BUILD/tests/progs/profile_calls"
base=$((0x7f0000000000))
# the executable LOAD segment: offset, vaddr, memsz (a PIE: placed at base)
set -- $(readelf -lW "$bin" | awk '$1 == "LOAD" && / R E / { print $2, $3, $6 }')
[ $# = 3 ] || { echo "no executable segment in $bin"; exit 1; }
off=$(($1)) va=$(($2)) sz=$(($3))
[ "$off" = "$va" ] || { echo "$bin: segment offset $1 is not its address $2"; exit 1; }
objdump -d -j .plt -j .plt.sec -j .plt.got "$bin" 2>/dev/null |
	sed -n 's/^\([0-9a-f]*\) <\(.*@plt\)>:$/\1 \2/p' > stubs
n=$(wc -l < stubs)
[ "$n" -ge 10 ] || { echo "only $n PLT stubs named by objdump in $bin"; exit 1; }
{
	printf 'ev 0 1000 core.sampling 0 1000 34\n'
	printf 'ev 0 1000 core.mapping %d %d %d 0 "%s"\n' $((base + off)) $((base + off + sz)) "$off" "$bin"
	printf 'ev 0 1001 core.mapping %d %d %d 0 "/nonexistent/gzip"\n' $((0x500000)) $((0x510000)) $((0x4000))
	t=2000
	while read -r a name; do
		printf 'ev 0 %d core.stack_sample 7 1 0 0 1 %d\n' "$t" $((base + 0x$a + 4))
		t=$((t + 1000))
	done < stubs
	printf 'ev 0 %d core.stack_sample 7 1 0 0 1 %d\n' "$t" $((0x504308))
	printf 'ev 0 %d core.stack_sample 7 1 0 0 1 %d\n' $((t + 1)) $((0x900000))
} > script
"$MK" -o t -f "$SRCDIR/eventdefs/core.xml" -s script 2>err || { cat err; exit 1; }
"$LTT" export --format=folded -o t.folded t 2>err || { cat err; exit 1; }
# the ticks per function (every stack is one frame deep): "THREAD;FUNCTION TICKS"
sed 's/^[^;]*;//' t.folded | sort > got
{ awk '{ print $2 }' stubs | sort | uniq -c | awk '{ print $2, $1 }'; echo "gzip+0x8308 1"; echo "0x900000 1"; } | sort > want
check "functions of the samples" "$(cat got)" "$(cat want)"
exit $fail
