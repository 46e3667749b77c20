#!/bin/sh
# SPDX-License-Identifier: MIT
# Inputs that used to hang the tools or hide a loss (issue 28, point 6): a FIFO in place of
# info/write-losses, of chunks-removed, or of a ring file in `ltt recover --list`'s directory is never
# opened for reading in a way that blocks (each run under `timeout`: before 26 Nov 2026 they hung); a
# chunks-removed naming chunks 2 and 11 does not hide chunks 3 to 9, missing.
set -u
. "$SRCDIR/tests/e2e/lib/common.sh"
types_trace ty

# info/write-losses a FIFO: ltt check answers (a problem, not a hang)
cp -r ty fw && mkfifo fw/info/write-losses
out=$(timeout 20 "$LTT" check fw 2>&1); rc=$?
check "write-losses FIFO: status" "$rc" 1
check "write-losses FIFO" "$out" "ltt check: fw/info/write-losses: not a regular file"

# a chunked capture: chunk-0001, chunk-0010, chunk-0012; chunks-removed lists 2 and 11
mkdir cap && cp -r ty cap/chunk-0001 && cp -r ty cap/chunk-0010 && cp -r ty cap/chunk-0012
printf 'chunk-0002 removed 4096\nchunk-0011 removed 4096\n' > cap/chunks-removed
out=$(timeout 20 "$LTT" check cap 2>&1); rc=$?
check "chunks 3-9 missing: status" "$rc" 1
echo "$out" | grep -q -x -F "ltt check: cap: chunk-0003 to chunk-0009 missing (not listed in chunks-removed): their events are lost" ||
	{ echo "chunks 3-9 not said missing: $out"; fail=1; }
# chunks-removed a FIFO: read as no list (chunks 2-9 and 11 missing), never a hang
rm cap/chunks-removed && mkfifo cap/chunks-removed
out=$(timeout 20 "$LTT" check cap 2>&1); rc=$?
check "chunks-removed FIFO: status" "$rc" 1
echo "$out" | grep -q -F "chunk-0002 to chunk-0009 missing" || { echo "chunks-removed FIFO: $out"; fail=1; }

# a FIFO named like a ring file in the directory ltt recover --list reads
mkdir shm && mkfifo shm/ltt-evil-1.ring
out=$(timeout 20 "$LTT" recover --list shm 2>&1); rc=$?
[ $rc = 124 ] && { echo "ltt recover --list hung on a FIFO"; fail=1; }
echo "$out" | grep -q "not a regular file" || { echo "recover --list: $out"; fail=1; }
out=$(timeout 20 "$LTT" recover shm/ltt-evil-1.ring -o rec 2>&1); rc=$?
[ $rc = 124 ] && { echo "ltt recover hung on a FIFO"; fail=1; }
check "recover of a FIFO: status" "$rc" 1
exit $fail
