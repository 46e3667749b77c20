# SPDX-License-Identifier: MIT
# Rows of ltt export --format=html (issue 40; doc/viewing.md "Levels of detail"), sourced by
# bench/run.sh: the export's wall time per 1 M events and the page's size (B/event column; the note
# gives the page's MiB), on two traces of $EVENTS events, against chrome-json (the other format a
# browser opens) on the same trace:
#   html-int3       the int3 trace of the reading rows ($LTT_READ): instants only (marks: 1 Mi kept,
#                   a uniform sample, the rest in the summaries)
#   html-regions    bench_region's trace, $EVENTS / 2 region enter+leave pairs (intervals: the
#                   longest 2 Mi kept whole)
# The issue's goal: 10 M events give a page of at most 40 MiB.
H="HTML export of $EVENTS events (wall s per 1 M events, lower is better; B/event: the output's)"
HTML_INT3= HTML_INT3_N=0 HTML_INT3_NA= HTML_REG= HTML_REG_N=0 HTML_REG_NA=

html_traces() {
	if [ -n "$LTT_READ" ] && [ -z "$LTT_READ_NA" ] && [ -d "$LTT_READ" ]; then
		HTML_INT3=$LTT_READ HTML_INT3_N=$LTT_READ_EVENTS
	elif [ -x "$LTT_PROG" ]; then
		HTML_INT3=$W/html-int3
		rm -rf "$HTML_INT3"
		LTT_TRACE=$HTML_INT3 LTT_MODE=discard LTT_BLOCK_SIZE=$BLOCK LTT_BLOCKS=${READ_BLOCKS:-512} \
			"$LTT_PROG" int3 1 "$EVENTS" > "$T/out" 2> "$T/err" ||
			HTML_INT3_NA="bench_ltt failed: $(head -n 1 "$T/err")"
		HTML_INT3_N=$EVENTS
	else
		HTML_INT3_NA="bench_ltt not built (see $B/build.log)"
	fi
	if [ -x "$REGION_PROG" ]; then
		HTML_REG=$W/html-regions
		rm -rf "$HTML_REG"
		LTT_TRACE=$HTML_REG LTT_BLOCK_SIZE=$BLOCK LTT_BLOCKS=${READ_BLOCKS:-512} "$REGION_PROG" $((EVENTS / 2)) \
			> "$T/out" 2> "$T/err" || HTML_REG_NA="bench_region failed: $(head -n 1 "$T/err")"
		HTML_REG_N=$EVENTS
	else
		HTML_REG_NA="bench_region not built (see $B/build.log)"
	fi
}

# run_html FORMAT TRACE EVENTS NA: RUN_VAL wall s per 1 M events, RUN_BPE the output's bytes per event
run_html() {
	[ -z "$4" ] || { RUN_ERR=$4; return; }
	rm -f "$W/html.out"
	times > "$T/times0"
	t0=$(now_ns)
	"$LTT" export --format="$1" -o "$W/html.out" "$2" > /dev/null 2> "$T/err" ||
		{ RUN_ERR="ltt export --format=$1 failed: $(head -n 1 "$T/err")"; return; }
	t1=$(now_ns)
	times > "$T/times1"
	size=$(wc -c < "$W/html.out")
	RUN_VAL=$(awk -v n="$3" -v d="$((t1 - t0))" 'BEGIN { printf "%.3f", d / 1e9 / (n / 1e6) }')
	RUN_CPU=$(awk -v n="$3" -v a="$(children_cpu "$T/times0")" -v b="$(children_cpu "$T/times1")" \
		'BEGIN { if (b > a) printf "%.3f", (b - a) / (n / 1e6) }')
	RUN_BPE=$(awk -v s="$size" -v n="$3" 'BEGIN { printf "%.2f", s / n }')
	RUN_NOTE=$(awk -v s="$size" 'BEGIN { printf "%.1f MiB", s / 1048576 }')
	rm -f "$W/html.out"
}

if want html-; then
	html_traces
	measure html-int3-chrome "$H" "int3: ltt export --format=chrome-json" s - \
		run_html chrome-json "$HTML_INT3" "$HTML_INT3_N" "$HTML_INT3_NA"
	measure html-int3 "$H" "int3: ltt export --format=html" s html-int3-chrome \
		run_html html "$HTML_INT3" "$HTML_INT3_N" "$HTML_INT3_NA"
	measure html-regions-chrome "$H" "regions: ltt export --format=chrome-json" s - \
		run_html chrome-json "$HTML_REG" "$HTML_REG_N" "$HTML_REG_NA"
	measure html-regions "$H" "regions: ltt export --format=html" s html-regions-chrome \
		run_html html "$HTML_REG" "$HTML_REG_N" "$HTML_REG_NA"
	[ "$HTML_INT3" = "$W/html-int3" ] && rm -rf "$HTML_INT3"
	rm -rf "$HTML_REG"
fi
