#!/bin/sh
# SPDX-License-Identifier: MIT
# The documentation renders (issue 38, point 4):
# 1. every code fence of README.md, doc/*.md and tests/README.md is closed (a fence left open turns the
#    rest of the page into code, as one did in doc/cli.md from the --waits example on);
# 2. doc/ltt.1 formats with groff's every warning on (-ww -man) and none printed, and no request is
#    glued to the end of a text line ("..TP" merged two entries once);
# 3. every command of `ltt help` is in doc/cli.md's table and in doc/ltt.1, every long option of
#    `ltt record --help` in cli.md's ltt record table and in ltt.1, every long option of every
#    command's --help named in both; the tables of ltt sql (`ltt sql --schema`'s list) named in
#    `ltt sql --help`, cli.md, ltt.1 and fleet.md's loading loop.
set -u
: "${SRCDIR:?}" "${LTT:?}"
fail=0
cd "$SRCDIR" || exit 1
for f in README.md doc/*.md tests/README.md; do
	open=$(awk '/^ *```/ { if (inb) inb = 0; else { inb = 1; at = NR } } END { if (inb) print at }' "$f")
	[ -z "$open" ] || { echo "FAIL: $f:$open: a code fence opened here is never closed"; fail=1; }
done

command -v groff >/dev/null || { echo "FAIL: groff missing (make deps installs groff-base)"; exit 1; }
warn=$(groff -ww -z -man doc/ltt.1 2>&1)
[ -z "$warn" ] || { echo "FAIL: groff -ww -man doc/ltt.1 warns:"; echo "$warn" | head -n 20; fail=1; }
glued=$(grep -nE "^[^.'].*[^\\]\.(TP|PP|SH|SS|IP|RS|RE|LP|P)\$" doc/ltt.1)
[ -z "$glued" ] || { echo "FAIL: doc/ltt.1: a request at the end of a text line:"; echo "$glued"; fail=1; }

# every command in doc/cli.md's table and doc/ltt.1's COMMANDS
for cmd in $("$LTT" help | awk '/^  [a-z]/ { print $1 }'); do
	grep -q "^| \`ltt $cmd\b" doc/cli.md || grep -q "\`ltt [a-z]*[^|]*\`, \`ltt $cmd\b" doc/cli.md ||
		{ echo "FAIL: doc/cli.md's command table lacks ltt $cmd"; fail=1; }
	grep -q "^\.B ltt $cmd\b" doc/ltt.1 || { echo "FAIL: doc/ltt.1 does not describe ltt $cmd"; fail=1; }
done
# every option of ltt record (its --help) in doc/cli.md's "ltt record" table and in doc/ltt.1
sed -n '/^## ltt record/,/^## /p' doc/cli.md > "${TMPDIR:-/tmp}/docs_render.$$"
for opt in $("$LTT" record --help 2>&1 | grep -oE '^ +(-[a-zA-Z], )?--[a-z][a-z-]*' | grep -oE -- '--[a-z-]+'); do
	grep -q -- "\`$opt\b\|, $opt\b\|\`$opt " "${TMPDIR:-/tmp}/docs_render.$$" ||
		{ echo "FAIL: doc/cli.md's ltt record table lacks $opt"; fail=1; }
	grep -q -- "$(echo "$opt" | sed 's/-/\\\\-/g')" doc/ltt.1 ||
		{ echo "FAIL: doc/ltt.1 does not name ltt record $opt"; fail=1; }
done
rm -f "${TMPDIR:-/tmp}/docs_render.$$"
# every long option of every command's --help named in doc/cli.md and doc/ltt.1
for cmd in $("$LTT" help | awk '/^  [a-z]/ { print $1 }'); do
	for opt in $("$LTT" $cmd --help 2>&1 | grep -oE '^ +(-[a-zA-Z], )?--[a-z][a-z-]*' | grep -oE -- '--[a-z-]+'); do
		grep -q -- "$opt\b" doc/cli.md || { echo "FAIL: doc/cli.md does not name ltt $cmd $opt"; fail=1; }
		grep -q -- "$(echo "$opt" | sed 's/-/\\\\-/g')" doc/ltt.1 ||
			{ echo "FAIL: doc/ltt.1 does not name ltt $cmd $opt"; fail=1; }
	done
done
# the tables of ltt sql, from the program's own list (the tables `ltt sql --schema` creates), named in
# `ltt sql --help`, in doc/cli.md's table of tables, in doc/ltt.1 and in doc/fleet.md's loading loop
tables=$("$LTT" sql --schema sqlite | sed -n 's/^CREATE TABLE \([a-z_]*\) (.*/\1/p')
[ "$(echo "$tables" | wc -w)" -ge 10 ] || { echo "FAIL: ltt sql --schema sqlite lists: $tables"; fail=1; }
help=$("$LTT" sql --help 2>&1)
for t in $tables; do
	echo "$help" | grep -qE "(^|[ ,])$t([ ,]|\$)" || { echo "FAIL: ltt sql --help does not name the table $t"; fail=1; }
	grep -q "^| \`$t\` |" doc/cli.md || { echo "FAIL: doc/cli.md's table of ltt sql's tables lacks $t"; fail=1; }
	grep -qE "^\.IR? $t( ,)?$" doc/ltt.1 || { echo "FAIL: doc/ltt.1's ltt sql lacks the table $t"; fail=1; }
	grep -q "^ *for t in .*\b$t\b.*; do" doc/fleet.md || { echo "FAIL: doc/fleet.md's loading loop lacks $t"; fail=1; }
done
[ $fail = 0 ] && echo ok
exit $fail
