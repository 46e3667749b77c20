#!/bin/sh
# SPDX-License-Identifier: MIT
# ltt sql's prompt on a terminal (a pty from script(1)): statements typed ahead run in order, Up
# recalls the previous line, Left moves the cursor for an insertion, Ctrl-A Ctrl-K kills the line,
# .tables works, history is kept in $HOME/.ltt_sql_history, Ctrl-D ends with status 0.
set -u
. "$SRCDIR/tests/e2e/lib/common.sh"
command -v script > /dev/null || { echo "script(1) missing (Debian's bsdutils)"; exit 1; }
types_trace ty
fail=0
HOME=$work
export HOME
# SELECT 6*7; Up + Enter (again); "SELECT 9 AS v;" with a 9 inserted 6 places left of the end;
# a line killed by Ctrl-A Ctrl-K then replaced; .tables; Ctrl-D
printf 'SELECT 6*7 AS x;\n\033[A\nSELECT 9 AS v;\033[D\033[D\033[D\033[D\033[D\033[D9\nSELECT 1 AS nope;\001\013SELECT count(*) AS n FROM types_text;\n.tables\n\004' |
	timeout 20 script -qec "'$LTT' sql ty" /dev/null > out 2>&1
rc=$?
tr -d '\r' < out | grep -v 'ltt sql>' > lines
[ $rc -eq 0 ] || { echo "exit $rc"; fail=1; }
[ "$(grep -c '^42$' lines)" = 2 ] || { echo "SELECT 6*7 and its recall: not twice 42"; fail=1; }
grep -q '^99$' lines || { echo "insertion: no 99"; fail=1; }
grep -q '^ *nope' lines && { echo "the killed line ran"; fail=1; }
grep -q '^3$' lines || { echo "count of types_text: no 3"; fail=1; }
grep -q '^types_nested$' lines || { echo ".tables: no types_nested"; fail=1; }
[ "$(cat .ltt_sql_history)" = "SELECT 6*7 AS x;
SELECT 99 AS v;
SELECT count(*) AS n FROM types_text;
.tables" ] || { echo "history file:"; cat .ltt_sql_history; fail=1; }
[ $fail -eq 0 ] || { echo "session:"; cat -v out; }
[ $fail -eq 0 ] && echo ok
exit $fail
