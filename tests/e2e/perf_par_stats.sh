#!/bin/sh
# SPDX-License-Identifier: MIT
# ltt stats --threads (block ranges decoded in threads, toolkit/par_count.c): the output (text and
# JSON), the messages and the exit status are byte for byte those of --threads=1 on
#   - one CPU tracefile of many blocks (the bench's shape: ranges inside one tracefile),
#   - a multi-CPU recorded trace with migrations and signal handlers tracing, and two traces at once,
#   - heartbeats, events_lost records, a summary block (blocks_lost) and its block_id jump, clock skew
#     at block seams (counted, no problem) and times carried over a whole block by the clamp (a range's
#     start state differs from its predecessor's end: the counts come from one thread),
#   - a block damaged in the middle and a block_id gap (problems: the trace is read again by one
#     thread, which reports them once, in its order).
set -u
. "$SRCDIR/tests/e2e/lib/common.sh"
tmp=$work
fail() { echo "FAIL: $*"; exit 1; }
poke() { printf "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null; }

# same WHAT ARGS...: stats of --threads=1 and 2, 3, 5: same stdout, stderr, exit status
same() {
	what=$1
	shift
	for f in text json; do
		"$LTT" stats --threads=1 --format=$f "$@" > out1 2> out1.err; s1=$?
		[ -s out1 ] || fail "$what: no output"
		for n in 2 3 5; do
			"$LTT" stats --threads=$n --format=$f "$@" > par 2> par.err; s2=$?
			[ "$s1" = "$s2" ] || fail "$what: --threads=$n --format=$f: exit $s2, single-thread $s1"
			cmp -s out1 par || fail "$what: --threads=$n --format=$f: output differs: $(diff out1 par | head -n 4)"
			cmp -s out1.err par.err || fail "$what: --threads=$n --format=$f: stderr differs: $(diff out1.err par.err | head -n 4)"
		done
	done
}

# one CPU, 4 KiB blocks: 300000 events in about 1500 blocks
"$MK" -o one -c 1 -b 4096 -n 300000 || fail "mktrace"
nb=$("$LTT" stats --format=json one | sed -n 's/.*"name":"cpu\/0","bytes":[0-9]*,"blocks":\([0-9]*\).*/\1/p')
[ "${nb:-0}" -gt 1000 ] || fail "cpu/0 has ${nb:-no} blocks"
"$LTT" stats --threads=2 one > one.txt || fail "stats --threads=2: exit $?"
grep -q '^  synth.tick  *262500  *0  *0  *0  *262500$' one.txt || fail "synth.tick: $(grep synth.tick one.txt)"
grep -q '^  synth.msg  *37500  *0  *0  *0  *37500$' one.txt || fail "synth.msg: $(grep synth.msg one.txt)"
same "one CPU" one
# the automatic choice (a trace under 8 MiB: one thread) and --threads=0 give the same
"$LTT" stats one > auto || fail "stats: exit $?"
cmp -s auto one.txt || fail "ltt stats (automatic) differs from --threads=2"

# a recorded trace: 3 threads migrating between the CPUs, signal handlers tracing
LTT_TRACE="$tmp/rec" LTT_BLOCK_SIZE=16384 LTT_BLOCKS=64 "$BUILD/tests/progs/rec_stress" 3 30000 migrate signal \
	> emitted || fail "rec_stress: $(cat emitted)"
same "recorded" rec
same "two traces" rec one

# heartbeats, lost records, a summary block, skew at block seams; with carry=1 a late event whose time
# the clamp carries over the next blocks (ranges starting there do not follow: one thread counts)
seams() {
	awk -v carry="$1" 'BEGIN {
		c = 100000
		for (b = 0; b < 60; b++) {
			for (i = 0; i < 150; i++) { c += 50; printf "ev 0 %d types.empty\n", c }
			if (b % 7 == 3) printf "heartbeat 0 %d\n", c + 10
			if (b % 11 == 5) printf "lost 0 %d %d 0\n", c + 20, b
			if (b == 20) printf "gap 0 4 123\n"
			printf "flush 0\n"
			if (b % 9 == 4) c -= 3000	# the next block starts 3000 cycles back: skew
			if (b == 30 && carry) printf "ev 0 %d types.empty\nflush 0\n", c + 60000
		}
	}' > "$2.script"
	"$MK" -o "$2" -b 4096 -f "$G/types.xml" -s "$2.script" || fail "mktrace $2"
	"$LTT" stats --threads=1 "$2" > "$2.one" 2> "$2.err" || fail "$2: exit $?: $(head -n 2 "$2.err")"
	[ ! -s "$2.err" ] || fail "$2: problems: $(head -n 2 "$2.err")"
	grep -q "overwritten 4 blocks holding 123 events" "$2.one" || fail "$2: $(grep overwritten "$2.one")"
	grep -q "blocks      6[23] of 4096 bytes, 9 heartbeats" "$2.one" || fail "$2: $(grep heartbeats "$2.one")"
	same "heartbeats, lost, summary, skew (carry=$1)" "$2"
}
seams 0 seams
seams 1 carry

# damage: a block in the middle of cpu/0 with a trailer outside it, then a block_id gap
cp -r one dmg
poke dmg/cpu/0 $((700 * 4096 + 4092)) '\377\377\000\000'
"$LTT" stats --threads=1 dmg > /dev/null 2> dmg.err && fail "damaged: exit 0"
grep -q "cpu/0: offset $((700 * 4096)): block 700: trailer" dmg.err || fail "damaged: $(head -n 2 dmg.err)"
same "damaged block" dmg
printf 'ev 0 2000 types.empty\nflush 0\nev 0 2100 types.empty\nflush 0\nev 0 2200 types.empty\nflush 0\nev 0 2300 types.empty\nskip 0 3\nev 0 2400 types.empty\nflush 0\nev 0 2500 types.empty\nflush 0\nev 0 2600 types.empty\nflush 0\n' |
	"$MK" -o gap -b 4096 -f "$G/types.xml" -s - || fail "mktrace gap"
same "block_id gap" gap

"$LTT" stats --threads=17 one > /dev/null 2> err && fail "--threads=17 accepted"
grep -q -- "--threads=17" err || fail "--threads=17: $(cat err)"
echo "ok: ltt stats --threads=2, 3, 5 give the single-thread output and messages ($nb blocks in one tracefile; recorded, two traces, seams, damaged, gap)"
