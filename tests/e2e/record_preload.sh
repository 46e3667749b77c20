#!/bin/sh
# SPDX-License-Identifier: MIT
# ltt record takes any binary for every option that records through libltt (issue 37, point 4), and
# says what it did and what cannot work:
# - --cpu-sample, --stack-sample, --waits, --kernel on a program not linked with libltt preload
#   libltt.so (said on stderr: "... preloaded (--cpu-sample)") and write its trace with the data asked;
# - --functions on a binary without hooks says what to build it with (-pg, -finstrument-functions);
# - --functions=RULES that match no function of the program says so (uftrace refuses such a filter);
#   rules that match say nothing.
set -u
work=$(mktemp -d "${TMPDIR:-/tmp}/ltt-e2e-record-preload-XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
asan=
case "${SANITIZE:-}" in *address*)
	asan="LD_PRELOAD=$(${CC:-cc} -print-file-name=libasan.so) ASAN_OPTIONS=verify_asan_link_order=0:${ASAN_OPTIONS:-}" ;;
esac
cat > plain.c <<'EOT'
#include <stdio.h>
#include <time.h>
static volatile unsigned long sink;
int main(void)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		for (int i = 0; i < 1000; i++)
			sink += i;
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 100000000L);
	puts("done");
	return 0;
}
EOT
cc -O1 -o plain plain.c || exit 1

for opt in "--cpu-sample 10" "--stack-sample 1000" "--waits"; do
	rm -rf t
	env $asan "$LTT" record -o t $opt -- ./plain > out 2> err || fail "$opt: exit status $?: $(cat err)"
	[ "$(cat out)" = done ] || fail "$opt: stdout $(cat out)"
	grep -q "^ltt record: ./plain is not linked with libltt: .*libltt.so.1 preloaded (${opt%% *})\$" err ||
		fail "$opt: no word of the preload: $(cat err)"
	[ -d t/cpu ] || fail "$opt: no trace written: $(cat err)"
done
rm -rf t
env $asan "$LTT" record -o t --cpu-sample 10 -- ./plain > /dev/null 2> err || fail "cpu-sample: exit status"
n=$("$LTT" dump --event core.process_cpu t | wc -l)
[ "$n" -ge 3 ] || fail "--cpu-sample 10 on a 100 ms program: $n core.process_cpu events"
echo "ok: --cpu-sample, --stack-sample, --waits preload libltt.so into a program not linked with it, and say so"

rm -rf t
env $asan "$LTT" record -o t --functions -- ./plain > /dev/null 2> err || fail "--functions plain: exit status"
grep -q "^ltt record: --functions: ./plain calls no function hook .*build it with -pg (or -pg -mfentry) or with -finstrument-functions" err ||
	fail "--functions on a binary without hooks: $(cat err)"
echo "ok: --functions on a binary without hooks says what to build it with"

prog="$BUILD/tests/func/func_tree_pg"
[ -x "$prog" ] || fail "$prog not built (make check builds it)"
rm -rf t
env $asan "$LTT" record -o t --functions='nomatch_*' -- "$prog" tree > /dev/null 2> err || fail "nomatch: exit status"
grep -q "LTT_FUNCTIONS=nomatch_\*: no function of the program or its libraries matches these rules" err ||
	fail "a rule matching nothing is silent: $(cat err)"
rm -rf t
env $asan "$LTT" record -o t --functions='a,b' -- "$prog" tree > /dev/null 2> err || fail "a,b: exit status"
grep -q "matches these rules\|calls no function hook" err && fail "rules that match: $(cat err)"
[ "$("$LTT" stats --functions --format=json t | jq '[.functions[] | select(.function == "b") | .calls] | add')" = 1000 ] ||
	fail "rules a,b: not 1000 calls of b"
echo "ok: --functions=RULES matching no function says so; rules that match say nothing"
