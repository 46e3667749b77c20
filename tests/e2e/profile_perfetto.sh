#!/bin/sh
# SPDX-License-Identifier: MIT
# Stack samples in ltt export --format=perfetto (tools/export/pf_samples.c): a trace of
# tests/progs/profile_calls sampled at 1000 Hz exports; protoc decodes it against
# tests/export/perfetto.proto with no unknown field and tests/export/check_perfetto.awk finds no
# problem; there is one PerfSample per stack sample ltt stats --profile decodes, each with the
# program's pid and the sampled thread's tid; every callstack, frame, function name, mapping and path
# it uses is interned in that packet or an earlier one; a, b, c and d are among the function names,
# and a callstack holds main, a, b, c bottom first.
set -u
: "${BUILD:?}" "${SRCDIR:?}" "${LTT:?}"
command -v protoc >/dev/null || { echo "protoc missing (make deps installs protobuf-compiler)"; exit 1; }
tmp=$(mktemp -d /tmp/ltt-e2e-ppf.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

LTT_TRACE="$tmp/t" LTT_STACK_SAMPLE_HZ=1000 "$BUILD/tests/progs/profile_calls" chains 150 || fail "profile_calls"
"$LTT" export --format=perfetto -o "$tmp/t.pftrace" "$tmp/t" || fail "ltt export"
protoc --proto_path="$SRCDIR/tests/export" --decode=perfetto.protos.Trace perfetto.proto \
	< "$tmp/t.pftrace" > "$tmp/t.txt" 2> "$tmp/err" || { cat "$tmp/err"; fail "protoc cannot decode"; }
awk -f "$SRCDIR/tests/export/check_perfetto.awk" "$tmp/t.txt" > "$tmp/sum"
grep '^check:' "$tmp/sum" && fail "check_perfetto.awk found problems"
want=$("$LTT" stats --profile "$tmp/t" | sed -n '1s/^profile: \([0-9]*\) stack samples.*/\1/p')
pid=$(sed -n 's/^ltt_pid="\([0-9]*\)"$/\1/p' "$tmp/t/info/system.xml")
tid=$("$LTT" dump --event core.process "$tmp/t" | sed -n 's/.* pid = \([0-9]*\),.*/\1/p' | head -n 1)
[ -n "$want" ] && [ "$want" -gt 0 ] || fail "no stack samples in the trace"
awk -v want="$want" -v pid="$pid" -v tid="$tid" '
function bad(s) { print "FAIL: " s; err = 1 }
function ref(kind, id, what) { nref++; rk[nref] = kind; ri[nref] = id; rp[nref] = np; rw[nref] = what }
/^packet \{/ { np++ }
{ line = $0; sub(/^ */, "", line) }
line ~ /\{$/ { name = line; sub(/ *\{$/, "", name); stack[++sp] = name; if (name == "callstacks") nfr = 0; mp = ""; next }
line == "}" {
	k = stack[sp]
	if (k ~ /^(function_names|mapping_paths|mappings|frames|callstacks)$/ && !((k, iid) in defp)) defp[k, iid] = np
	if (k == "frames") { fname[iid] = fn; ref("function_names", fn, "frame " iid); if (mp != "") ref("mappings", mp, "frame " iid) }
	if (k == "callstacks") { cs[iid] = ""; for (j = 1; j <= nfr; j++) { cs[iid] = cs[iid] " " fr[j]; ref("frames", fr[j], "callstack " iid) } }
	if (k == "mappings") ref("mapping_paths", path, "mapping " iid)
	if (k == "function_names") names[iid] = str
	if (k == "perf_sample") {
		samples++; used[csi]++
		ref("callstacks", csi, "perf_sample")
		if (spid != pid) bad("perf_sample pid " spid ", not " pid)
		if (stid != tid) bad("perf_sample tid " stid ", not " tid)
	}
	sp--; next
}
{ key = line; sub(/:.*/, "", key); val = line; sub(/^[^:]*: */, "", val) }
key == "iid" { iid = val }
stack[sp] == "function_names" && key == "str" { str = val; gsub(/"/, "", str); fnames[str] = 1 }
stack[sp] == "frames" && key == "function_name_id" { fn = val }
stack[sp] == "frames" && key == "mapping_id" { mp = val }
stack[sp] == "mappings" && key == "path_string_ids" { path = val }
stack[sp] == "callstacks" && key == "frame_ids" { fr[++nfr] = val }
stack[sp] == "perf_sample" && key == "callstack_iid" { csi = val }
stack[sp] == "perf_sample" && key == "pid" { spid = val }
stack[sp] == "perf_sample" && key == "tid" { stid = val }
END {
	for (r = 1; r <= nref; r++)
		if (!((rk[r], ri[r]) in defp) || defp[rk[r], ri[r]] > rp[r]) bad(rw[r] ": " rk[r] " " ri[r] " not interned before use")
	for (c in used) {
		n = split(cs[c], f, " "); s = ""
		for (j = 1; j <= n; j++) s = s ";" names[fname[f[j]]]
		if (s ~ /;main;a;b;c(;|$)/) abc += used[c]
	}
	printf "%d perf samples (want %d), %d with main;a;b;c\n", samples, want, abc
	if (samples != want) bad("perf samples")
	split("a b c d main", need, " ")
	for (k in need) if (!(need[k] in fnames)) bad("function " need[k] " not interned")
	if (!abc) bad("no callstack main;a;b;c")
	exit err
}' "$tmp/t.txt" || exit 1
echo ok
