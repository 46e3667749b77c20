#!/bin/sh
# SPDX-License-Identifier: MIT
# ltt export --format=html in a real browser: headless chromium opens the page from the disk with the
# network emulated offline (and a dead proxy: any request is counted and fails the test), through
# tests/e2e/lib/html_view.js, which drives it with real mouse, wheel and key events.
# - a Trace2 trace of known times (mktrace: 1 cycle = 1 ns): two named threads, nested regions, a loss:
#   the screenshot has drawn lanes; the page names the process and threads; the wheel zooms about the
#   pointer; clicking read_file and searching solve give their exact start, duration, depth, thread
#   and fields; the keys zoom and fit; a drag pans by its pixels; the summary follows the visible range
#   (regions clipped to it) and says the 7 lost events; the same page opened by Firefox (firefox-esr
#   headless, no network): ready, lanes named and drawn;
# - the kernel trace of tests/e2e/sched_kernel.sh: thread lanes named by the kernel, CPU lanes, and the
#   summary's time by state per thread equal to ltt stats --sched's figures;
# - function calls: tests/func/func_tree.c's known call tree (-pg) under ltt record --functions: the
#   summary counts exactly 100 a, 1000 b, 1000 c, 3 leaf_long, their time ltt stats --functions' total;
# - stack samples (tests/progs/profile_calls.c chains): every sample with a known stack is counted, and
#   clicking one shows its stack, innermost c;
# - levels of detail: 4000 regions of distinct lengths with a budget of 1000 intervals: the longest
#   kept, every dropped one shorter than every kept one.
set -u
. "$SRCDIR/tests/e2e/lib/common.sh"
: "${NPM_DIR:?}" "${NPM_PKGS:?}"
sh "$SRCDIR/mk/npm.sh" "$NPM_DIR" $NPM_PKGS || exit 1	# node (Debian's nodejs, with npm)
VIEW="$SRCDIR/tests/e2e/lib/html_view.js"
# under make asan the -pg program gets the sanitized libltt.so preloaded ahead of its own libasan
export ASAN_OPTIONS="verify_asan_link_order=0:${ASAN_OPTIONS:-}"
# has FILE LINE: FILE holds LINE exactly
has() { grep -qxF -- "$2" "$1" || { echo "missing: '$2' in $1:"; sed 's/^/    /' "$1" | head -n 60; fail=1; }; }
drawn() { awk '/^pixels/ { print $5 }' "$1"; }

cat > app.script <<'END'
ev 0 1000 app.cmd_name 101 "t.c" 1 "demo" "demo"
ev 0 1000 app.thread_start 101 "t.c" 1 0 "main"
ev 1 1100 app.thread_start 102 "t.c" 2 1 "worker"
ev 0 2000 app.region_enter 101 "t.c" 10 0 "load" "parse" ""
ev 0 2500 app.region_enter 101 "t.c" 11 1 "load" "read_file" ""
ev 0 1502500 app.region_leave 101 "t.c" 12 1 "load" "read_file" ""
ev 1 3000 app.region_enter 102 "w.c" 20 0 "compute" "solve" "x"
ev 1 2003000 app.region_leave 102 "w.c" 21 0 "compute" "solve" "x"
ev 0 4002000 app.region_leave 101 "t.c" 13 0 "load" "parse" ""
lost 1 2500000 7 0
ev 1 5000000 app.region_enter 102 "w.c" 22 0 "compute" "check" ""
ev 1 5250000 app.region_leave 102 "w.c" 23 0 "compute" "check" ""
END
"$MK" -o app -b 4096 -c 2 -f "$SRCDIR/eventdefs/app.xml" -s app.script || exit 1
"$LTT" export --format=html app 2> app.err || { echo "export failed:"; cat app.err; exit 1; }
grep -q 'wrote app.html (html)' app.err || { echo "no 'wrote' line:"; cat app.err; fail=1; }
node "$VIEW" app.html app.png shot names wheel click:read_file details search:solve details \
	key:0 key:w key:0 summary focus:'main (101)' summary key:w summary drag:100 > app.out 2>&1 ||
	{ echo "the viewer failed:"; cat app.out; exit 1; }
