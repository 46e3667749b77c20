#!/bin/sh
# SPDX-License-Identifier: MIT
# The documentation renders (issue 38, point 4):
# 1. every code fence of README.md, doc/*.md and tests/README.md is closed (a fence left open turns the
#    rest of the page into code, as one did in doc/cli.md from the --waits example on);
# 2. doc/ltt.1 formats with groff's every warning on (-ww -man) and none printed, and no request is
#    glued to the end of a text line ("..TP" merged two entries once);
# 3. every command of `ltt help` is in doc/cli.md's table and in doc/ltt.1, every long option of
#    `ltt record --help` in cli.md's ltt record table and in ltt.1, every long option of every
#    command's --help in the option table of its section of cli.md; the tables of ltt sql and their
#    columns (`ltt sql --tables`, the program's own list) named in `ltt sql --help`, cli.md's table of
#    tables, ltt.1 and fleet.md's loading loop.
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
# every option of every command (its --help: the option lines and the usage lines) in the option table
# of the command's section of doc/cli.md ("## ltt CMD" or "## ltt A, ltt CMD, ..."), and in doc/ltt.1
tab="${TMPDIR:-/tmp}/docs_render.$$"
for cmd in $("$LTT" help | awk '/^  [a-z]/ { print $1 }'); do
	awk -v c="ltt $cmd" '/^## / { on = 0; n = split(substr($0, 4), h, ", "); for (i = 1; i <= n; i++) if (h[i] == c) on = 1; next }
		on && /^\|/' doc/cli.md > "$tab"
	opts=$("$LTT" $cmd --help 2>&1 | awk 'NR == 1 || (u && /^ +ltt /) { u = 1; print; next } { u = 0 } /^ +(-[a-zA-Z], )?--[a-z]/' |
		grep -oE -- '--[a-z][a-z-]*' | sort -u)
	for opt in $opts; do
		grep -q -- "\`$opt\b\|, $opt\b\|\`$opt \|\`$cmd $opt\b\|\`[a-z]* -[a-zA-Z]\`, \`$opt\b" "$tab" ||
			{ echo "FAIL: doc/cli.md's option table of ltt $cmd lacks $opt"; fail=1; }
		grep -q -- "$(echo "$opt" | sed 's/-/\\\\-/g')" doc/ltt.1 ||
			{ echo "FAIL: doc/ltt.1 does not name ltt $cmd $opt"; fail=1; }
	done
done
rm -f "$tab"
# every long option of every command's --help named in doc/cli.md and doc/ltt.1
for cmd in $("$LTT" help | awk '/^  [a-z]/ { print $1 }'); do
	for opt in $("$LTT" $cmd --help 2>&1 | grep -oE '^ +(-[a-zA-Z], )?--[a-z][a-z-]*' | grep -oE -- '--[a-z-]+'); do
		grep -q -- "$opt\b" doc/cli.md || { echo "FAIL: doc/cli.md does not name ltt $cmd $opt"; fail=1; }
		grep -q -- "$(echo "$opt" | sed 's/-/\\\\-/g')" doc/ltt.1 ||
			{ echo "FAIL: doc/ltt.1 does not name ltt $cmd $opt"; fail=1; }
	done
done
# the tables of ltt sql, from the program's own list (`ltt sql --tables`: every table and its columns),
# named in `ltt sql --help`, in doc/cli.md's table of tables (the row naming every column), in
# doc/ltt.1 and in doc/fleet.md's loading loop; and the tables `ltt sql --schema` creates are those
"$LTT" sql --tables > "$tab" || { echo "FAIL: ltt sql --tables"; fail=1; }
tables=$(sed -n 's/^\([a-z_]*\)(.*/\1/p' "$tab")
[ "$(echo "$tables" | wc -w)" -ge 10 ] || { echo "FAIL: ltt sql --tables lists: $tables"; fail=1; }
[ "$(echo $tables)" = "$(echo $("$LTT" sql --schema sqlite | sed -n 's/^CREATE TABLE \([a-z_]*\) (.*/\1/p'))" ] ||
	{ echo "FAIL: ltt sql --tables ($(echo $tables)) and --schema differ"; fail=1; }
grep -q '^FACILITY_EVENT(ts_ns INTEGER, trace TEXT, tracefile TEXT, cpu INTEGER, tid INTEGER, FIELD\.\.\.)$' "$tab" ||
	{ echo "FAIL: ltt sql --tables: no FACILITY_EVENT line"; fail=1; }
help=$("$LTT" sql --help 2>&1)
for t in $tables; do
	echo "$help" | grep -qE "(^|[ ,])$t([ ,]|\$)" || { echo "FAIL: ltt sql --help does not name the table $t"; fail=1; }
	row=$(grep "^| \`$t\` |" doc/cli.md)
	[ -n "$row" ] || { echo "FAIL: doc/cli.md's table of ltt sql's tables lacks $t"; fail=1; }
	for col in $(sed -n "s/^$t(\(.*\))\$/\1/p" "$tab" | tr ',' '\n' | awk '{ print $1 }'); do
		case "$row" in *"\`$col\`"* | *"\`$col,"* | *" $col,"* | *" $col\`"*) ;;
		*) echo "FAIL: doc/cli.md's row of the table $t does not name its column $col"; fail=1 ;; esac
	done
	grep -qE "^\.IR? $t( ,)?$" doc/ltt.1 || { echo "FAIL: doc/ltt.1's ltt sql lacks the table $t"; fail=1; }
	grep -q "^ *for t in .*\b$t\b.*; do" doc/fleet.md || { echo "FAIL: doc/fleet.md's loading loop lacks $t"; fail=1; }
done
rm -f "$tab"
[ $fail = 0 ] && echo ok
exit $fail
