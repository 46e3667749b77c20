#!/bin/sh
# SPDX-License-Identifier: MIT
# Reader commands on a packed trace: the 2004 reference trace packed, then `ltt dump` (and `ltt stats`,
# `ltt check` when built) of the archive give exactly the output of the directory; the manifest
# carries the per-tracefile event counts; private temporary directories are removed.
set -u
: "${LTT:?}" "${SRCDIR:?}"
. "$SRCDIR/tests/e2e/lib/reference.sh"
need_reference lttv-smp-example
ref="$REF/lttv-smp-example"
"$LTT" help | grep -q '^  dump ' || { echo "skip: ltt dump is not built yet"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/ltt-e2e-packdump.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
mkdir tmp
TMPDIR="$work/tmp"; export TMPDIR

"$LTT" pack "$ref" -o ref.tar.gz >/dev/null || fail "pack"
"$LTT" unpack ref.tar.gz -o u >/dev/null || fail "unpack"
# Exact counts of the reference trace (85914 + 87237 = the 173151 events ltt dump prints).
grep -q 'path="cpu/0" size="1000000" sha256="10537d486e5d7fed1ff3aad71635ec006c6c371eac4716b33d9cb8e231eb2b4d" events="85914" lost="0"' \
	u/info/manifest.xml || fail "cpu/0 in the manifest: $(grep cpu/0 u/info/manifest.xml)"
grep -q 'path="cpu/1" size="1000000" sha256="c03fc92f2e45adb44f6ce856235812a3022ff3e66bd83e220a563ca2e9599d01" events="87237" lost="0"' \
	u/info/manifest.xml || fail "cpu/1 in the manifest: $(grep cpu/1 u/info/manifest.xml)"
grep -q 'reader_problems="0"' u/info/manifest.xml || fail "reader problems while counting"

# Same output from the archive as from the directory (a path the command prints aside).
for cmd in dump stats check; do
	"$LTT" help | grep -q "^  $cmd " || continue
	"$LTT" $cmd "$ref" > dir.out 2>&1; rc_dir=$?
	"$LTT" $cmd ref.tar.gz > arc.out 2>&1; rc_arc=$?
	[ $rc_dir -eq $rc_arc ] || fail "ltt $cmd: exit $rc_dir on the directory, $rc_arc on the archive"
	sed "s|ref.tar.gz|$ref|g" arc.out | cmp -s - dir.out || fail "ltt $cmd: the archive's output differs"
	[ -s dir.out ] || fail "ltt $cmd: no output"
done
[ "$(ls -A tmp)" = "" ] || fail "private directories left in TMPDIR: $(ls -A tmp)"
# A reader killed by SIGPIPE (its output closed early) leaves nothing either.
"$LTT" dump ref.tar.gz | head -n 1 > /dev/null
[ "$(ls -A tmp)" = "" ] || fail "private directories left in TMPDIR after SIGPIPE: $(ls -A tmp)"

# A damaged archive: one clear line, a non-zero exit, nothing left in TMPDIR.
cp ref.tar.gz bad.tar.gz
size=$(stat -c %s bad.tar.gz)
printf 'XXXX' | dd of=bad.tar.gz bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
"$LTT" dump bad.tar.gz > out.txt 2> err.txt && fail "dump of a damaged archive succeeded"
grep -q 'bad.tar.gz: offset [0-9]*: corrupt archive: ' err.txt || fail "dump of a damaged archive: $(cat err.txt)"
[ "$(ls -A tmp)" = "" ] || fail "private directories left in TMPDIR after a failure: $(ls -A tmp)"

# ltt check verifies the manifest when it can.
if "$LTT" help | grep -q '^  check '; then
	mkdir mm && cp -r u mm/lttv-smp-example
	printf 'X' | dd of=mm/lttv-smp-example/cpu/1 bs=1 seek=100 conv=notrunc 2>/dev/null
	tar -C mm -czf mm.tar.gz lttv-smp-example
	"$LTT" check mm.tar.gz > out.txt 2> err.txt && fail "ltt check accepted a manifest mismatch"
	grep -q '^ltt check: mm.tar.gz/cpu/1: SHA-256 [0-9a-f]*, the manifest says c03fc92f' err.txt ||
		fail "ltt check on a manifest mismatch: $(cat err.txt out.txt)"
	"$LTT" check mm/lttv-smp-example > dout.txt 2> derr.txt && fail "ltt check accepted a changed directory"
	sed 's|mm.tar.gz|mm/lttv-smp-example|g' err.txt | cmp -s - derr.txt ||
		fail "ltt check: the archive's messages differ from the directory's: $(cat err.txt)"
	[ "$(ls -A tmp)" = "" ] || fail "private directories left in TMPDIR after check: $(ls -A tmp)"
fi
echo "pack_dump: ok"
