# SPDX-License-Identifier: MIT
# Sourced by the end-to-end scripts that work on the type-rich synthetic trace:
#   . "$SRCDIR/tests/e2e/lib/common.sh"
# It checks the variables the test runner sets, names the golden files (G) and the trace maker (MK),
# makes a scratch directory ($work, removed at exit) and moves into it, and gives fail=0 and check. A script that needs its own
# EXIT trap replaces this one and removes $work itself.
: "${BUILD:?}" "${SRCDIR:?}" "${LTT:?}"
G="$SRCDIR/tests/golden/reader"
MK="$BUILD/tests/progs/mktrace"
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1

fail=0
# check NAME GOT WANT: a failure (fail=1, both values printed) when GOT is not WANT
check() { [ "$2" = "$3" ] || { printf '%s: got\n%s\nwant\n%s\n' "$1" "$2" "$3"; fail=1; }; }

# types_trace NAME: tests/golden/reader/types.xml's events (types.script), 2 CPUs, 4 KiB blocks.
types_trace() {
	"$MK" -o "$1" -c 2 -b 4096 -f "$G/types.xml" -s "$G/types.script" || exit 1
}
