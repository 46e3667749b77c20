#!/bin/sh
# SPDX-License-Identifier: MIT
# I/O per process, thread and file from the kernel's system calls (issue 35 point 3; doc/cli.md
# "ltt stats --io", "The io table"): tests/progs/fdio_prog does known I/O (2000 writes of known sizes
# to a known path, then through dup, dup2 and fcntl(F_DUPFD) copies; 3 writes on an fd the shell
# opened before it started; 30 writes and reads on a pipe; 20 requests served on a socketpair, 2 ms
# each) and prints its own counts, bytes and the pipe's and socket's inodes. ltt stats --io (text and
# JSON) and the io table must give exactly those counts and bytes per file, name the pipe and the
# socket as the kernel does (pipe:[INODE], socket:[INODE]), and the request latency query of
# doc/cli.md must give 20 requests, each at least the 2 ms the server slept and at most the program's
# own measure. A recording whose perf ring is too small says that events were lost.
set -u
prog="$BUILD/tests/progs/fdio_prog"
[ -x "$prog" ] || { echo "skip: $prog not built"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "skip: needs root (raw_syscalls tracepoints)"; exit 77; }
tmp=$(mktemp -d /tmp/ltt-e2e-io-files-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

LTT_TRACE="$tmp/t" LTT_KERNEL=syscalls "$prog" "$tmp/data.bin" 7 > "$tmp/out" 2> "$tmp/err" 7> "$tmp/pre.txt" ||
	fail "run: $(cat "$tmp/err")"
"$LTT" check "$tmp/t" > /dev/null || fail "ltt check"
v() { tr ' ' '\n' < "$tmp/out" | sed -n "s/^$1=//p"; }
tid=$(v tid); bytes=$(v bytes); dup_bytes=$(v dup_bytes); pipe=$(v pipe); sock=$(v socket); max_req=$(v max_req_ns)
[ -n "$tid" ] && [ -n "$bytes" ] && [ -n "$pipe" ] && [ -n "$sock" ] || fail "program output: $(cat "$tmp/out")"
writes=2059 total=$((bytes + dup_bytes))

# text: one row per (process, thread, file, op)
"$LTT" stats --io "$tmp/t" > "$tmp/io.txt" || fail "stats --io: $(cat "$tmp/io.txt")"
row() { awk -v T="$tid" -v F="$1" -v O="$2" '$3 == T && $5 == O && $NF == F { print $6, $8 }' "$tmp/io.txt"; }
[ "$(row "$tmp/data.bin" write)" = "$writes $total" ] ||
	fail "text: data.bin writes $(row "$tmp/data.bin" write), want $writes $total: $(cat "$tmp/io.txt")"
[ "$(row "$tmp/pre.txt" write)" = "3 33" ] || fail "text: the fd open before the recording: $(cat "$tmp/io.txt")"
[ "$(row "$pipe" write)" = "30 240" ] && [ "$(row "$pipe" read)" = "30 240" ] ||
	fail "text: pipe $pipe: $(cat "$tmp/io.txt")"
[ "$(row "$sock" read)" = "20 320" ] && [ "$(row "$sock" write)" = "20 640" ] ||
	fail "text: socket $sock: $(cat "$tmp/io.txt")"
grep -q '^lost' "$tmp/io.txt" && fail "text: a loss line with no loss: $(head -2 "$tmp/io.txt")"
grep -q "^    *$tid fdio_prog" "$tmp/io.txt" || fail "text: process name: $(cat "$tmp/io.txt")"

# JSON: the same figures, latencies ordered
"$LTT" stats --io --format=json "$tmp/t" > "$tmp/io.json" || fail "stats --io json"
python3 - "$tmp/io.json" "$tid" "$tmp/data.bin" "$writes" "$total" "$pipe" "$sock" <<'PY' || fail "json: $(cat "$tmp/io.json")"
import json, sys
d = json.load(open(sys.argv[1]))
tid, path, writes, total, pipe, sock = int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), sys.argv[6], sys.argv[7]
assert d["lost"]["events"] == 0 and d["syscalls_recorded"] and d["fd_names"], d["lost"]
rows = {(r["file"], r["op"]): r for r in d["files"] if r["tid"] == tid}
r = rows[(path, "write")]
assert (r["calls"], r["bytes"], r["errors"], r["pid"], r["process"]) == (writes, total, 0, tid, "fdio_prog"), r
assert 0 < r["p50_ns"] <= r["p99_ns"] <= r["max_ns"], r
assert (rows[(pipe, "read")]["bytes"], rows[(pipe, "write")]["calls"]) == (240, 30)
assert rows[(sock, "read")]["calls"] == 20 and rows[(sock, "write")]["bytes"] == 640
p = [x for x in d["processes"] if x["pid"] == tid and x["op"] == "write"][0]
assert p["calls"] >= writes + 3 + 30 + 20 and p["bytes"] >= total + 33 + 240 + 640, p
PY

# the io table: the same counts, and the request latency (doc/cli.md's query)
got=$("$LTT" sql "$tmp/t" --format=csv -e "SELECT count(*), sum(bytes) FROM io WHERE tid = $tid AND file = '$tmp/data.bin' AND op = 'write'" | tail -1)
[ "$got" = "$writes,$total" ] || fail "io table: $got, want $writes,$total"
got=$("$LTT" sql "$tmp/t" --format=csv -e "SELECT count(DISTINCT handle), count(DISTINCT fd) FROM io WHERE file = '$tmp/data.bin'" | tail -1)
[ "$got" = "1,4" ] || fail "io table: data.bin's handles and fds: $got, want 1,4 (one open, four fds)"
"$LTT" sql "$tmp/t" --format=csv -e "SELECT file, count(*), min(lat), max(lat) FROM (
  SELECT file, op, LEAD(op) OVER w AS next_op, LEAD(end_ns) OVER w - ts_ns AS lat
  FROM io WHERE tid = $tid WINDOW w AS (PARTITION BY trace, pid, handle ORDER BY ts_ns))
WHERE op = 'read' AND next_op = 'write' GROUP BY file" > "$tmp/req.csv" || fail "request query: $(cat "$tmp/req.csv")"
line=$(grep -F "$sock," "$tmp/req.csv") || fail "request query: no row for $sock: $(cat "$tmp/req.csv")"
set -- $(echo "$line" | tr ',' ' ')
[ "$2" = 20 ] || fail "requests: $2, want 20"
[ "$3" -ge 2000000 ] || fail "shortest request $3 ns, the server slept 2 ms in each"
[ "$4" -le "$max_req" ] || fail "longest request $4 ns, longer than the program's own measure $max_req ns"
echo "io: $writes writes, $total bytes to data.bin; 20 requests $3..$4 ns (program: at most $max_req)"

# a loss is said
LTT_TRACE="$tmp/l" LTT_KERNEL=syscalls LTT_KERNEL_BUFFER=8k "$prog" "$tmp/data2.bin" > /dev/null 2>&1 ||
	fail "small-ring run"
"$LTT" stats --io "$tmp/l" > "$tmp/l.txt" 2> /dev/null
if "$LTT" stats --format=json "$tmp/l" 2> /dev/null | python3 -c 'import json,sys; sys.exit(0 if json.load(sys.stdin)["lost"] else 1)' 2> /dev/null ||
	grep -q '^lost' "$tmp/l.txt"; then
	grep -q '^kernel events were lost' "$tmp/l.txt" || fail "loss not said: $(head -3 "$tmp/l.txt")"
	echo "io: small ring: $(head -1 "$tmp/l.txt")"
fi
echo ok
