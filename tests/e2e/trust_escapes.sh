#!/bin/sh
# SPDX-License-Identifier: MIT
# What reaches a terminal (issue 28, point 8): thread names, region categories and labels and
# system.xml's node_name are written as terminal text (common/escape_term.h) by ltt dump's text
# formats (text, normal, perf), ltt stats (--regions), and a trace path with a newline stays one line
# in ltt check's "ok" line and in every one-line message. JSON outputs keep their own escaper. Before 26
# Nov 2026 the ESC, BEL and CSI bytes went out raw (the title of the terminal changed, the screen was
# cleared) and a path with a newline was reported as two lines.
set -u
. "$SRCDIR/tests/e2e/lib/common.sh"

E=$(printf '\033'); BEL=$(printf '\007'); CSI=$(printf '\302\233'); NL='
'
cat > script <<EOS
ev control/processes 950 core.thread_name 100 "${E}[31mred${BEL}"
ev 0 1000 app.thread_start 100 "t.c" 1 1 "${E}]0;title${BEL}"
ev 0 2000 app.region_enter 100 "t.c" 1 0 "${E}[2Jcat" "lab${CSI}el" ""
ev 0 3000 app.region_leave 100 "t.c" 1 0 "${E}[2Jcat" "lab${CSI}el" ""
EOS
"$MK" -o t -c 1 -f "$SRCDIR/eventdefs/core.xml" -f "$SRCDIR/eventdefs/app.xml" -s script || exit 1
# a node name of a newline and a C1 CSI (both XML characters: system.xml may hold them)
sed 's/node_name="mktrace"/node_name="host\&#10;x\&#155;[31m"/' t/info/system.xml > sys && mv sys t/info/system.xml

# no control byte (but the line ends), no C1 control, no raw CSI of any form in a text output
raw() { LC_ALL=C tr -d '\n' < "$1" | LC_ALL=C grep -c "$(printf '[\001-\037\177\233]')\|$CSI"; }
"$LTT" dump t > dump.out || { echo "ltt dump failed"; fail=1; }
check "dump: raw controls" "$(raw dump.out)" 0
check "dump: thread name beside tid" "$(sed -n 2p dump.out)" \
	'app.thread_start: 1700000000.000000000 (cpu/0) { tid = 100 (\x1b[31mred\x07), file = "t.c", line = 1, number = 1, name = "\x1b]0;title\x07" }'
"$LTT" stats t > stats.out || { echo "ltt stats failed"; fail=1; }
check "stats: raw controls" "$(raw stats.out)" 0
check "stats: system line" "$(sed -n 2p stats.out)" \
	'  system      host\x0ax\xc2\x9b[31m, test, LP64, little endian, 1 CPUs, format 2.10'
"$LTT" stats --regions t > regions.out || { echo "ltt stats --regions failed"; fail=1; }
check "stats --regions: raw controls" "$(raw regions.out)" 0
check "stats --regions: thread, header, row" "$(sed -n 1,3p regions.out)" \
'regions of thread th01:\x1b]0;title\x07 (tid 100):
  category   label         count children   total    self     min     p50     p90     p99     max
  \x1b[2Jcat lab\xc2\x9bel     1        0  1.00µs  1.00µs  1.00µs  1.00µs  1.00µs  1.00µs  1.00µs'
"$LTT" dump --format=perf t > perf.out || { echo "ltt dump --format=perf failed"; fail=1; }
check "dump perf: raw controls" "$(raw perf.out)" 0
check "dump perf: region_enter" "$(sed -n 2p perf.out | cut -c50-)" \
	' | th01:\x1b]0;title\x07          | region_enter |     |  0.000001 |           | \x1b[2Jcat      | label:lab\xc2\x9bel'
# JSON keeps JSON's escapes
"$LTT" stats --regions --format=json t > regions.json || { echo "ltt stats --regions --format=json failed"; fail=1; }
check "stats --regions --format=json: thread" "$(jq -r '.threads[0].thread' regions.json)" "th01:${E}]0;title${BEL}"
check "stats --regions --format=json: escapes" "$(grep -o '"thread":"[^"]*"' regions.json)" '"thread":"th01:\u001b]0;title\u0007"'

# a trace path with a newline: one line each
cp -r t "t${NL}x"
"$LTT" check "t${NL}x" > check.out 2>&1 || { echo "ltt check failed"; fail=1; }
check "check: ok line" "$(cat check.out)" 't\x0ax: ok (4 tracefiles, 3 blocks, 4 events, 0 lost, 0 overwritten)'
rm "t${NL}x/control/interrupts"
"$LTT" check "t${NL}x" > check.out 2>&1 && { echo "ltt check of a damaged trace: exit 0"; fail=1; }
check "check: problem line" "$(cat check.out)" \
	'ltt check: t\x0ax/control/interrupts: missing (ltt always writes it, doc/format.md section 1)'
"$LTT" stats "t${NL}x" > stats.out 2>&1
check "stats: trace line" "$(sed -n 1p stats.out)" 'trace t\x0ax'
exit $fail
