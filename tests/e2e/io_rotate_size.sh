#!/bin/sh
# SPDX-License-Identifier: MIT
# Rotation chunks near their size (issue 34, point 5; doc/recorder.md "Rotation"): tests/func/func_many.c,
# 2 threads of 1.5 M calls each (6 M func events, about 84 MB), recorded with function tracing (blocking
# by default: nothing lost, and the consumer a whole ring behind the program all along: a producer far
# faster than the disk) with the default rings (32 MiB) and LTT_ROTATE_SIZE=4M:
#  1. every chunk but the last takes (du) more than 4 MiB - 1 block and at most 4 MiB; the last at most
#     4 MiB + 2 blocks (the rings' open blocks at stop); at least 8 chunks; every func event in exactly
#     one chunk (entries and exits over the chunks: 3 M + 3 each: leaf, work x 2, main), none lost; each chunk passes ltt check;
#  2. with LTT_MAX_SIZE=12M: exactly 3 chunks kept (12M / 4M), the others listed in chunks-removed.
# Before: the first chunk took every block already in the rings (12-48 MB chunks here), and the bound
# kept one chunk.
set -u
prog="$BUILD/tests/func/func_many_cyg"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ltt-e2e-rotsize-XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
command -v jq >/dev/null || fail "jq missing (make deps installs it)"
[ -x "$prog" ] || fail "$prog not built (make check builds it)"
N=1500000
R=$((4 << 20))

# 1. chunk sizes and exact counts
LTT_ROTATE_SIZE=4M LTT_TRACE="$tmp/a" LTT_FUNCTIONS=1 "$prog" $N 2 > /dev/null || fail "func_many exit status"
chunks=$(cd "$tmp/a" && ls -d chunk-[0-9]* | sort)
n=$(echo "$chunks" | wc -l)
[ "$n" -ge 8 ] || fail "$n chunks for 84 MB at 4 MiB each"
bs=$("$LTT" stats --format=json "$tmp/a/chunk-0001" | jq -r '.block_size')
last=$(echo "$chunks" | tail -n 1)
for c in $chunks; do
	b=$(du -sB1 "$tmp/a/$c" | cut -f1)
	if [ "$c" = "$last" ]; then
		[ "$b" -le $((R + 2 * bs)) ] || fail "$c (the last) takes $b bytes, more than 4 MiB + 2 blocks of $bs"
	else
		[ "$b" -gt $((R - bs)) ] && [ "$b" -le $R ] ||
			fail "$c takes $b bytes, not within (4 MiB - 1 block of $bs, 4 MiB]: $(du -sB1 "$tmp"/a/chunk-* | tr '\n' ' ')"
	fi
	"$LTT" check "$tmp/a/$c" > /dev/null 2>&1 || fail "ltt check $c: $("$LTT" check "$tmp/a/$c" 2>&1 | tail -n 2)"
done
"$LTT" stats --format=json "$tmp/a" | jq -s '[.[].events["func.entry"].total // 0] | add' > "$tmp/entries"
"$LTT" stats --format=json "$tmp/a" | jq -s '[.[].events["func.exit"].total // 0] | add' > "$tmp/exits"
"$LTT" stats --format=json "$tmp/a" | jq -s '[.[].counts.lost] | add' > "$tmp/lost"
[ "$(cat "$tmp/entries")" = $((2 * N + 3)) ] && [ "$(cat "$tmp/exits")" = $((2 * N + 3)) ] && [ "$(cat "$tmp/lost")" = 0 ] ||
	fail "over the chunks: $(cat "$tmp/entries") entries, $(cat "$tmp/exits") exits, $(cat "$tmp/lost") lost; expected $((2 * N + 3)) each (leaf, work x 2, main), 0 lost"

# 2. the bound keeps max / rotate chunks
LTT_ROTATE_SIZE=4M LTT_MAX_SIZE=12M LTT_TRACE="$tmp/b" LTT_FUNCTIONS=1 "$prog" $N 2 > /dev/null || fail "func_many (bound) exit status"
kept=$(cd "$tmp/b" && ls -d chunk-[0-9]* | sort)
nk=$(echo "$kept" | wc -l)
[ "$nk" = 3 ] || fail "LTT_MAX_SIZE=12M with 4M chunks kept $nk chunks: $(du -sB1 "$tmp"/b/chunk-* | tr '\n' ' ')"
first=$(echo "$kept" | head -n 1 | sed 's/chunk-0*//')
[ "$(wc -l < "$tmp/b/chunks-removed")" = $((first - 1)) ] || fail "chunks-removed: $(wc -l < "$tmp/b/chunks-removed") lines, $((first - 1)) chunks removed"
echo "ok: $n chunks of $(du -sB1 "$tmp"/a/chunk-0002 | cut -f1) bytes (blocks of $bs), the last $(du -sB1 "$tmp/a/$last" | cut -f1); 3 kept by the bound"
