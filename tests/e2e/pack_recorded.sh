#!/bin/sh
# SPDX-License-Identifier: MIT
# A trace recorded by libltt (1 MiB blocks with zero-filled tails, several tracefiles) packed and
# unpacked: byte-identical files, tails back as holes, the manifest's event total equal to the events
# `ltt dump` prints, and the archive's dump equal to the directory's.
set -u
: "${LTT:?}" "${BUILD:?}"
prog="$BUILD/tests/progs/rec_stress"
[ -x "$prog" ] || { echo "skip: tests/progs/rec_stress is not built"; exit 77; }
"$LTT" help | grep -q '^  record ' || { echo "skip: ltt record is not built"; exit 77; }
prog=$(cd "$(dirname "$prog")" && pwd)/rec_stress
work=$(mktemp -d "${TMPDIR:-/tmp}/ltt-e2e-packrec.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }

"$LTT" record -o tr -- "$prog" 2 50000 > rec.txt 2>&1 || fail "record: $(cat rec.txt)"
[ -f tr/info/system.xml ] || fail "no trace recorded: $(cat rec.txt)"
"$LTT" pack tr > /dev/null || fail "pack"
"$LTT" unpack tr.tar.gz -o u > /dev/null || fail "unpack"
(cd tr && find . -type f | sort) > files.txt
[ -s files.txt ] || fail "empty trace"
while read -r f; do
	cmp -s "tr/$f" "u/$f" || fail "$f differs after unpacking"
done < files.txt
# Holes: the unpacked trace takes no more disk than the recorded one (plus the manifest's block).
[ $(du -sk u | cut -f1) -le $(( $(du -sk tr | cut -f1) + 8 )) ] || fail "zero-filled tails were written out: $(du -sk tr u)"
"$LTT" dump tr > dir.txt 2> dir.err || fail "dump of the directory: $(head -3 dir.err)"
"$LTT" dump tr.tar.gz > arc.txt 2> arc.err || fail "dump of the archive: $(head -3 arc.err)"
cmp -s dir.txt arc.txt || fail "the archive's dump differs from the directory's"
total=$(sed -n 's/.* events="\([0-9]*\)".*/\1/p' u/info/manifest.xml | awk '{ s += $1 } END { print s + 0 }')
[ "$total" -eq "$(wc -l < dir.txt)" ] || fail "manifest events $total, ltt dump printed $(wc -l < dir.txt)"
[ "$total" -gt 0 ] || fail "no events counted"
grep -q 'reader_problems="0"' u/info/manifest.xml || fail "reader problems while counting"
echo "pack_recorded: ok ($total events)"
