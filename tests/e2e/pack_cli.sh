#!/bin/sh
# SPDX-License-Identifier: MIT
# ltt pack / ltt unpack from the command line: round trip, refusals and their messages (compared with
# tests/golden/pack/cli-messages.txt), --force, --max-size, archives made by plain tar.
set -u
: "${LTT:?}" "${SRCDIR:?}"
work=$(mktemp -d "${TMPDIR:-/tmp}/ltt-e2e-pack.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }

# A hand-made trace (the archive code reads tracefiles only to count events).
mk_trace() {
	mkdir -p "$1/info" "$1/eventdefs" "$1/control" "$1/cpu"
	printf '<system cpu="2" endian="little" arch_size="LP64"/>\n' > "$1/info/system.xml"
	printf '<facility name="demo"><event name="e"/></facility>\n' > "$1/eventdefs/demo.xml"
	: > "$1/control/facilities"; : > "$1/control/processes"; : > "$1/control/interrupts"
	i=0; while [ $i -lt 2000 ]; do printf 'event %d of the demo trace\n' $i; i=$((i + 1)); done > "$1/cpu/0"
	printf 'head' > "$1/cpu/1"; truncate -s 1M "$1/cpu/1"
}
same_trace() {
	for f in info/system.xml eventdefs/demo.xml control/facilities control/processes control/interrupts cpu/0 cpu/1; do
		cmp -s "$1/$f" "$2/$f" || fail "$1/$f and $2/$f differ"
	done
}
# Runs a command that must fail with exit status 1; appends its stderr to messages.txt.
refused() {
	"$@" >out.txt 2>err.txt && fail "accepted: $*"
	[ $? -eq 1 ] || fail "exit status $? from: $*"
	[ "$(wc -l < err.txt)" -eq 1 ] || fail "not one line from: $*: $(cat err.txt)"
	sed 's/offset [0-9]*/offset N/' err.txt >> messages.txt
}

mk_trace t
[ "$("$LTT" pack t)" = "t.tar.gz: $(stat -c %s t.tar.gz) bytes" ] || fail "pack output"
refused "$LTT" pack t
mv t.tar.gz first.tar.gz
(cd t && "$LTT" pack . >/dev/null) || fail "pack ."
cmp -s t.tar.gz first.tar.gz || fail "pack . did not write the same t.tar.gz beside the trace"
"$LTT" pack --force --level 9 t >/dev/null || fail "pack --force"
mkdir out
[ "$("$LTT" unpack t.tar.gz -C out)" = "out/t" ] || fail "unpack -C output"
same_trace t out/t
[ -f out/t/info/manifest.xml ] || fail "manifest not extracted"
refused "$LTT" unpack t.tar.gz -C out
echo stale > out/t/stale
"$LTT" unpack --force t.tar.gz -C out >/dev/null || fail "unpack --force"
[ -e out/t/stale ] && fail "--force kept the old directory's files"
same_trace t out/t
"$LTT" unpack t.tar.gz -o exact >/dev/null && same_trace t exact || fail "unpack -o"
[ "$(ls -A out)" = "t" ] || fail "leftovers in out: $(ls -A out)"

# Refusals, each one line, nothing left behind.
refused "$LTT" unpack t.tar.gz -o limited --max-size 100K
[ -e limited ] && fail "refused archive left its target"
echo notes > t/notes.txt
refused "$LTT" pack -o stray.tar.gz t
rm t/notes.txt
[ -e stray.tar.gz ] && fail "refused pack left an archive"
cp t.tar.gz bad.tar.gz
size=$(stat -c %s bad.tar.gz)
printf 'XXXX' | dd of=bad.tar.gz bs=1 seek=$((size - 8)) conv=notrunc 2>/dev/null
refused "$LTT" unpack bad.tar.gz -o bad
echo 'not a trace' > plain.tar.gz
refused "$LTT" unpack plain.tar.gz -o plain

# A manifest that no longer matches: change a file and re-tar with plain tar.
cp -r out/t mm && mkdir mmdir && mv mm mmdir/t
printf 'event 0 of the DEMO trace\n' | dd of=mmdir/t/cpu/0 bs=1 conv=notrunc 2>/dev/null
tar -C mmdir -czf mm.tar.gz t
refused "$LTT" unpack mm.tar.gz -o mm
[ -e mm ] && fail "mismatched archive left its target"
"$LTT" unpack --no-verify mm.tar.gz -o mm >/dev/null || fail "--no-verify"

# Plain tar without a manifest: accepted with a warning.
tar -C . -czf plaintar.tar.gz t
"$LTT" unpack plaintar.tar.gz -o fromtar >out.txt 2>err.txt || fail "plain tar archive refused: $(cat err.txt)"
sed 's/offset [0-9]*/offset N/' err.txt >> messages.txt
same_trace t fromtar

ls -A | grep '\.unpack-\|\.tmp-' && fail "temporary files left"
[ -n "${PACK_GOLDEN_OUT:-}" ] && cp messages.txt "$PACK_GOLDEN_OUT"
diff -u "$SRCDIR/tests/golden/pack/cli-messages.txt" messages.txt || fail "messages differ from the golden file"
echo "pack_cli: ok"
