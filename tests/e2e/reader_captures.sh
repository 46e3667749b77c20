#!/bin/sh
# SPDX-License-Identifier: MIT
# Reader commands given a capture directory rather than a trace (issue 14 point 2, issue 19's reader
# side): a flight-recorder directory (snapshot-NNNN/) is read as its newest snapshot, or all with
# --all-snapshots, saying so in one line; a chunked capture (chunk-NNNN/) as its chunks in order, with
# chunk-NNNN.part skipped, chunks removed by the size bound reported as such (exit 0), a chunk missing
# without being listed reported as lost (exit 1); a directory with nothing to read is an error, never an
# empty success.
set -u
prog="$BUILD/tests/progs/newcomer_emit"
tmp=$(mktemp -d "${TMPDIR:-/tmp}"/ltt-e2e-newcomer-cap.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$tmp" || exit 1
nev() { "$LTT" dump --event rtest.ev "$@" 2>/dev/null | wc -l; }

# --- flight recorder: three snapshots of 4, 6 and 8 events (the newest last)
for n in 4 6 8; do
	LTT_MODE=flight LTT_TRACE=$tmp/s$n "$prog" $n 0 || fail "flight run $n"
done
mkdir f
cp -r s4/info s4/eventdefs f/
mv s4/snapshot-0001 f/snapshot-0001; mv s6/snapshot-0001 f/snapshot-0002; mv s8/snapshot-0001 f/snapshot-0010
cp -r f/snapshot-0001 f/snapshot-0011.part
for cmd in dump "stats" "stats --regions" check; do
	$LTT $cmd f > out.txt 2> err.txt; rc=$?
	[ $rc = 0 ] || fail "$cmd: exit $rc: $(cat err.txt)"
	[ -s out.txt ] || [ "$cmd" = "stats --regions" ] || fail "$cmd: empty output"
	grep -qx "ltt ${cmd%% *}: f: flight-recorder trace: reading its newest snapshot, f/snapshot-0010 (3 snapshots; --all-snapshots reads them all)" err.txt ||
		fail "$cmd: note: $(cat err.txt)"
	grep -qx "ltt ${cmd%% *}: f/snapshot-0011.part: incomplete snapshot (cut short while being written), skipped" err.txt ||
		fail "$cmd: .part note: $(cat err.txt)"
done
[ "$(nev f)" = 8 ] || fail "newest snapshot: $(nev f) events, not 8"
[ "$(nev --all-snapshots f)" = 18 ] || fail "all snapshots: $(nev --all-snapshots f) events, not 18"
[ "$("$LTT" check --all-snapshots f 2>/dev/null | grep -c ': ok ')" = 3 ] || fail "check --all-snapshots"
[ "$("$LTT" stats --format=json --all-snapshots f 2>/dev/null | grep -c '"trace"')" = 3 ] || fail "stats --all-snapshots"
"$LTT" pack f -o f.tar.gz > /dev/null 2>err.txt || fail "pack: $(cat err.txt)"
[ "$(nev f.tar.gz)" = 8 ] || fail "packed newest snapshot"

# a flight directory without a complete snapshot: one line, exit 1
mkdir f0; cp -r f/info f/eventdefs f0/; cp -r f/snapshot-0001 f0/snapshot-0001.part
for cmd in dump stats check; do
	$LTT $cmd f0 > out.txt 2> err.txt && fail "f0: $cmd succeeded"
	[ ! -s out.txt ] || fail "f0: $cmd output"
	[ "$(cat err.txt)" = "ltt $cmd: f0: flight-recorder trace without a complete snapshot (only the incomplete snapshot-0001.part): none was taken (killed, or LTT_SNAPSHOT_AT_EXIT=0; ltt recover rebuilds a dead process's trace)" ] ||
		fail "f0: $cmd: $(cat err.txt)"
done
rm -r f0/snapshot-0001.part
"$LTT" dump f0 > out.txt 2> err.txt && fail "no snapshot: dump succeeded"
grep -q "^ltt dump: f0: flight-recorder trace without a snapshot: none was taken" err.txt || fail "no snapshot: $(cat err.txt)"

# --- chunked capture: chunk-0001 removed by the bound, chunk-0002 (3 events), chunk-0003 (5), a .part
for n in 2 3 5; do
	LTT_TRACE=$tmp/c$n "$prog" $n 0 || fail "chunk run $n"
done
mkdir t
mv c2 t/chunk-0001; mv c3 t/chunk-0002; mv c5 t/chunk-0003
rm -r t/chunk-0001; echo "chunk-0001 removed 4194304" > t/chunks-removed
cp -r t/chunk-0002 t/chunk-0004.part
for cmd in dump stats check; do
	$LTT $cmd t > out.txt 2> err.txt; rc=$?
	[ $rc = 0 ] || fail "chunks: $cmd: exit $rc: $(cat err.txt)"
	[ "$(cat err.txt)" = "ltt $cmd: t/chunk-0004.part: chunk being written (or left by a crash), skipped (ltt dump --follow reads it)
ltt $cmd: t: chunk-0001 (4194304 bytes) was removed by the size bound (LTT_MAX_SIZE); reading the 2 kept" ] ||
		fail "chunks: $cmd: $(cat err.txt)"
done
[ "$(nev t)" = 8 ] || fail "chunks: $(nev t) events, not 8"
# in order: every event of chunk-0002 before those of chunk-0003
"$LTT" dump --format=json --event rtest.ev t 2>/dev/null | sed 's/.*"trace":"\([^"]*\)".*/\1/' | uniq > order.txt
[ "$(cat order.txt | tr '\n' ' ')" = "t/chunk-0002 t/chunk-0003 " ] || fail "chunk order: $(cat order.txt)"
"$LTT" pack t > out.txt 2> err.txt && fail "pack of a chunked capture succeeded"
grep -q "^ltt pack: t: chunked capture of 2 chunks, not one trace: pack each chunk (ltt pack t/chunk-0002 -o NAME.tar.gz)" err.txt ||
	fail "pack chunks: $(cat err.txt)"
# chunk-0003 and 0004 missing without being listed: lost data, exit 1
rm -r t/chunk-0004.part; mv t/chunk-0003 t/chunk-0005
"$LTT" dump t > out.txt 2> err.txt && fail "missing chunk: exit 0"
grep -qx "ltt dump: t: chunk-0003 to chunk-0004 missing (not listed in chunks-removed): their events are lost" err.txt ||
	fail "missing chunk: $(cat err.txt)"
echo ok
