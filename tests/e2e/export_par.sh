#!/bin/sh
# SPDX-License-Identifier: MIT
# ltt export --threads (tools/export/ctf_par.c: CTF stream files encoded by block ranges in threads):
# the output directory, the messages and the exit status are byte for byte those of --threads=1 for
#   - one CPU tracefile of many blocks (the bench's shape: ranges inside one tracefile),
#   - a recorded trace (threads migrating between the CPUs, signal handlers tracing), two traces at
#     once, and --cpu keeping one CPU,
#   - events_lost records (events_discarded carried over ranges), heartbeats, a summary block, clock
#     skew at block seams (the reader's clamped times, which the CTF headers carry, leave the ranges
#     exact: nothing encoded again) and a time the
#     clamp carries over whole blocks (ranges do not follow: one thread writes everything),
#   - a damaged block and a block_id gap (problems: one thread, which reports them once, in order).
# LTT_EXPORT_PAR_LOG (ctf_par.c) says which path wrote the bytes: each case checks it took the one
# it means to. babeltrace2 reads a parallel export with every event.
set -u
. "$SRCDIR/tests/e2e/lib/common.sh"
die() { echo "FAIL: $*"; exit 1; }
poke() { printf "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null; }

# same WHAT WANT ARGS...: ctf export with --threads=1 and 2, 3: same files, stderr, exit status; the
# parallel attempts' log lines are WANT (exact, again (exact with ranges encoded again), inexact)
same() {
	what=$1 want=$2
	shift 2
	rm -rf one.ctf
	"$LTT" export --format=ctf --threads=1 -o one.ctf "$@" 2> one.err; s1=$?
	[ -f one.ctf/metadata ] || [ -d one.ctf ] || die "$what: no output (exit $s1: $(head -n 2 one.err))"
	for n in 2 3; do
		rm -rf par.ctf log
		LTT_EXPORT_PAR_LOG=$work/log "$LTT" export --format=ctf --threads=$n -o par.ctf "$@" 2> par.err; s2=$?
		[ "$s1" = "$s2" ] || die "$what: --threads=$n: exit $s2, single-thread $s1"
		diff -r one.ctf par.ctf > d || die "$what: --threads=$n: output differs: $(head -n 4 d)"
		sed -i 's|^ltt export: wrote par.ctf/ (ctf)$|ltt export: wrote one.ctf/ (ctf)|' par.err
		cmp -s one.err par.err || die "$what: --threads=$n: stderr differs: $(diff one.err par.err | head -n 4)"
		[ -s log ] || die "$what: --threads=$n: the parallel path was not tried"
		case "$want" in
		exact) grep -q '^ctf: [0-9]* ranges, 0 encoded again, exact$' log ;;
		again) grep -q '^ctf: [0-9]* ranges, [1-9][0-9]* encoded again, exact$' log ;;
		inexact) grep -q '^ctf: [0-9]* ranges, [0-9]* encoded again, inexact$' log ;;
		esac || die "$what: --threads=$n: want $want, log: $(cat log)"
		grep -q ' [1-9][0-9]* ranges' log || die "$what: no range: $(cat log)"
	done
}

# one CPU, 4 KiB blocks: 300000 events in about 1500 blocks, cut into 8 or 12 ranges
"$MK" -o big -c 1 -b 4096 -n 300000 || die "mktrace"
same "one CPU" exact big
n=$(LTT_EXPORT_PAR_LOG=$work/log2 "$LTT" export --format=ctf --threads=2 -o - big 2>&1)
check "-o - for a directory" "$n" "ltt export: -o -: --format=ctf writes a directory"
# the automatic choice (a trace under 8 MiB): one thread, the same bytes
rm -rf auto.ctf log
LTT_EXPORT_PAR_LOG=$work/log "$LTT" export --format=ctf -o auto.ctf big || die "automatic: exit $?"
[ ! -e log ] || die "a trace under 8 MiB went parallel: $(cat log)"
diff -r one.ctf auto.ctf > /dev/null || die "the automatic choice differs from --threads=1"
# --from/--to: one thread
rm -rf log from.ctf
LTT_EXPORT_PAR_LOG=$work/log "$LTT" export --format=ctf --threads=2 --from +0 -o from.ctf big || die "--from: exit $?"
[ ! -e log ] || die "--from went parallel: $(cat log)"
rm -rf auto.ctf from.ctf

