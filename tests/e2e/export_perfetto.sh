#!/bin/sh
# SPDX-License-Identifier: MIT
# ltt export --format=perfetto, checked by a real consumer: every export decodes with
# `protoc --decode` against tests/export/perfetto.proto (Perfetto's field numbers) with no unknown
# field, and tests/export/check_perfetto.awk finds tracks described before use, every interned id
# defined, begin/end balanced and times non-decreasing per track; its counts of slices and instants
# equal ltt dump's events. Traces: the app trace of tests/progs/app_golden.c (regions, counters,
# named threads, a child), the trace set of tests/progs/app_child.c (flows to the children's
# processes), the synthetic trace of every type (tests/golden/reader/types.*: fields flattened as
# a.b[2], lost events and overwritten blocks on the lost-events track), in both byte orders.
set -u
. "$SRCDIR/tests/e2e/lib/common.sh"
P="$SRCDIR/tests/export"
fail=0
check() { [ "$2" = "$3" ] || { echo "$1: got '$2', want '$3'"; fail=1; }; }
# decode FILE: FILE.txt (protoc's text) and FILE.sum (the checker's counts)
decode() {
	protoc --proto_path="$P" --decode=perfetto.protos.Trace perfetto.proto < "$1" > "$1.txt" 2> "$1.err" ||
		{ echo "protoc cannot decode $1:"; cat "$1.err"; fail=1; return; }
	awk -f "$P/check_perfetto.awk" "$1.txt" > "$1.sum"
	grep '^check:' "$1.sum" && fail=1
	tail -n 1 "$1.sum"
}
count() { tail -n 1 "$1.sum" | awk -v k="$2" '{ for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }'; }

# the app trace
(cd "$BUILD/tests/progs" && LTT_TRACE="$work/trace" ./app_golden >/dev/null)  # exits 3 on purpose
[ -d trace ] || { echo "app_golden wrote no trace"; exit 1; }
"$LTT" export --format=perfetto trace || { echo "export failed"; exit 1; }
decode trace.pftrace
"$LTT" dump trace > dump.txt || exit 1
all=$(wc -l < dump.txt | tr -d ' ')
enter=$(grep -c '^app.region_enter:' dump.txt)
leave=$(grep -c '^app.region_leave:' dump.txt)
child=$(grep -c '^app.child_exit:' dump.txt)
counters=$(grep -c -e '^app.data_int:' -e '^app.counter:' dump.txt)
check "slices" "$(count trace.pftrace begins)" $((enter + child))
check "slice ends" "$(count trace.pftrace ends)" $((leave + child))
check "instants" "$(count trace.pftrace instants)" $((all - enter - leave - child))
check "counter values" "$(count trace.pftrace counters)" "$counters"
check "process" "$(grep -A2 'process {' trace.pftrace.txt | sed -n 's/.*process_name: //p' | tail -n 1)" '"golden"'
# thread names, the last description of each tid: main (the program) and the two named threads
check "threads" "$(awk '/thread {/ { t = 1 } t && /tid:/ { tid = $2 } t && /thread_name:/ { n[tid] = $2; t = 0 }
	END { for (k in n) print n[k] }' trace.pftrace.txt | sort | tr '\n' ' ')" \
	'"app_golden" "preload_thread" "preload_thread" '
grep -q 'name: "index"' trace.pftrace.txt || { echo "no category 'index' interned"; fail=1; }
grep -q 'name: "do_read_index"' trace.pftrace.txt || { echo "no region label 'do_read_index' interned"; fail=1; }

# the trace set: three processes, a flow from each child slice to the child's process
mkdir set && (cd "$BUILD/tests/progs" && LTT_TRACE="$work/set" ./app_child >/dev/null 2>&1)
"$LTT" export --format=perfetto -o set.pftrace set/* || { echo "export of the set failed"; fail=1; }
decode set.pftrace
check "flows of the set" "$(count set.pftrace flows)" 2
check "processes of the set" "$(grep -A1 'process {' set.pftrace.txt | grep pid: | sort -u | wc -l | tr -d ' ')" 3
check "events of the set" $(($(count set.pftrace instants) + $(count set.pftrace begins))) \
	$(($("$LTT" dump set/* | wc -l) - $("$LTT" dump --event region_leave set/* | wc -l)))

# every type, both byte orders: the flattened fields and their values, lost events
for e in little big; do
	rm -rf ty ty.pftrace*
	"$BUILD/tests/progs/mktrace" -o ty -e $e -c 2 -b 4096 -f "$G/types.xml" -s "$G/types.script" || exit 1
	"$LTT" export --format=perfetto ty || { echo "export of the types trace ($e) failed"; fail=1; }
	decode ty.pftrace
	check "instants ($e)" "$(count ty.pftrace instants)" "$("$LTT" dump ty | wc -l | tr -d ' ')"
	# lost: two events_lost records and the summary block of 4 overwritten blocks
	check "lost instants ($e)" "$(count ty.pftrace lost)" 3
	for n in u8 i16 u32 i64 l m f d s e 'arr[0].lo' 'arr[2].hi' 'seq[1]' u.num u.str inner.hi; do
		grep -qF "name: \"$n\"" ty.pftrace.txt || { echo "no annotation '$n' ($e)"; fail=1; }
	done
	for v in 'uint_value: 255' 'int_value: -2' 'uint_value: 4000000000' 'int_value: -9000000000000000000' \
		'double_value: 1.5' 'double_value: -0.25' 'string_value: "TEN"' 'string_value: "bc"' \
		'string_value: "union string"' 'int_value: -32768' 'uint_value: 4294967295' \
		'string_value: "buffer_full"' 'string_value: "nested"' 'string_value: "overwritten"' 'uint_value: 40'; do
		grep -q "$v\$" ty.pftrace.txt || { echo "no value '$v' ($e)"; fail=1; }
	done
done
exit $fail