[ "$(drawn app.out)" -gt 3000 ] || { echo "app.png: lanes not drawn"; cat app.out; fail=1; }
for l in 'proc demo [1]' 'lane main (101)' 'lane worker (102)' 'zoom 5249000 2135524 fixed' \
	'detail name read_file' 'detail kind region' 'detail lane main (101)' 'detail start_ns 1500' \
	'detail dur_ns 1500000' 'detail depth 1' 'detail field-category load' 'detail field-line 11' \
	'detail state not recorded (no kernel events)' 'found 1 of 1' 'detail name solve' 'detail lane worker (102)' \
	'detail start_ns 2000' 'detail dur_ns 2000000' 'detail depth 0' 'detail field-msg x' \
	'view 0 5249000' 'view 524900 4724100' 'lost 7' 'focus worker (102)' 'top regions solve 2000000 1' \
	'top regions check 250000 1' 'focus main (101)' 'top regions parse 4000000 1' \
	'top regions read_file 1500000 1' 'top regions parse 3476100 1' 'top regions read_file 976600 1' \
	'drag fixed' 'requests 0'; do
	has app.out "$l"
done

# the same page in Firefox (Debian's firefox-esr, headless, driven through WebDriver BiDi by
# lib/firefox_view.py; a fresh profile whose proxy is a dead port): ready, its lanes named, drawn
command -v firefox-esr > /dev/null || { echo "FAIL: firefox-esr missing (make deps)"; exit 1; }
/usr/bin/python3 "$SRCDIR/tests/e2e/lib/firefox_view.py" app.html ff.png > ff.out 2>&1 ||
	{ echo "Firefox failed:"; cat ff.out; exit 1; }
for l in 'lane main (101)' 'lane worker (102)' ready; do has ff.out "$l"; done
node "$SRCDIR/tests/e2e/lib/png_drawn.js" ff.png 215 60 795 790 > ffpx.out || { cat ffpx.out; fail=1; }
[ "$(drawn ffpx.out)" -gt 3000 ] || { echo "ff.png: lanes not drawn by Firefox"; cat ffpx.out; fail=1; }

# kernel states and CPU lanes: the summary's time by state is ltt stats --sched's
sed -n '/^cat > script/,/^END/p' "$SRCDIR/tests/e2e/sched_kernel.sh" | sed '1d;$d' > k.script
"$MK" -o k -c 2 -f "$SRCDIR/eventdefs/kernel.xml" -f "$SRCDIR/eventdefs/app.xml" -s k.script || exit 1
"$LTT" export --format=html k 2>/dev/null || { echo "export of the kernel trace failed"; exit 1; }
node "$VIEW" k.html k.png shot names summary click:spin details > k.out 2>&1 || { echo "the viewer failed:"; cat k.out; exit 1; }
[ "$(drawn k.out)" -gt 3000 ] || { echo "k.png: lanes not drawn"; cat k.out; fail=1; }
"$LTT" stats --sched --format=json k > s.json || exit 1
for tid in 100 200 300; do
	name=$(jq -r ".threads[] | select(.tid == $tid) | .name" s.json)
	has k.out "lane $name ($tid)"
	has k.out "state $name ($tid) on CPU $(jq ".threads[] | select(.tid == $tid) | .user_ns + .syscall_ns + .trap_ns" s.json)"
	has k.out "state $name ($tid) interrupt $(jq ".threads[] | select(.tid == $tid) | .irq_ns + .softirq_ns" s.json)"
	has k.out "state $name ($tid) runnable $(jq ".threads[] | select(.tid == $tid) | .runnable_ns" s.json)"
	has k.out "state $name ($tid) sleeping $(jq ".threads[] | select(.tid == $tid) | .sleeping_ns" s.json)"
done
for l in 'lane CPU 0' 'lane CPU 1' 'proc CPUs' 'detail name spin' 'detail dur_ns 7500' 'detail state user' \
	'state prog (100) on CPU 27000' 'state prog (100) sleeping 6000' 'requests 0'; do
	has k.out "$l"
done

# function calls (a flame per thread) of a known call tree
( cd "$work" && "$LTT" record -o "$work/f" --functions -- "$BUILD/tests/func/func_tree_pg" tree ) \
	> f.rec 2>&1 || { echo "ltt record failed:"; cat f.rec; exit 1; }
