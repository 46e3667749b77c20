#!/bin/sh
# SPDX-License-Identifier: MIT
# ltt sql's aggregates percentile(X, P), median(X), p50/p90/p99(X) (toolkit/sql/sql_aggregates.c):
# the same values, to the bit (ltt sql --format=json prints reals with 17 significant digits; python compares them as doubles), as numpy.percentile's default
# (method 'linear', Debian's python3-numpy) on a hand-made data set (integers, reals, duplicates, NULL
# left out) and on the app.data_int values of tests/progs/threads_prog.c's trace per thread (GROUP BY);
# an integer median falling on a value is that INTEGER exactly (a 19-digit ts_ns); no rows: NULL;
# errors: P outside 0..100, P changing within a group, a text value.
set -u
: "${BUILD:?}" "${LTT:?}"
PYTHON=${PYTHON:-/usr/bin/python3}
tmp=$(mktemp -d /tmp/ltt-e2e-sqlpct-XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
"$PYTHON" -c 'import numpy' || fail "$PYTHON has no numpy (make deps installs python3-numpy)"
LTT_TRACE="$tmp/t" "$BUILD/tests/progs/threads_prog" count 1000 > /dev/null || fail "threads_prog"
sq() { "$LTT" sql "$tmp/t" --format=csv -e "$1" | tail -n +2; }
PS="0 12.5 25 33.3 37.5 50 66.6 90 99 99.9 100"

sj() { "$LTT" sql "$tmp/t" --format=json -e "$1"; }	# JSON Lines: reals as %.17g, exact

# 1. a hand-made data set: one row, the percentiles in order
vals="3 -7 2.5 10 10 0.1 1000000 42 -3.25 8 8 8 17"
rows=$(echo "$vals" | tr ' ' '\n' | sed 's/.*/(&)/' | paste -sd, -)
q="WITH v(x) AS (VALUES $rows, (NULL)) SELECT 0 AS k"
i=0
for p in $PS; do q="$q, percentile(x, $p) AS p$i"; i=$((i + 1)); done
sj "$q, median(x) AS m, p50(x) AS a, p90(x) AS b, p99(x) AS c FROM v" > "$tmp/hand.json" || fail "ltt sql (hand-made)"
cat "$tmp/hand.json"
"$PYTHON" - "$tmp/hand.json" "$vals" "$PS" <<'PY' || fail "hand-made data set differs from numpy"
import json, sys, numpy as np
row = json.loads(open(sys.argv[1]).read())
got = [v for k, v in row.items() if k != 'k']
a = np.array([float(x) for x in sys.argv[2].split()])
ps = [float(p) for p in sys.argv[3].split()] + [50, 50, 90, 99]
want = [float(np.percentile(a, p)) for p in ps]
bad = [(p, g, w) for p, g, w in zip(ps, got, want) if g != w]
for p, g, w in bad:
    print('P=%s: ltt sql %r, numpy %r' % (p, g, w))
sys.exit(1 if bad or len(got) != len(want) else 0)
PY

# 2. the trace's app.data_int values per thread (the wK thread records 0 .. 1000 * (K + 1) - 1), a
# computed real of each, GROUP BY tid; every value goes to numpy through a file
sq "SELECT tid, value FROM app_data_int" > "$tmp/values.csv"
q="SELECT tid"
i=0
for p in $PS; do q="$q, percentile(value * 1.5 + (value % 7) / 3.0, $p) AS p$i"; i=$((i + 1)); done
sj "$q, median(value) AS m FROM app_data_int GROUP BY tid ORDER BY tid" > "$tmp/tid.json" || fail "ltt sql (per thread)"
[ "$(wc -l < "$tmp/tid.json")" = 3 ] || fail "not 3 threads: $(cat "$tmp/tid.json")"
"$PYTHON" - "$tmp/values.csv" "$tmp/tid.json" "$PS" <<'PY' || fail "per thread: differs from numpy"
import json, sys, numpy as np
by = {}
for line in open(sys.argv[1]):
    t, v = line.strip().split(',')
    by.setdefault(int(t), []).append(int(v))
ps = [float(p) for p in sys.argv[3].split()]
bad = 0
for line in open(sys.argv[2]):
    row = json.loads(line)
    v = np.array(by[row['tid']], dtype=np.int64)
    x = v * 1.5 + (v % 7) / 3.0
    want = [float(np.percentile(x, p)) for p in ps] + [float(np.median(v))]
    got = [row['p%d' % i] for i in range(len(ps))] + [row['m']]
    for p, g, w in zip(ps + ['median'], got, want):
        if g != w:
            print('tid %d P=%s: ltt sql %r, numpy %r' % (row['tid'], p, g, w))
            bad += 1
sys.exit(1 if bad else 0)
PY

# 3. exact integers: the median of an odd count of ts_ns is the middle one, as an INTEGER
got=$(sq "WITH s AS (SELECT ts_ns FROM app_data_int WHERE value > 0 AND tid IN (SELECT tid FROM app_data_int GROUP BY tid HAVING count(*) = 1000))
	SELECT typeof(median(ts_ns)) || ' ' || median(ts_ns) FROM s")
want=$(sq "SELECT 'integer ' || ts_ns FROM app_data_int WHERE value > 0 AND tid IN (SELECT tid FROM app_data_int GROUP BY tid
	HAVING count(*) = 1000) ORDER BY ts_ns LIMIT 1 OFFSET 499")
[ -n "$want" ] && [ "$got" = "$want" ] || fail "median of 999 ts_ns: '$got', the 500th is '$want'"
[ "$(sq "SELECT coalesce(median(value), 'null') FROM app_data_int WHERE value < 0")" = null ] || fail "no rows: not NULL"

# 4. errors
for bad in "percentile(value, 101)|P must be a number from 0 to 100" "percentile(value, -1)|P must be a number from 0 to 100" \
	   "percentile(value, 'x')|P must be a number from 0 to 100" "percentile(value, value % 3)|P must be the same for every row" \
	   "median(key)|a value that is not a number"; do
	err=$("$LTT" sql "$tmp/t" -e "SELECT ${bad%%|*} FROM app_data_int" 2>&1 >/dev/null) && fail "${bad%%|*} accepted"
	case "$err" in *"${bad#*|}"*) ;; *) fail "${bad%%|*}: '$err'" ;; esac
done
echo ok
