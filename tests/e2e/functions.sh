#!/bin/sh
# SPDX-License-Identifier: MIT
# Function tracing (doc/recorder.md "Function tracing"): tests/func/func_tree.c's known call tree
# (100 a, each 10 b, each b one c; rec 50 deep; leaf_short 20; leaf_long 3, each >= 2 ms), built three
# ways: -finstrument-functions linked with libltt (LTT_TRACE + LTT_FUNCTIONS), -pg and -pg -mfentry not
# linked with it (ltt record --functions preloads libltt.so). For each:
# 1. ltt stats --functions gives exactly 100 a, 1000 b, 1000 c, 50 rec, 20 leaf_short, 3 leaf_long, c's
#    only caller is b (1000 times), b's is a; no exit without its entry, nothing unfinished; in the
#    call tree (ltt dump --format=calls) every call lasts at least the sum of its callees;
# 2. flight mode: the snapshot at exit has the same counts; a crash (SIGSEGV in crash_here): the crash
#    snapshot's calls still open are crash_here inside main, nothing else;
# then with the -finstrument-functions build: rotation (the chunks hold the same counts); the rules
# 'b,c' (exactly b and c), '*,-b' (no b, c called by a), depth 3 (main, tree, a, the outer rec, the
# leaves: no b, c), a 1.5 ms minimum duration (every recorded call lasts >= 1.5 ms, the 3 leaf_long
# are there); 3 threads (each its own tree, exact counts x3, nesting per thread); a SIGPROF handler
# every 200 us of CPU time (counts of the tree exact, the handler's callee called by it only, nesting
# intact, no exit without its entry, every handler run recorded: held while a hook runs, none skipped).
set -u
. "$SRCDIR/tests/e2e/lib/registry.sh"
dir="$BUILD/tests/func"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ltt-e2e-functions-XXXXXX") || exit 1
trap 'for b in cyg pg fentry; do reg_forget "$tmp/$b-crash"; done; rm -rf "$tmp"' EXIT
# Under make asan: the crash must reach libltt's SIGSEGV handler (as in flight_segv.sh), and the -pg
# builds get the sanitized libltt.so preloaded ahead of their own libasan (link order check off)
export ASAN_OPTIONS="handle_segv=0:verify_asan_link_order=0:${ASAN_OPTIONS:-}"
fail() { echo "FAIL: $*"; exit 1; }
command -v jq >/dev/null || fail "jq missing (make deps installs it)"
cd "$tmp" || exit 1	# a -pg program writes gmon.out (glibc's profiler) where it runs
for b in cyg pg fentry; do
	[ -x "$dir/func_tree_$b" ] || fail "$dir/func_tree_$b not built (make check builds it)"
done

# calls TRACE FUNCTION: its completed calls; caller TRACE FUNCTION CALLER: how many times CALLER called it
calls() { "$LTT" stats --functions --format=json "$1" | jq -r --arg f "$2" \
	'[.functions[] | select(.function == $f) | .calls] | add // 0'; }
caller() { "$LTT" stats --functions --format=json "$1" | jq -r --arg f "$2" --arg c "$3" \
	'[.functions[] | select(.function == $f) | .callers[$c] // 0] | add // 0'; }
callers() { "$LTT" stats --functions --format=json "$1" | jq -r --arg f "$2" \
	'[.functions[] | select(.function == $f) | .callers | keys[]] | join(",")'; }
