#!/bin/sh
# SPDX-License-Identifier: MIT
# The manifest's per-tracefile counts, exactly (events, lost, overwritten: doc/format.md section 7,
# "Counts"): a trace written by tests/progs/mktrace with known events, events_lost records and a
# summary block, packed; then the archive's dump equals the directory's.
set -u
: "${LTT:?}" "${BUILD:?}" "${SRCDIR:?}"
mk="$BUILD/tests/progs/mktrace"
[ -x "$mk" ] || { echo "skip: tests/progs/mktrace is not built"; exit 77; }
mk=$(cd "$(dirname "$mk")" && pwd)/mktrace
work=$(mktemp -d "${TMPDIR:-/tmp}/ltt-e2e-packcounts.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }

cat > script <<'END'
ev 0 1000 packtest.tick 1
ev 0 1100 packtest.tick 2
ev 0 1150 packtest.note 3 hello
lost 0 1200 5 0
lost 0 1300 2 1
ev 1 1250 packtest.tick 4
gap 1 3 40
ev 1 5000 packtest.tick 5
ev control/processes 900 packtest.tick 6
END
"$mk" -o tr -c 2 -f "$SRCDIR/tests/golden/pack/packtest.xml" -s script || fail "mktrace"
if "$LTT" dump tr 2>&1 >/dev/null | grep -q .; then
	echo "skip: ltt dump reports problems on mktrace's trace (reader not ready): $("$LTT" dump tr 2>&1 >/dev/null | head -1)"
	exit 77
fi
"$LTT" pack tr >/dev/null || fail "pack"
"$LTT" unpack tr.tar.gz -o u >/dev/null || fail "unpack"
m=u/info/manifest.xml
check() { grep -q "path=\"$1\" size=\"[0-9]*\" sha256=\"[0-9a-f]*\" events=\"$2\" lost=\"$3\" overwritten=\"$4\"/>" $m ||
	fail "$1: expected events=$2 lost=$3 overwritten=$4: $(grep "\"$1\"" $m)"; }
check cpu/0 3 7 0		# 3 events; events_lost 5 (buffer_full) + 2 (too_big)
check cpu/1 2 0 40		# 2 events; a summary block: 3 blocks holding 40 events (overwritten, not lost)
check control/processes 1 0 0
check control/facilities 0 0 0	# facility_load records are builtin, not counted
check control/interrupts 0 0 0
grep -q 'reader_problems="0"' $m || fail "reader problems: $(grep reader_problems $m)"
grep -q 'path="info/system.xml" size="[0-9]*" sha256="[0-9a-f]*"/>' $m || fail "system.xml has counts"
"$LTT" dump tr > dir.txt 2>&1 || fail "dump of the directory"
"$LTT" dump tr.tar.gz > arc.txt 2>&1 || fail "dump of the archive"
[ "$(wc -l < dir.txt)" -eq 6 ] || fail "dump of the directory: $(wc -l < dir.txt) lines, expected 6"
cmp -s dir.txt arc.txt || fail "dump of the archive differs from the directory's"
echo "pack_counts: ok"
