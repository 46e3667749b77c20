#!/bin/sh
# SPDX-License-Identifier: MIT
# Waits on locks (LTT_WAITS=1, ltt record --waits): tests/progs/sched_prog waits holds a mutex 50 ms
# in one thread while the main thread waits for it, then locks and unlocks another mutex 100000
# times with no contention (the holder starts its 50 ms once the waiter blocks: glibc's lock word is
# then 2). ltt stats --waits names the 50 ms wait (at least 45 ms) on the lock the
# program printed, the holder's and the waiter's tids as the program printed them; the uncontended
# mutex has no wait. Without LTT_WAITS nothing is recorded and the trace has no ltt facility. The same
# through LD_PRELOAD of libltt.so for a program that does not link libltt.
set -u
: "${BUILD:?}" "${LTT:?}"
prog="$BUILD/tests/progs/sched_prog"
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
fail=0
val() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }

"$LTT" record -o t --waits -- "$prog" waits > out 2> err || { echo "ltt record --waits failed"; cat err; exit 1; }
"$LTT" stats --waits --format=json t > w.json || { echo "ltt stats --waits failed"; exit 1; }
lock=$(val lock out) holder=$(val holder out) waiter=$(val waiter out) unc=$(val uncontended out)
[ -n "$lock" ] && [ -n "$holder" ] && [ -n "$waiter" ] && [ -n "$unc" ] || { echo "program output:"; cat out; exit 1; }
got=$(jq -r --arg l "$lock" '.locks[] | select(.lock == $l) |
	"\(.kind) \(.waits) \(.holders[0].tid) \(.waiters[0].tid) \(.max_ns >= 45000000) \(.max_ns < 10000000000)"' w.json)
[ "$got" = "mutex 1 $holder $waiter true true" ] || { echo "the 50 ms wait on $lock: got '$got'"; cat w.json; fail=1; }
[ "$(jq -r --arg l "$unc" '[.locks[] | select(.lock == $l)] | length' w.json)" = 0 ] ||
	{ echo "waits recorded on the uncontended mutex $unc"; cat w.json; fail=1; }
"$LTT" stats --waits t > w.txt || fail=1
grep -q "held by: $holder " w.txt || { echo "text: no holder $holder"; cat w.txt; fail=1; }
# the event itself, as ltt dump prints it
n=$("$LTT" dump --event ltt.wait t | grep -c "lock = $(printf %d "$lock"), .*holder = $holder,")
[ "$n" = 1 ] || { echo "ltt dump: $n ltt.wait events on the lock"; "$LTT" dump --event ltt.wait t; fail=1; }

# without LTT_WAITS: nothing, and no ltt facility
LTT_TRACE=off "$prog" waits > /dev/null || { echo "sched_prog without LTT_WAITS failed"; exit 1; }
[ ! -e off/eventdefs/ltt.xml ] || { echo "off/eventdefs/ltt.xml exists without LTT_WAITS"; fail=1; }
[ "$("$LTT" dump --facility ltt off | wc -l)" = 0 ] || { echo "ltt events without LTT_WAITS"; fail=1; }

# LD_PRELOAD of libltt.so into a program that does not link it (cc of a few lines)
cat > plain.c <<'END'
#include <pthread.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static volatile int held;
static void *h(void *a)
{
	(void)a;
	pthread_mutex_lock(&m);
	printf("holder %ld\n", (long)syscall(SYS_gettid));
	fflush(stdout);
	__atomic_store_n(&held, 1, __ATOMIC_RELEASE);
	while (__atomic_load_n(&m.__data.__lock, __ATOMIC_RELAXED) != 2)	/* the waiter blocks */
		usleep(1000);
	usleep(30000);
	pthread_mutex_unlock(&m);
	return NULL;
}
int main(void)
{
	pthread_t t;

	pthread_create(&t, NULL, h, NULL);
	while (!__atomic_load_n(&held, __ATOMIC_ACQUIRE))
		usleep(1000);
	pthread_mutex_lock(&m);
	pthread_mutex_unlock(&m);
	pthread_join(t, NULL);
	printf("lock %p\n", (void *)&m);
	return 0;
}
END
${CC:-cc} -O2 -o plain plain.c -lpthread || { echo "cc failed"; exit 1; }
pre="$BUILD/lib/libltt.so"	# an ASan build's libltt.so needs the ASan runtime loaded first
case "${SANITIZE:-}" in *address*) pre="$(${CC:-cc} -print-file-name=libasan.so) $pre" ;; esac
LD_PRELOAD="$pre" LTT_WAITS=1 LTT_TRACE=pre ./plain > pout || { echo "plain failed"; exit 1; }
"$LTT" stats --waits --format=json pre > p.json || fail=1
got=$(jq -r --arg l "$(val lock pout)" '.locks[] | select(.lock == $l) | "\(.waits) \(.holders[0].tid) \(.max_ns >= 25000000)"' p.json)
[ "$got" = "1 $(val holder pout) true" ] || { echo "LD_PRELOAD: got '$got'"; cat pout p.json; fail=1; }
exit $fail
