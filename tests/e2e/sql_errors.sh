#!/bin/sh
# SPDX-License-Identifier: MIT
# ltt sql errors: a bad statement gives exit 1 and one line with its line and column; bad options exit
# 2; a damaged trace gives every good row with the problems on stderr (each once) and exit 1.
set -u
. "$SRCDIR/tests/e2e/lib/common.sh"
types_trace ty
fail=0
expect() {	# expect WHAT STATUS STDERR-LINE COMMAND...
	what=$1 st=$2 line=$3
	shift 3
	"$@" > out 2> err
	rc=$?
	[ $rc -eq "$st" ] || { echo "$what: exit $rc, want $st"; fail=1; }
	[ "$(cat err)" = "$line" ] || { echo "$what: stderr:"; cat err; echo "want: $line"; fail=1; }
}
expect "syntax" 1 'ltt sql: -e 1: line 1, column 1: near "SELEC": syntax error' "$LTT" sql ty -e 'SELEC 1'
expect "second line" 1 'ltt sql: -e 2: line 2, column 8: no such column: nosuch' \
	"$LTT" sql ty -e 'SELECT 1' -e 'SELECT 1,
       nosuch FROM events'
[ "$(cat out)" = "1
-
1" ] || { echo "the statement before the error was not run"; cat out; fail=1; }
expect "no such table" 1 'ltt sql: -e 1: line 1, column 1: no such table: nope' "$LTT" sql ty -e 'SELECT * FROM nope'
expect "stdin" 1 'ltt sql: stdin: line 3, column 15: near "FROM": syntax error' \
	sh -c "printf 'SELECT 1;\n\nSELECT 1 FROM FROM x;\nSELECT 2;\n' | '$LTT' sql ty"
[ "$(cat out)" = "1
-
1" ] || { echo "stdin: rows before the error"; cat out; fail=1; }
expect "dot" 1 'ltt sql: -e 1: unknown command .nope (.tables, .schema, .help, .quit)' "$LTT" sql ty -e .nope
expect "format" 2 'ltt sql: --format=xml: expected table, csv or json' "$LTT" sql --format=xml ty -e 'SELECT 1'
expect "schema" 2 'ltt sql: --schema oracle: expected clickhouse, duckdb or sqlite' "$LTT" sql --schema oracle
expect "no trace" 2 'ltt sql: no trace given (see ltt sql --help)' "$LTT" sql -e 'SELECT 1'
expect "no such trace" 1 "ltt sql: nosuch: No such file or directory" \
	"$LTT" sql nosuch -e 'SELECT 1'

# damaged: an unknown event id in cpu/0's first block cuts that block; every other row still comes
cp -r ty bad
printf '\167\167' | dd of=bad/cpu/0 bs=1 seek=32 conv=notrunc 2>/dev/null
"$LTT" dump bad > dump.out 2> dump.err
"$LTT" sql bad --format=csv -e 'SELECT count(*) FROM events' -e 'SELECT count(*) FROM events WHERE cpu = 0' \
	-e 'SELECT count(*) FROM types_text' > out 2> err
rc=$?
[ $rc -eq 1 ] || { echo "damaged: exit $rc, want 1"; fail=1; }
[ "$(sed -n 2p out)" = "$(wc -l < dump.out)" ] || { echo "damaged: $(sed -n 2p out) rows, ltt dump $(wc -l < dump.out)"; fail=1; }
[ "$(sed -n 4p out)" = "$(grep -c '(cpu/0)' dump.out)" ] || { echo "damaged: cpu/0 rows"; cat out; fail=1; }
[ "$(sed -n 6p out)" = "$(grep -c '^types.text' dump.out)" ] || { echo "damaged: types_text rows"; cat out; fail=1; }
sed 's/^ltt dump: //' dump.err > want.err
sed 's/^ltt sql: //' err > got.err
cmp -s want.err got.err || { echo "damaged: problems differ from ltt dump's (once each):"; diff want.err got.err; fail=1; }
[ -s got.err ] || { echo "damaged: no problem reported"; fail=1; }
[ $fail -eq 0 ] && echo ok
exit $fail
