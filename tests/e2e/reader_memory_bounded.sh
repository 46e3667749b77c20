#!/bin/sh
# SPDX-License-Identifier: MIT
# The reader's memory is bounded by what is on disk, not by what headers claim (issue 18, point 2):
# every reader command (dump, stats, check) on hostile inputs stays under 64 MiB + one real block per
# open tracefile of peak RSS, reports the damage, and still reads every good event. The inputs: a
# 155 MB info/bookmarks.xml, a bookmarks file of tiny elements just under the cap, 9 sparse tracefiles
# each declaring one 512 MiB block (128 KiB of it written), a 2 GiB sparse block, a block size larger
# than the files. RSS is not asserted under sanitizers (their shadow memory), the rest is.
set -u
. "$SRCDIR/tests/e2e/lib/common.sh"
RSS="$BUILD/tests/progs/reliab_maxrss"
fail=0
bad() { echo "FAIL: $*"; fail=1; }

BS=131072
"$MK" -o good -c 8 -b $BS -n 20000 || exit 1
"$LTT" dump good > good.dump || exit 1
[ "$(wc -l < good.dump)" = 20000 ] || bad "the good trace has $(wc -l < good.dump) events, not 20000"
# 9 tracefiles (8 CPUs, control/facilities) of one block each: the real data of every tracefile
NTF=9
LIMIT_KIB=$(( (64 << 10) + NTF * BS / 1024 ))

# measure NAME CMD ARGS...: runs the reader command, keeps its exit status, stdout and stderr in
# NAME.rc, NAME.out, NAME.err and checks its peak RSS against LIMIT_KIB.
measure() {
	name=$1
	shift
	timeout 120 "$RSS" "$@" > "$name.out" 2> "$name.err" 3> "$name.rss"
	echo $? > "$name.rc"
	kib=$(sed -n 's/^maxrss_kib=//p' "$name.rss")
	echo "$name: exit $(cat "$name.rc"), peak RSS ${kib:-?} KiB ($*)"
	if [ -z "$kib" ]; then
		bad "$name: no RSS figure"
	elif [ -z "${SANITIZE:-}" ] && [ "$kib" -gt "$LIMIT_KIB" ]; then
		bad "$name: peak RSS $kib KiB is over $LIMIT_KIB KiB"
	fi
}

# every_command NAME TRACE: dump, stats and check of TRACE
every_command() {
	measure "$1-dump" "$LTT" dump "$2"
	measure "$1-stats" "$LTT" stats "$2"
	measure "$1-check" "$LTT" check "$2"
}

# ---- a 155 MB info/bookmarks.xml: refused unread, events still read --------------------------------
cp -r good bm
{ echo '<bookmarks>'; yes '<location time="1700000000.5" name="b">some text of a bookmark</location>' |
	head -n 2200000; echo '</bookmarks>'; } > bm/info/bookmarks.xml
echo "bookmarks: $(wc -c < bm/info/bookmarks.xml) bytes"
measure bm-dump1 "$LTT" dump --limit 1 bm
every_command bm bm
cmp -s bm-dump.out good.dump || bad "bm: dump differs from the good trace's"
grep -q "info/bookmarks.xml: larger than 4194304 bytes; bookmarks ignored" bm-check.err ||
	bad "bm: check does not say the bookmarks are too large: $(head -n 2 bm-check.err)"
[ "$(cat bm-check.rc)" = 1 ] || bad "bm: check exit $(cat bm-check.rc), expected 1"
rm -f bm/info/bookmarks.xml

# ---- bookmarks of tiny elements just under the cap: read, memory bounded --------------------------
cp -r good bm2
{ echo '<bookmarks>'; yes '<location cycle="1"/>' | head -n 190000; echo '</bookmarks>'; } > bm2/info/bookmarks.xml
echo "bookmarks (tiny): $(wc -c < bm2/info/bookmarks.xml) bytes"
every_command bm2 bm2
[ "$(cat bm2-check.rc)" = 0 ] || bad "bm2: check exit $(cat bm2-check.rc): $(head -n 2 bm2-check.err)"
cmp -s bm2-dump.out good.dump || bad "bm2: dump differs from the good trace's"

# ---- tracefiles declaring huge blocks, sparse on disk ----------------------------------------------
# grow FILE SIZE: keeps the first block's bytes, moves its trailer to the end of a SIZE-byte block
# (the file is SIZE bytes, a hole in the middle). Trailers of minor version 10 are the block_end
# offset, which does not change.
grow() {
	dd if="$1" of="$1.new" bs=$((BS - 4)) count=1 2> /dev/null &&
	truncate -s "$2" "$1.new" &&
	dd if="$1" of="$1.new" bs=1 skip=$((BS - 4)) seek=$(($2 - 4)) count=4 conv=notrunc 2> /dev/null &&
	mv "$1.new" "$1"
}
# huge DIR SIZE: the good trace with blocks of SIZE bytes
huge() {
	cp -r good "$1"
	for f in "$1"/cpu/* "$1"/control/facilities; do grow "$f" "$2" || exit 1; done
	sed -i "s/ltt_block_size=\"$BS\"/ltt_block_size=\"$2\"/" "$1/info/system.xml"
}
huge big512 $((512 << 20))
echo "big512: $(du -sk big512 | cut -f1) KiB on disk, $(du -sk --apparent-size big512 | cut -f1) KiB apparent"
every_command big512 big512
cmp -s big512-dump.out good.dump || bad "big512: dump differs from the good trace's"
[ "$(cat big512-check.rc)" = 0 ] || bad "big512: check exit $(cat big512-check.rc): $(head -n 2 big512-check.err)"
rm -rf big512

huge big2g $((2 << 30))
every_command big2g big2g
cmp -s big2g-dump.out good.dump || bad "big2g: dump differs from the good trace's"
[ "$(cat big2g-check.rc)" = 0 ] || bad "big2g: check exit $(cat big2g-check.rc): $(head -n 2 big2g-check.err)"
rm -rf big2g

# ---- a block size larger than the files: damage, named as such ---------------------------------------
cp -r good large
sed -i "s/ltt_block_size=\"$BS\"/ltt_block_size=\"$((1 << 30))\"/" large/info/system.xml
every_command large large
[ "$(cat large-check.rc)" = 1 ] || bad "large: check exit $(cat large-check.rc)"
grep -q "^ltt check: large/cpu/0: the file (131072 bytes) is smaller than one block (1073741824 bytes, ltt_block_size of info/system.xml): no block read" large-check.err ||
	bad "large: check does not name the damage: $(head -n 3 large-check.err)"

exit $fail
