#!/bin/sh
# SPDX-License-Identifier: MIT
# `ltt gen` output compiles for every facility the parser accepts (issue 18, point 6): each file of
# the gen fuzz target's seed corpus (tests/fuzz/corpus/gen/: shipped facility files, generator cases) that
# `ltt gen` accepts gives headers that compile as C11 with -Wall -Wextra -Werror; a file it refuses is
# refused with one line. The fuzz target itself (tests/fuzz/fuzz_gen.c) checks every generated header
# with a cheap syntax check; this test runs the real compiler on the corpus.
set -u
: "${SRCDIR:?}" "${LTT:?}"
CC=${CC:-cc}
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
fail=0 ok=0 refused=0
for x in "$SRCDIR"/tests/fuzz/corpus/gen/*; do
	[ -f "$x" ] || continue
	rm -rf "$work/h" && mkdir "$work/h"
	if ! "$LTT" gen "$x" -o "$work/h" > "$work/out" 2> "$work/err"; then
		refused=$((refused + 1))
		[ "$(wc -l < "$work/err")" = 1 ] || { echo "FAIL: $x: refused without exactly one line:"; cat "$work/err"; fail=1; }
		continue
	fi
	for h in "$work"/h/*.h; do
		printf '#include "%s"\n' "$h" > "$work/use.c"
		if ! $CC -std=gnu11 -Wall -Wextra -Werror -I"$SRCDIR/include" -c -o "$work/use.o" "$work/use.c" \
			2> "$work/cc.err"; then
			echo "FAIL: $x: $(basename "$h") does not compile:"
			head -n 5 "$work/cc.err"
			fail=1
		fi
	done
	ok=$((ok + 1))
done
echo "$ok facility files generated and compiled, $refused refused"
[ $ok -gt 0 ] || { echo "FAIL: nothing generated"; fail=1; }
exit $fail