field() { "$LTT" stats --functions --format=json "$1" | jq -r ".$2"; }
# nesting TRACE: each call lasts at least the sum of its callees, per thread (the calls format), give
# or take 2 us: a thread that moves to another CPU reads another CPU's TSC, and the TSCs of this VM's
# CPUs differ by up to a few thousand cycles (doc/format.md section 5); a call measured from entry on
# one CPU to exit on another can come out that much shorter than its callees measured on one CPU each
nesting() {
	"$LTT" dump --format=calls "$1" | awk '
	/^#/ { next }
	{
		line = $0; tid = line; sub(/^[^[]*\[ */, "", tid); sub(/\].*/, "", tid)
		body = line; sub(/^[^|]*\| /, "", body); ind = body; sub(/[^ ].*/, "", ind); d = length(ind) / 2
		dur = -1; if (line ~ /^ *[0-9]/) { dur = line; sub(/^ */, "", dur); sub(/ .*/, "", dur); dur += 0 }
		k = tid SUBSEP d
		if (body ~ /\(\) \{$/) { sum[tid SUBSEP (d + 1)] = 0; next }
		if (body ~ /^ *\} /) {
			if (dur + 2 < sum[tid SUBSEP (d + 1)]) { printf "line %d: %s lasts %.3f us, its callees %.3f us\n", NR, body, dur, sum[tid SUBSEP (d + 1)]; bad++ }
		}
		sum[k] += dur
	}
	END { exit bad ? 1 : 0 }'
}
tree_counts() {	# TRACE WHAT MULT
	for fc in a:100 b:1000 c:1000 rec:50 leaf_short:20 leaf_long:3 tree:1; do
		f=${fc%%:*}; n=$(( ${fc#*:} * $3 ))
		got=$(calls "$1" $f)
		[ "$got" = "$n" ] || fail "$2: $got calls of $f, expected $n"
	done
	[ "$(callers "$1" c)" = b ] || fail "$2: c's callers are $(callers "$1" c), expected b alone"
	[ "$(caller "$1" c b)" = $((1000 * $3)) ] || fail "$2: b called c $(caller "$1" c b) times"
	[ "$(callers "$1" b)" = a ] || fail "$2: b's callers are $(callers "$1" b), expected a alone"
	[ "$(field "$1" exits_without_entry)" = 0 ] || fail "$2: exits without their entry"
	nesting "$1" || fail "$2: a call shorter than its callees"
}

ulimit -c 0
for b in cyg pg fentry; do
	prog="$dir/func_tree_$b"
	run() {	# OUT MODE ARGS...
		out=$1 mode=$2; shift 2
		if [ $b = cyg ]; then
			LTT_TRACE="$out" LTT_MODE=$mode LTT_FUNCTIONS=1 "$prog" "$@" >/dev/null
		else
			"$LTT" record -o "$out" --mode $mode --functions -- "$prog" "$@" >/dev/null 2>"$tmp/err"
		fi
	}
	run "$tmp/$b" discard tree || fail "$b: exit status $?"
	tree_counts "$tmp/$b" "$b" 1
	[ "$(field "$tmp/$b" unfinished)" = 0 ] || fail "$b: unfinished calls"
	run "$tmp/$b-fl" flight tree || fail "$b flight: exit status $?"
	tree_counts "$tmp/$b-fl/snapshot-0001" "$b flight" 1
	run "$tmp/$b-crash" flight crash
	rc=$?
	[ $rc = 139 ] || fail "$b crash: exit status $rc, expected 139"
	snap="$tmp/$b-crash/snapshot-0001"
	[ -d "$snap" ] || fail "$b crash: no crash snapshot"
	tree_counts "$snap" "$b crash" 1
	# the calls open at the end close innermost first: crash_here, then main
	last=$("$LTT" dump --format=calls "$snap" | grep '(unfinished)' | sed 's/.*| *//' | tr '\n' ' ')
	[ "$last" = "} /* crash_here (unfinished) */ } /* main (unfinished) */ " ] ||
		fail "$b crash: the calls open at the crash are not crash_here in main: $last"
	echo "ok: $b: exact counts, callers and nesting in discard and flight modes; the crash's last call is crash_here"
done

prog="$dir/func_tree_cyg"
LTT_TRACE="$tmp/rot" LTT_ROTATE_SIZE=1M LTT_FUNCTIONS=1 "$prog" tree || fail "rotation: exit status $?"
tree_counts "$tmp/rot" rotation 1

LTT_TRACE="$tmp/r1" LTT_FUNCTIONS='b,c' "$prog" tree || fail "rules: exit status $?"
[ "$(calls "$tmp/r1" b)" = 1000 ] && [ "$(calls "$tmp/r1" c)" = 1000 ] || fail "'b,c': b or c not 1000 calls"
[ "$(field "$tmp/r1" 'functions | length')" = 2 ] || fail "'b,c': other functions recorded"
LTT_TRACE="$tmp/r2" LTT_FUNCTIONS='*,-b' "$prog" tree || fail "rules: exit status $?"
[ "$(calls "$tmp/r2" b)" = 0 ] || fail "'*,-b': b recorded"
[ "$(calls "$tmp/r2" c)" = 1000 ] && [ "$(calls "$tmp/r2" a)" = 100 ] || fail "'*,-b': a or c missing"
[ "$(callers "$tmp/r2" c)" = a ] || fail "'*,-b': c's callers $(callers "$tmp/r2" c), expected a"
LTT_TRACE="$tmp/r3" LTT_FUNCTIONS=1 LTT_FUNCTIONS_DEPTH=3 "$prog" tree || fail "depth: exit status $?"
for fc in main:1 tree:1 a:100 rec:1 leaf_short:20 leaf_long:3 b:0 c:0; do
	[ "$(calls "$tmp/r3" ${fc%%:*})" = ${fc#*:} ] || fail "depth 3: $(calls "$tmp/r3" ${fc%%:*}) calls of ${fc%%:*}, expected ${fc#*:}"
done
LTT_TRACE="$tmp/r4" LTT_FUNCTIONS=1 LTT_FUNCTIONS_MIN_NS=1500000 "$prog" tree || fail "min: exit status $?"
[ "$(calls "$tmp/r4" leaf_long)" = 3 ] || fail "min 1.5 ms: $(calls "$tmp/r4" leaf_long) leaf_long"
short=$("$LTT" stats --functions --format=json "$tmp/r4" | jq '[.functions[] | select(.min_ns < 1500000)] | length')
[ "$short" = 0 ] || fail "min 1.5 ms: $short functions with a call shorter than that"
[ "$("$LTT" dump --event func.entry "$tmp/r4" | wc -l)" = 0 ] || fail "min 1.5 ms: func.entry events recorded"
nesting "$tmp/r4" || fail "min 1.5 ms: nesting"
echo "ok: rotation; rules 'b,c' and '*,-b', depth 3, minimum duration 1.5 ms give exactly the expected calls"

LTT_TRACE="$tmp/th" LTT_FUNCTIONS=1 "$prog" threads || fail "threads: exit status $?"
tree_counts "$tmp/th" threads 3
[ "$(field "$tmp/th" threads)" = 4 ] || fail "threads: $(field "$tmp/th" threads) threads, expected 4"
handled=$(LTT_TRACE="$tmp/sig" LTT_FUNCTIONS=1 "$prog" signal) || fail "signal: exit status $?"
handled=${handled#handled }
tree_counts "$tmp/sig" signal 20
[ "$(callers "$tmp/sig" sig_leaf)" = sig_handler ] || fail "signal: sig_leaf's callers $(callers "$tmp/sig" sig_leaf)"
h=$(calls "$tmp/sig" sig_handler)
[ "$h" = "$handled" ] && [ "$(calls "$tmp/sig" sig_leaf)" = "$h" ] ||
	fail "signal: $h sig_handler calls, $(calls "$tmp/sig" sig_leaf) sig_leaf, $handled signals handled"
echo "ok: 3 threads and a signal handler ($h of $handled handler runs recorded: one that lands in a hook runs when the hook ends) keep the nesting"

# a binary that is gone: its functions are MODULE+0xOFFSET (the offset in its file: the symbol's
# value in this PIE, whose code is mapped at its file offset)
cp "$prog" "$tmp/gone" || fail "cp"
LTT_TRACE="$tmp/gone-t" LTT_FUNCTIONS=1 "$tmp/gone" tree || fail "gone: exit status $?"
off=$(nm "$tmp/gone" | awk '$2 == "T" && $3 == "a" { sub(/^0+/, "", $1); print $1 }')
rm -f "$tmp/gone"
[ "$(calls "$tmp/gone-t" "gone+0x$off")" = 100 ] ||
	fail "missing binary: no 100 calls of gone+0x$off ($("$LTT" stats --functions "$tmp/gone-t" | sed -n 3,6p))"
echo "ok: a missing binary's functions are named by module and offset"

# ltt sql's calls table and the exports: nested slices (Perfetto, Chrome JSON), events (CTF)
T="$tmp/cyg"
sq() { "$LTT" sql "$T" --format=csv -e "$1" | tail -n +2; }
[ "$(sq "SELECT count(*) FROM calls WHERE function = 'c' AND caller = 'b'")" = 1000 ] || fail "sql: c called by b"
[ "$(sq "SELECT group_concat(DISTINCT depth) FROM calls WHERE function = 'c'")" = 4 ] || fail "sql: c's depth"
[ "$(sq "SELECT count(*) FROM calls")" = 2175 ] || fail "sql: $(sq "SELECT count(*) FROM calls") calls, expected 2175"
[ "$(sq "SELECT count(*) FROM calls WHERE self_ns > dur_ns OR unfinished != 0")" = 0 ] || fail "sql: self > duration"
[ "$(sq "SELECT count(*) FROM calls p WHERE dur_ns + 2000 < (SELECT coalesce(sum(c.dur_ns), 0) FROM calls c WHERE c.tid = p.tid AND c.depth = p.depth + 1 AND c.ts_ns >= p.ts_ns AND c.ts_ns < p.ts_ns + p.dur_ns)")" = 0 ] ||
	fail "sql: a call shorter than its callees"
"$LTT" export --format=chrome-json -o "$tmp/c.json" "$T" >/dev/null || fail "chrome-json export"
jq -e '[.traceEvents[] | select(.ph == "B" and .cat == "func" and .name == "c")] | length == 1000' "$tmp/c.json" >/dev/null ||
	fail "chrome-json: not 1000 slices of c"
jq -e '([.traceEvents[] | select(.ph == "B" and .cat == "func")] | length) == ([.traceEvents[] | select(.ph == "E")] | length)' \
	"$tmp/c.json" >/dev/null || fail "chrome-json: begins and ends differ"
"$LTT" export --format=chrome-json -o "$tmp/m.json" "$tmp/r4" >/dev/null || fail "chrome-json export (min)"
jq -e '[.traceEvents[] | select(.ph == "X" and .name == "leaf_long" and .dur >= 1500)] | length == 3' "$tmp/m.json" >/dev/null ||
	fail "chrome-json: the 3 leaf_long calls of minimum-duration mode are not complete slices"
"$LTT" export --format=perfetto -o "$tmp/c.pftrace" "$T" >/dev/null || fail "perfetto export"
P="$SRCDIR/tests/export"
protoc --proto_path="$P" --decode=perfetto.protos.Trace perfetto.proto < "$tmp/c.pftrace" > "$tmp/c.txt" ||
	fail "protoc cannot decode the Perfetto export"
sum=$(awk -f "$P/check_perfetto.awk" "$tmp/c.txt" | tail -n 1)
case "$sum" in *" begins 2175 ends 2175 "*"problems 0") ;; *) fail "perfetto: $sum" ;; esac
"$LTT" export --format=ctf -o "$tmp/c.ctf" "$T" >/dev/null || fail "ctf export"
n=$(babeltrace2 "$tmp/c.ctf" 2>/dev/null | grep -c 'func\.entry')
[ "$n" = 2175 ] || fail "ctf: babeltrace2 reads $n func.entry events, expected 2175"
echo "ok: ltt sql's calls table, Perfetto and Chrome JSON nested slices, CTF events"
# ltt stats --functions --graph b: b's callers and callees, exact
g=$("$LTT" stats --functions --graph b --format=json "$T" | jq -c '[.calls, [.callers[] | [.function, .calls]], [.callees[] | [.function, .calls]]]')
[ "$g" = '[1000,[["a",1000]],[["c",1000]]]' ] || fail "graph of b: $g"
"$LTT" stats --functions --graph b "$T" | grep -q '^    .*  *1000  c$' || fail "graph of b (text): $("$LTT" stats --functions --graph b "$T")"
echo "ok: ltt stats --functions --graph b: called by a 1000 times, calls c 1000 times"
