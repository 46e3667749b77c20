/* SPDX-License-Identifier: MIT */
/* The helpers of common/ but the escapers (test_common_escape.c): the growable buffer, the heap,
 * number parsing, the process identity check and the I/O helpers, with exact values. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/buf.h"
#include "common/clock.h"
#include "common/heap.h"
#include "common/io.h"
#include "common/parse.h"
#include "common/proc.h"
#include "test_tmp.h"

/* ---- buffer ------------------------------------------------------------------------------------ */

START_TEST(buf_grows)
{
	struct ltt_buf b = LTT_BUF_INIT;
	char big[1000], *p, *s;
	size_t len;

	ck_assert_ptr_null(b.buf);
	ltt_buf_add(&b, "", 0);
	ck_assert_str_eq(b.buf, "");
	ck_assert_uint_eq(b.len, 0);
	for (int i = 0; i < 1000; i++)
		ltt_buf_putc(&b, (char)('a' + i % 26));
	ck_assert_uint_eq(b.len, 1000);
	ck_assert_uint_eq(strlen(b.buf), 1000);
	ck_assert(b.buf[25] == 'z' && b.buf[26] == 'a' && b.buf[999] == 'a' + 999 % 26);
	ck_assert_uint_ge(b.cap, 1001);
	/* printf longer than its stack room */
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	ltt_buf_reset(&b);
	ck_assert_uint_eq(b.len, 0);
	ck_assert_str_eq(b.buf, "");
	ltt_buf_printf(&b, "<%s|%d>", big, -42);
	ck_assert_uint_eq(b.len, 1005);
	ck_assert(!memcmp(b.buf, "<xxx", 4) && !strcmp(b.buf + 1000, "|-42>"));
	ltt_buf_puts(&b, "!");
	/* reserve and commit: the fast writers' way */
	p = ltt_buf_reserve(&b, 3);
	ck_assert_ptr_nonnull(p);
	memcpy(p, "abc", 3);
	ltt_buf_commit(&b, 2);
	ck_assert_str_eq(b.buf + 1005, "!ab");
	s = ltt_buf_detach(&b, &len);
	ck_assert_uint_eq(len, 1008);
	ck_assert_uint_eq(strlen(s), 1008);
	ck_assert_ptr_null(b.buf);
	ck_assert_uint_eq(b.len + b.cap, 0);
	free(s);
	/* an empty buffer detaches as "" */
	s = ltt_buf_detach(&b, &len);
	ck_assert_str_eq(s, "");
	ck_assert_uint_eq(len, 0);
	free(s);
}
END_TEST

START_TEST(buf_nomem_sticks)
{
	struct ltt_buf b = LTT_BUF_INIT;
	size_t len = 7;

	ltt_buf_puts(&b, "kept");
	/* more than memory can hold: refused, and everything after it too */
	ck_assert_ptr_null(ltt_buf_reserve(&b, (size_t)-1 / 2));
	ck_assert_int_eq(b.nomem, 1);
	ltt_buf_puts(&b, "lost");
	ltt_buf_printf(&b, "%d", 5);
	ck_assert_uint_eq(b.len, 4);
	ck_assert_str_eq(b.buf, "kept");
	ck_assert_ptr_null(ltt_buf_detach(&b, &len));
	ck_assert_uint_eq(len, 0);
	ck_assert_ptr_null(b.buf);
	ck_assert_int_eq(b.nomem, 0);
}
END_TEST

/* ---- heap -------------------------------------------------------------------------------------- */

struct item {
	unsigned key, rank;
};

static inline int item_before(const struct item *a, const struct item *b)
{
	return a->key < b->key || (a->key == b->key && a->rank < b->rank);
}

LTT_HEAP_DEFINE(iheap, struct item *, item_before)

START_TEST(heap_orders)
{
	enum { N = 2000 };
	static struct item items[N];
	struct item *h[N];
	size_t n = 0;
	unsigned x = 99, last_key = 0, last_rank = 0;

	for (unsigned i = 0; i < N; i++) {
		x = x * 1103515245u + 12345u;
		items[i].key = (x >> 16) % 300;	/* many equal keys: the rank breaks ties */
		items[i].rank = i;
	}
	/* push half, make the other half's heap at once, then merge by pops and re-pushes */
	for (unsigned i = 0; i < N / 2; i++)
		iheap_push(h, &n, &items[i]);
	ck_assert_uint_eq(n, N / 2);
	for (unsigned i = N / 2; i < N; i++)
		h[n++] = &items[i];
	iheap_make(h, n);
	for (unsigned i = 0; i < N; i++) {
		struct item *top = h[0];

		ck_assert(i == 0 || top->key > last_key || (top->key == last_key && top->rank > last_rank));
		last_key = top->key;
		last_rank = top->rank;
		iheap_pop(h, &n);
	}
	ck_assert_uint_eq(n, 0);
}
END_TEST

