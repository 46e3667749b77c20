#!/bin/sh
# SPDX-License-Identifier: MIT
# ltt export --format=svg, rendered by a real browser: headless chromium takes a screenshot of the SVG
# of the app trace (tests/progs/app_golden.c) and tests/progs/png_colors counts its colours: not
# blank, the region bars drawn in their colour; the SVG names the threads. The synthetic trace of
# tests/golden/reader/types.script shows its lost events in red; a 1-hour trace gets an axis in
# minutes; a trace of 10 M events gives an SVG under 2 MB that still renders, and its export, interrupted,
# leaves nothing.
set -u
. "$SRCDIR/tests/e2e/lib/common.sh"
PNG="$BUILD/tests/progs/png_colors"
fail=0
check() { [ "$2" = "$3" ] || { echo "$1: got '$2', want '$3'"; fail=1; }; }
# shot FILE.svg: FILE.png, a 1200x800 screenshot by headless chromium
shot() {
	prof=$(mktemp -d)
	timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync --user-data-dir="$prof" \
		--screenshot="$work/${1%.svg}.png" --window-size=1200,800 "file://$work/$1" > "$1.log" 2>&1
	rm -rf "$prof"
	[ -s "${1%.svg}.png" ] || { echo "chromium made no screenshot of $1:"; tail -n 5 "$1.log"; fail=1; }
}
# colours FILE.png RRGGBB: "COLOURS PIXELS_OF_RRGGBB"
colours() { "$PNG" "$1" "$2" | awk '{ print $2, $3 }'; }

(cd "$BUILD/tests/progs" && LTT_TRACE="$work/trace" ./app_golden >/dev/null)  # exits 3 on purpose
"$LTT" export --format=svg trace || { echo "export failed"; exit 1; }
shot trace.svg
set -- $(colours trace.png 3b6fb6)
[ "${1:-0}" -gt 2 ] || { echo "trace.png is blank ($1 colours)"; fail=1; }
[ "${2:-0}" -gt 0 ] || { echo "no region bar (#3b6fb6) in trace.png"; fail=1; }
for t in 'preload_thread (' 'app_golden (' 'golden'; do
	grep -qF "$t" trace.svg || { echo "the SVG does not name '$t'"; fail=1; }
done

# lost events in red, a 1-hour trace in minutes
"$MK" -o ty -c 2 -b 4096 -f "$SRCDIR/tests/golden/reader/types.xml" -s "$SRCDIR/tests/golden/reader/types.script" || exit 1
"$LTT" export --format=svg ty || fail=1
grep -q '5 lost' ty.svg || { echo "ty.svg does not count the 5 lost events"; fail=1; }
shot ty.svg
set -- $(colours ty.png dd0000)
[ "${2:-0}" -gt 0 ] || { echo "no lost-event mark (#dd0000) in ty.png"; fail=1; }
printf 'ev 0 1000 types.empty\nev 0 3600000001000 types.empty\n' | "$MK" -o hour -b 4096 -f "$SRCDIR/tests/golden/reader/types.xml" -s - || exit 1
"$LTT" export --format=svg hour || fail=1
grep -q '>+10 min<' hour.svg || { echo "no '+10 min' tick on the 1-hour axis"; fail=1; }
grep -q '1 h, 2 events' hour.svg || { echo "the 1-hour trace is not said to last 1 h"; fail=1; }

# 10 M events: under 2 MB, still a picture
"$MK" -o big -c 2 -b 1048576 -n 10000000 || exit 1
"$LTT" export --format=svg big || { echo "export of 10 M events failed"; fail=1; }
size=$(wc -c < big.svg)
[ "$size" -lt 2097152 ] || { echo "big.svg is $size bytes"; fail=1; }
grep -q '10000000 events' big.svg || { echo "big.svg does not count 10000000 events"; fail=1; }
# an interrupted export leaves nothing: stopped once ltt runs, SIGTERM, continued (whether the signal
# lands while the trace is opened or while events are exported, no OUT and no temporary file stay;
# SIGTERM: a background job of sh ignores SIGINT)
mkdir intr
(cd intr && exec "$LTT" export --format=perfetto ../big) 2> intr.err &
pid=$!
while ! tr '\0' ' ' < /proc/$pid/cmdline 2>/dev/null | grep -q 'export --format'; do :; done	# ltt runs
kill -STOP $pid 2>/dev/null; kill -TERM $pid 2>/dev/null; kill -CONT $pid 2>/dev/null
wait $pid; st=$?
check "exit of the interrupted export" "$st" 143
[ -z "$(ls -A intr)" ] || { echo "the interrupted export left:"; ls -A intr; fail=1; }
rm -rf big
shot big.svg
set -- $(colours big.png 777777)
[ "${1:-0}" -gt 2 ] || { echo "big.png is blank"; fail=1; }
[ "${2:-0}" -gt 0 ] || { echo "no event density (#777777) in big.png"; fail=1; }
exit $fail
