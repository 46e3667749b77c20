#!/bin/sh
# SPDX-License-Identifier: MIT
# Command-line errors of the reader commands and of help/version: unknown options and extra
# arguments are usage errors (exit 2, one line), write errors on stdout are detected (exit 1).
set -u
. "$SRCDIR/tests/e2e/lib/common.sh"
types_trace g

try() {
	out=$1
	shift
	timeout 10 "$LTT" "$@" > "$out" 2> e.txt
	echo "ltt $* >$out: exit $?"
	cat e.txt
}
{
try o.txt check g -q; cat o.txt
try o.txt check -q g; cat o.txt
try o.txt check g --quiet; cat o.txt
try o.txt check -x g
try o.txt check g --bogus
try /dev/full check g
try /dev/full dump g
try /dev/full stats g
try o.txt help nosuch
try o.txt help check extra
try o.txt version extra
try o.txt --version extra
try /dev/full version
try /dev/full help
try /dev/full help check
} > out.txt 2>&1
if ! cmp -s out.txt "$G/cli.txt"; then
	diff "$G/cli.txt" out.txt
	exit 1
fi
exit 0