START_TEST(heap_sift_after_change)
{
	struct item it[5] = { { 5, 0 }, { 1, 1 }, { 3, 2 }, { 4, 3 }, { 2, 4 } };
	struct item *h[5] = { &it[0], &it[1], &it[2], &it[3], &it[4] };
	size_t n = 5;
	unsigned want[] = { 2, 3, 4, 5, 9 };

	iheap_make(h, n);
	ck_assert_uint_eq(h[0]->key, 1);
	/* the merge's step: the top's key grows, it sinks to its place */
	h[0]->key = 9;
	iheap_sift_down(h, n, 0);
	for (unsigned i = 0; i < 5; i++) {
		ck_assert_uint_eq(h[0]->key, want[i]);
		iheap_pop(h, &n);
	}
	/* a key that shrinks at the bottom rises */
	for (unsigned i = 0; i < 5; i++) {
		it[i].key = 10 + i;
		iheap_push(h, &n, &it[i]);
	}
	it[4].key = 0;
	for (size_t i = 0; i < n; i++)
		if (h[i] == &it[4])
			iheap_sift_up(h, i);
	ck_assert_ptr_eq(h[0], &it[4]);
}
END_TEST

/* ---- numbers ----------------------------------------------------------------------------------- */

START_TEST(parse_numbers)
{
	uint64_t v = 77;

	ck_assert_int_eq(ltt_parse_u64("0", &v), 0);
	ck_assert_uint_eq(v, 0);
	ck_assert_int_eq(ltt_parse_u64("18446744073709551615", &v), 0);
	ck_assert_uint_eq(v, UINT64_MAX);
	v = 77;
	ck_assert_int_eq(ltt_parse_u64("18446744073709551616", &v), -ERANGE);
	ck_assert_int_eq(ltt_parse_u64("99999999999999999999999", &v), -ERANGE);
	ck_assert_uint_eq(v, 77);	/* untouched on failure */
	ck_assert_int_eq(ltt_parse_u64("99999999999999999999999x", &v), -EINVAL);
	ck_assert_int_eq(ltt_parse_u64(NULL, &v), -EINVAL);
	ck_assert_int_eq(ltt_parse_u64("", &v), -EINVAL);
	ck_assert_int_eq(ltt_parse_u64("-1", &v), -EINVAL);
	ck_assert_int_eq(ltt_parse_u64("+1", &v), -EINVAL);
	ck_assert_int_eq(ltt_parse_u64(" 1", &v), -EINVAL);
	ck_assert_int_eq(ltt_parse_u64("1 ", &v), -EINVAL);
	ck_assert_int_eq(ltt_parse_u64("0x10", &v), -EINVAL);
	ck_assert_int_eq(ltt_parse_u64("12a", &v), -EINVAL);
	ck_assert_uint_eq(v, 77);
	ck_assert_int_eq(ltt_parse_u64("007", &v), 0);
	ck_assert_uint_eq(v, 7);

	ck_assert_int_eq(ltt_parse_u64_in("64", 64, 128, &v), 0);
	ck_assert_uint_eq(v, 64);
	ck_assert_int_eq(ltt_parse_u64_in("128", 64, 128, &v), 0);
	ck_assert_uint_eq(v, 128);
	ck_assert_int_eq(ltt_parse_u64_in("63", 64, 128, &v), -ERANGE);
	ck_assert_int_eq(ltt_parse_u64_in("129", 64, 128, &v), -ERANGE);
	ck_assert_int_eq(ltt_parse_u64_in("x", 64, 128, &v), -EINVAL);
	ck_assert_uint_eq(v, 128);

	ck_assert_int_eq(ltt_parse_c_u64("0x1F", &v), 0);
	ck_assert_uint_eq(v, 31);
	ck_assert_int_eq(ltt_parse_c_u64("0Xffffffffffffffff", &v), 0);
	ck_assert_uint_eq(v, UINT64_MAX);
	ck_assert_int_eq(ltt_parse_c_u64("0x10000000000000000", &v), -ERANGE);
	ck_assert_int_eq(ltt_parse_c_u64("017", &v), 0);
	ck_assert_uint_eq(v, 15);
	ck_assert_int_eq(ltt_parse_c_u64("0", &v), 0);
	ck_assert_uint_eq(v, 0);
	ck_assert_int_eq(ltt_parse_c_u64("42", &v), 0);
	ck_assert_uint_eq(v, 42);
	ck_assert_int_eq(ltt_parse_c_u64("08", &v), -EINVAL);
	ck_assert_int_eq(ltt_parse_c_u64("0x", &v), -EINVAL);
	ck_assert_int_eq(ltt_parse_c_u64("0xg", &v), -EINVAL);
	ck_assert_int_eq(ltt_parse_c_u64("-1", &v), -EINVAL);
	ck_assert_int_eq(ltt_parse_c_u64(" 1", &v), -EINVAL);
	ck_assert_int_eq(ltt_parse_c_u64("\t1", &v), -EINVAL);
	ck_assert_int_eq(ltt_parse_c_u64("1u", &v), -EINVAL);
	ck_assert_uint_eq(v, 42);

	ck_assert_int_eq(ltt_parse_size("4096", &v), 0);
	ck_assert_uint_eq(v, 4096);
	ck_assert_int_eq(ltt_parse_size("64k", &v), 0);
	ck_assert_uint_eq(v, 64 << 10);
	ck_assert_int_eq(ltt_parse_size("10MiB", &v), 0);
	ck_assert_uint_eq(v, 10 << 20);
	ck_assert_int_eq(ltt_parse_size("1GB", &v), 0);
	ck_assert_uint_eq(v, 1ull << 30);
	ck_assert_int_eq(ltt_parse_size("3t", &v), 0);
	ck_assert_uint_eq(v, 3ull << 40);
	ck_assert_int_eq(ltt_parse_size("0", &v), 0);
	ck_assert_uint_eq(v, 0);
	ck_assert_int_eq(ltt_parse_size("16777215T", &v), 0);
	ck_assert_uint_eq(v, 16777215ull << 40);
	ck_assert_int_eq(ltt_parse_size("16777216T", &v), -ERANGE);
	ck_assert_int_eq(ltt_parse_size("99999999999999999999", &v), -ERANGE);
	ck_assert_int_eq(ltt_parse_size("k", &v), -EINVAL);
	ck_assert_int_eq(ltt_parse_size("1B", &v), -EINVAL);
	ck_assert_int_eq(ltt_parse_size("1kb", &v), -EINVAL);
	ck_assert_int_eq(ltt_parse_size("1kiB ", &v), -EINVAL);
	ck_assert_int_eq(ltt_parse_size("1Q", &v), -EINVAL);
	ck_assert_int_eq(ltt_parse_size("1kk", &v), -EINVAL);
	ck_assert_uint_eq(v, 16777215ull << 40);
}
END_TEST

