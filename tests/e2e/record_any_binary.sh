#!/bin/sh
# SPDX-License-Identifier: MIT
# ltt record on programs not linked with libltt:
# - /bin/true: exit 0 (the program's status, always), no trace, the one line saying why and what to do;
#   /bin/false: exit 1; the program's stdout untouched;
# - --any-binary: an unmodified program (built here with cc, no libltt, exit status 3) gets libltt.so
#   preloaded: its trace is written, the status is the program's, and its stack samples name its own
#   functions (spin_a, spin_b under main: the symbols of the binary) with at least 90% of the ticks of
#   a spin function under the right caller; /bin/true --any-binary writes a trace too;
# - a program linked with libltt is not preloaded a second time under --any-binary (one trace).
set -u
. "$SRCDIR/tests/e2e/lib/common.sh"
# Under make asan the preloaded libltt.so is an ASan build: the ASan runtime must be in the program's
# initial library list, so the runs of --any-binary preload it too (ltt record puts libltt.so ahead of
# it, hence the order check off). Only those runs: a compiler run with it preloaded reports its leaks.
asan=
case "${SANITIZE:-}" in *address*)
	asan="LD_PRELOAD=$(${CC:-cc} -print-file-name=libasan.so) ASAN_OPTIONS=verify_asan_link_order=0:${ASAN_OPTIONS:-}" ;;
esac

"$LTT" record -o t-true -- /bin/true > out 2> err; rc=$?
check "exit status of /bin/true" "$rc" 0
check "message for /bin/true" "$(sed 1d err)" \
	"ltt record: no trace written: /bin/true is not linked with libltt (--any-binary preloads libltt.so into it)"
[ -e t-true ] && { echo "a trace appeared for /bin/true"; fail=1; }
"$LTT" record -o t-false -- /bin/false 2> /dev/null; check "exit status of /bin/false" "$?" 1
"$LTT" record -- echo hello > out 2> /dev/null; check "stdout of echo" "$(cat out)" hello

cat > any.c <<'EOT'
#include <stdio.h>
#include <time.h>
static volatile unsigned long sink;
static double cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}
__attribute__((noinline)) void spin_a(double s)
{
	double end = cpu() + s;

	while (cpu() < end)
		for (int i = 0; i < 1000; i++)
			sink += i;
}
__attribute__((noinline)) void spin_b(double s)
{
	spin_a(s);
}
int main(void)
{
	spin_a(0.3);
	spin_b(0.3);
	puts("done");
	return 3;
}
EOT
cc -O1 -fno-omit-frame-pointer -o any any.c || exit 1
nm any | grep -q ltt_ && { echo "the test program is linked with ltt"; exit 1; }
env $asan "$LTT" record --any-binary -o t-any --cpu-sample 10 --stack-sample 1000 -- ./any > out 2> err; rc=$?
check "exit status under --any-binary" "$rc" 3
check "stdout under --any-binary" "$(cat out)" done
grep -q "^ltt record: trace written to $work/t-any\$\|^ltt record: trace written to t-any\$" err ||
	{ echo "no trace written:"; cat err; exit 1; }
"$LTT" export --format=folded -o any.folded t-any 2> /dev/null || { echo "export failed"; exit 1; }
"$LTT" stats --profile t-any > prof || exit 1
awk '
	{ n = $NF; $NF = ""; s = ";" $0 }
	s ~ /;spin_a ?$/ { all += n; if (s ~ /;main;spin_a ?$/ || s ~ /;main;spin_b;spin_a ?$/) right += n }
	s ~ /;main;spin_b;spin_a ?$/ { inb += n }
	END {
		printf "ticks in spin_a: %d, under main: %d, under spin_b: %d\n", all, right, inb
		if (all < 100 || right * 10 < all * 9 || inb * 10 < all * 3 || inb * 10 > all * 7) exit 1
	}' any.folded || { echo "the profile does not name the program's functions:"; head -n 20 prof; fail=1; }
grep -q '^profile: [0-9]* stack samples' prof || { echo "no profile"; fail=1; }
"$LTT" dump --event core.process_cpu t-any | grep -q . || { echo "no CPU usage recorded"; fail=1; }
env $asan "$LTT" record --any-binary -o t-true2 -- /bin/true 2> err; check "exit status of /bin/true --any-binary" "$?" 0
[ -d t-true2 ] || { echo "no trace for /bin/true --any-binary: $(cat err)"; fail=1; }

# linked with libltt: not preloaded again (one trace, the program's own)
(cd "$BUILD/tests/progs" && exec env $asan "$LTT" record --any-binary -o "$work/t-linked" -- ./app_golden) > /dev/null 2> err
check "traces of a linked program" "$(grep -c 'trace written to' err)" 1
exit $fail
