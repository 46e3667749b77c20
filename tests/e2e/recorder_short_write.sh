#!/bin/sh
# SPDX-License-Identifier: MIT
# A write the file system cuts short (here RLIMIT_FSIZE at 13 KiB: the 4th 4 KiB block of cpu/N gets
# 1 KiB in) leaves no partial block: every tracefile stays a whole number of blocks (the consumer
# truncates back to the block boundary), for O_DIRECT and buffered writes.
set -u
prog="$BUILD/tests/progs/rec_stress"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ltt-e2e-shortw.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

for io in direct buffered; do
	(trap '' XFSZ; ulimit -f 13; LTT_IO=$io LTT_BLOCK_SIZE=4096 LTT_TRACE="$tmp/$io" "$prog" 1 20000) \
		>/dev/null 2>"$tmp/err" || fail "$io: exit status"
	grep -q "File too large" "$tmp/err" || fail "$io: no warning: $(cat "$tmp/err")"
	for f in "$tmp/$io"/cpu/* "$tmp/$io"/control/*; do
		n=$(wc -c < "$f")
		[ $((n % 4096)) = 0 ] || fail "$io: $f: $n bytes, not a whole number of blocks"
	done
done
echo ok