/* ---- process identity -------------------------------------------------------------------------- */

/* Field 22 of /proc/PID/stat, read here apart: after the last ')', the 20th field. */
static uint64_t start_of(int pid)
{
	char p[64], buf[2048], *q;
	unsigned long long v = 0;
	FILE *f;
	size_t n;

	snprintf(p, sizeof(p), "/proc/%d/stat", pid);
	f = fopen(p, "r");
	ck_assert_ptr_nonnull(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	q = strrchr(buf, ')');
	ck_assert_int_eq(sscanf(q + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %llu",
				&v), 1);
	return v;
}

START_TEST(proc_identity)
{
	struct ltt_proc_id self, id;
	int fds[2], pid;
	char c;

	ck_assert_int_eq(ltt_proc_id(0, &self), 0);
	ck_assert_uint_eq(self.start, start_of(getpid()));
	ck_assert_int_eq(self.state, 'R');
	ck_assert_int_eq(ltt_proc_id(getpid(), &id), 0);
	ck_assert_uint_eq(id.start, self.start);
	ck_assert_int_eq(ltt_proc_alive(getpid(), self.start), 1);
	ck_assert_int_eq(ltt_proc_alive(getpid(), self.start + 1), 0);	/* another process of that pid */

	/* a child whose name holds spaces and parentheses, as a process may name itself */
	ck_assert_int_eq(pipe(fds), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		prctl(PR_SET_NAME, "a) b (c) 9 9", 0, 0, 0);
		if (write(fds[1], "x", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(fds[1]);
	ck_assert_int_eq(read(fds[0], &c, 1), 1);
	close(fds[0]);
	ck_assert_int_eq(ltt_proc_id(pid, &id), 0);
	ck_assert_uint_eq(id.start, start_of(pid));
	ck_assert_uint_ge(id.start, self.start);
	ck_assert_int_eq(ltt_proc_alive(pid, id.start), 1);
	/* exited, not reaped: a zombie is gone */
	kill(pid, SIGKILL);
	for (int i = 0; i < 5000; i++) {
		struct ltt_proc_id z;

		if (!ltt_proc_id(pid, &z) && z.state == 'Z')
			break;
		usleep(1000);
	}
	ck_assert_int_eq(ltt_proc_id(pid, &self), 0);
	ck_assert_int_eq(self.state, 'Z');
	ck_assert_int_eq(ltt_proc_alive(pid, id.start), 0);
	ck_assert_int_eq(waitpid(pid, NULL, 0), pid);
	/* reaped: no such process */
	ck_assert_int_eq(ltt_proc_id(pid, &self), -ESRCH);
	ck_assert_int_eq(ltt_proc_alive(pid, id.start), 0);
	ck_assert_int_eq(ltt_proc_id(-1, &self), -ESRCH);
}
END_TEST

/* ---- I/O --------------------------------------------------------------------------------------- */

START_TEST(io_files)
{
	char dir[4096], p[4200], fifo[4200], *buf = (char *)1, small[8];
	static char big[300000];
	size_t len = 9;
	int fd, fds[2];
	uint64_t t0, t1;

	test_tmp_make(dir, sizeof(dir), "common");
	snprintf(p, sizeof(p), "%s/f", dir);
	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = (char)('a' + i % 26);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ltt_write_all(fd, big, sizeof(big)), 0);
	close(fd);

	ck_assert_int_eq(ltt_read_small_file(p, 0, sizeof(big), &buf, &len), 0);
	ck_assert_uint_eq(len, sizeof(big));
	ck_assert(!memcmp(buf, big, sizeof(big)) && buf[len] == 0);
	free(buf);
	ck_assert_int_eq(ltt_read_small_file(p, 0, sizeof(big) - 1, &buf, &len), -EFBIG);
	ck_assert_ptr_null(buf);
	ck_assert_uint_eq(len, 0);

	/* what is not a regular file is refused, a FIFO without blocking */
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	ck_assert_int_eq(ltt_read_small_file(fifo, 0, 100, &buf, &len), -LTT_ENOTREG);
	ck_assert_int_eq(ltt_open_regular(fifo, 0, NULL), -LTT_ENOTREG);
	ck_assert_int_eq(ltt_read_small_file(dir, 0, 100, &buf, &len), -LTT_ENOTREG);
	ck_assert_int_eq(ltt_read_small_file("/dev/null", 0, 100, &buf, &len), -LTT_ENOTREG);
	snprintf(p, sizeof(p), "%s/missing", dir);
	ck_assert_int_eq(ltt_read_small_file(p, 0, 100, &buf, &len), -ENOENT);
	/* O_NOFOLLOW passed through */
	snprintf(p, sizeof(p), "%s/link", dir);
	ck_assert_int_eq(symlink("f", p), 0);
	ck_assert_int_eq(ltt_read_small_file(p, O_NOFOLLOW, 1 << 20, &buf, &len), -ELOOP);
	ck_assert_int_eq(ltt_read_small_file(p, 0, 1 << 20, &buf, &len), 0);
	ck_assert_uint_eq(len, sizeof(big));
	free(buf);

	/* one read into a fixed buffer, cut to fit */
	snprintf(p, sizeof(p), "%s/f", dir);
	ck_assert_int_eq(ltt_read_into(p, 0, small, sizeof(small)), 7);
	ck_assert_str_eq(small, "abcdefg");
	snprintf(p, sizeof(p), "%s/empty", dir);
	close(open(p, O_WRONLY | O_CREAT, 0600));
	ck_assert_int_eq(ltt_read_into(p, 0, small, sizeof(small)), -ENODATA);
	snprintf(p, sizeof(p), "%s/missing", dir);
	ck_assert_int_eq(ltt_read_into(p, 0, small, sizeof(small)), -ENOENT);

	/* a write error is a negative errno */
	ck_assert_int_eq(pipe(fds), 0);
	close(fds[0]);
	signal(SIGPIPE, SIG_IGN);
	ck_assert_int_eq(ltt_write_all(fds[1], "x", 1), -EPIPE);
	close(fds[1]);
	ck_assert_int_eq(ltt_write_all(-1, "x", 1), -EBADF);

	t0 = ltt_mono_ns();
	usleep(2000);
	t1 = ltt_mono_ns();
	ck_assert_uint_ge(t1 - t0, 2000000);
	test_tmp_remove(dir);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("common");
	TCase *tc = tcase_create("common");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, buf_grows);
	tcase_add_test(tc, buf_nomem_sticks);
	tcase_add_test(tc, heap_orders);
	tcase_add_test(tc, heap_sift_after_change);
	tcase_add_test(tc, parse_numbers);
	tcase_add_test(tc, proc_identity);
	tcase_add_test(tc, io_files);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