# a recorded trace: 3 threads migrating between the CPUs, signal handlers tracing
LTT_TRACE="$work/rec" LTT_BLOCK_SIZE=4096 LTT_BLOCKS=256 "$BUILD/tests/progs/rec_stress" 3 20000 migrate signal \
	> emitted || die "rec_stress: $(cat emitted)"
same "recorded" any rec
rm -rf bt.ctf
"$LTT" export --format=ctf --threads=3 -o bt.ctf rec || die "recorded: exit $?"
nbt=$(babeltrace2 bt.ctf 2> bt.err | wc -l)
ndump=$("$LTT" dump rec | wc -l)
check "babeltrace2 events of the parallel export" "$nbt" "$ndump"
# events the recorder lost under load are reported as discarded: nothing else
grep -v '^WARNING: Tracer discarded [0-9]* events between' bt.err > bt.other
[ -s bt.other ] && die "babeltrace2 complained: $(head -n 3 bt.other)"
rm -rf bt.ctf
same "two traces" any rec big
same "--cpu 0" any --cpu 0 rec

# seams SKEW CARRY NAME: heartbeats, lost records, a summary block; with SKEW=1 every block starts
# 3000 cycles before its predecessor's end (the reader's clamp lifts the times of each range's first
# packet; the CTF headers carry those times, so the ranges are exact); with CARRY=1 a late event whose time the clamp carries over the next blocks (ranges starting
# there do not follow)
seams() {
	awk -v skew="$1" -v carry="$2" 'BEGIN {
		c = 100000
		for (b = 0; b < 120; b++) {
			for (i = 0; i < 150; i++) { c += 50; printf "ev 0 %d types.empty\n", c }
			if (b % 7 == 3) printf "heartbeat 0 %d\n", c + 10
			if (b % 11 == 5) printf "lost 0 %d %d 0\n", c + 20, b
			if (b == 2) printf "gap 0 4 123\n"	# a summary block, away from the seams of ranges
			printf "flush 0\n"
			if (skew) c -= 3000
			if (b == 40 && carry) printf "ev 0 %d types.empty\nflush 0\n", c + 60000
		}
	}' > "$3.script"
	"$MK" -o "$3" -b 4096 -f "$G/types.xml" -s "$3.script" || die "mktrace $3"
	"$LTT" export --format=ctf --threads=1 -o "$3.ctf" "$3" 2> "$3.err" || die "$3: exit $?: $(head -n 2 "$3.err")"
	[ "$(cat "$3.err")" = "ltt export: wrote $3.ctf/ (ctf)" ] || die "$3: problems: $(head -n 2 "$3.err")"
	rm -rf "$3.ctf"
}
seams 0 0 lost
same "lost, summary" exact lost
same "--facility" exact --facility types lost
seams 1 0 skew
same "lost, summary, skew at seams" exact skew
seams 1 1 carry
same "a time carried over blocks" inexact carry

# damage: a block in the middle of cpu/0 with a trailer outside it
cp -r big dmg
poke dmg/cpu/0 $((700 * 4096 + 4092)) '\377\377\000\000'
"$LTT" export --format=ctf --threads=1 -o dmg.ctf dmg 2> dmg.err && die "damaged: exit 0"
grep -q "cpu/0: offset $((700 * 4096)): block 700: trailer" dmg.err || die "damaged: $(head -n 2 dmg.err)"
rm -rf dmg.ctf
same "damaged block" inexact dmg
printf 'ev 0 2000 types.empty\nflush 0\nev 0 2100 types.empty\nflush 0\nev 0 2200 types.empty\nflush 0\nev 0 2300 types.empty\nskip 0 3\nev 0 2400 types.empty\nflush 0\nev 0 2500 types.empty\nflush 0\nev 0 2600 types.empty\nflush 0\n' |
	"$MK" -o gap -b 4096 -f "$G/types.xml" -s - || die "mktrace gap"
same "block_id gap" any gap

"$LTT" export --format=ctf --threads=17 big > /dev/null 2> err && die "--threads=17 accepted"
grep -q -- "--threads=17" err || die "--threads=17: $(cat err)"
rm -rf one.ctf par.ctf
[ "$fail" = 0 ] || exit 1
echo "ok: ltt export --format=ctf --threads=2, 3 write the single-thread bytes and messages (one tracefile in ranges, recorded, two traces, --cpu, lost, skew, carry, damaged, gap)"