"$LTT" export --format=html f 2>/dev/null || { echo "export of the function trace failed"; exit 1; }
node "$VIEW" f.html f.png summary shot > f.out 2>&1 || { echo "the viewer failed:"; cat f.out; exit 1; }
"$LTT" stats --functions --format=json f > fs.json || exit 1
total() { jq -r --arg f "$1" '[.functions[] | select(.function == $f) | .total_ns] | add' fs.json; }
for fc in a:100 b:1000 c:1000 leaf_long:3; do
	fn=${fc%:*}
	has f.out "top functions $fn $(total "$fn") ${fc#*:}"
done
has f.out "total functions $(jq .calls fs.json)"
[ "$(drawn f.out)" -gt 3000 ] || { echo "f.png: lanes not drawn"; cat f.out; fail=1; }

# stack samples: tests/progs/profile_calls.c spins in a -> b -> c, then d -> c
LTT_TRACE="$work/p" LTT_STACK_SAMPLE_HZ=1000 "$BUILD/tests/progs/profile_calls" chains 60 > p.rec 2>&1 ||
	{ echo "profile_calls failed:"; cat p.rec; exit 1; }
"$LTT" export --format=html p 2>/dev/null || { echo "export of the profile failed"; exit 1; }
node "$VIEW" p.html p.png summary mark:c details > p.out 2>&1 || { echo "the viewer failed:"; cat p.out; exit 1; }
"$LTT" stats --profile p > ps.txt || exit 1
n=$(sed -n 's/^profile: \([0-9]*\) stack samples.*/\1/p' ps.txt)
u=$(sed -n 's/.* \([0-9]*\) samples without a known stack.*/\1/p' ps.txt)
[ "${n:-0}" -gt 10 ] || { echo "profile_calls: ${n:-no} stack samples"; cat ps.txt; fail=1; }
has p.out "total sampled $(( ${n:-0} - ${u:-0} ))"
has p.out "detail kind sample"
grep -A 30 '^detail stack' p.out | grep -qx 'c' || { echo "the sample's stack does not end in c:"; cat p.out; fail=1; }

# levels of detail: regions of 10, 20, ... 40000 ns in a shuffled order, 1000 intervals kept at most
awk 'BEGIN { t = 1000; srand(7); for (i = 1; i <= 4000; i++) p[i] = i;
	for (i = 4000; i > 1; i--) { j = int(rand() * i) + 1; x = p[i]; p[i] = p[j]; p[j] = x }
	for (i = 1; i <= 4000; i++) { d = p[i] * 10;
		printf "ev 0 %d app.region_enter 7 \"l.c\" 1 0 \"c\" \"r%d\" \"\"\n", t, p[i];
		printf "ev 0 %d app.region_leave 7 \"l.c\" 1 0 \"c\" \"r%d\" \"\"\n", t + d, p[i]; t += d + 5 } }' > lod.script
"$MK" -o lod -b 65536 -f "$SRCDIR/eventdefs/app.xml" -s lod.script || exit 1
LTT_HTML_MAX_SPANS=1000 "$LTT" export --format=html lod 2>/dev/null || { echo "export of lod failed"; exit 1; }
node "$VIEW" lod.html lod.png lod shot > lod.out 2>&1 || { echo "the viewer failed:"; cat lod.out; exit 1; }
set -- $(grep '^lod ' lod.out)
# lod total T dropped D dropped_max_ns M kept K kept_min_ns N
[ "${3:-}" = 4000 ] || { echo "lod: $*: not 4000 intervals"; fail=1; }
[ "$(( ${5:-0} + ${9:-0} ))" = 4000 ] || { echo "lod: $*: kept + dropped is not 4000"; fail=1; }
[ "${9:-0}" -le 1000 ] && [ "${9:-0}" -ge 500 ] || { echo "lod: $*: kept not within 500..1000"; fail=1; }
[ "${7:-0}" -lt "${11:-0}" ] || { echo "lod: $*: a dropped interval is longer than a kept one"; fail=1; }
[ "${11:-0}" = $(( (4000 - ${9:-0} + 1) * 10 )) ] || { echo "lod: $*: not the longest kept"; fail=1; }
[ "$(drawn lod.out)" -gt 1000 ] || { echo "lod.png: lanes not drawn"; cat lod.out; fail=1; }
exit $fail
