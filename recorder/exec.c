/* SPDX-License-Identifier: MIT */
/* recorder/exec.c: a recording process that execs (doc/recorder.md "Programs that exec"). exec
 * replaces the image without running exit handlers, so the trace of the image that calls it would be
 * cut: its last blocks never written, its end records missing ("recording did not stop"). That is what
 * every wrapper run under `ltt record` did once libltt was preloaded into any binary (`ltt record
 * --kernel -- taskset -c 0 ./prog`, `nice`, `env X=1 prog`, `sh -c '...'`): the wrapper got libltt
 * too, recorded a trace of its own and was cut by its exec.
 *
 * libltt defines the exec functions (as it defines exit() and pthread_create()): before the image is
 * replaced, the recording is stopped as at exit (the hooks off, the kernel's last records drained,
 * every block written, the end records and the loss line), so the trace is complete; and the new
 * image is told where it went (LTT_EXEC_FROM=PID:TRACE in the environment it gets). The new image's
 * libltt, if it records, takes that trace into its own as TRACE/before-exec/ (and takes its place
 * when LTT_TRACE names one trace directory): the program after the wrapper is the trace `ltt record`
 * names, the wrapper's part before its exec is kept in it, complete, and nothing is cut.
 *
 * The exec is checked before the stop (the file exists and may be executed, found in PATH as execvp
 * finds it), so that a shell trying each directory of PATH does not stop its recording at every miss.
 * An exec that fails all the same starts a new recording from the environment, said on stderr. A vfork
 * child (it shares the recording process's memory, and execs at once) and a process that does not
 * record pass through untouched. posix_spawn() needs nothing: the spawned process is another one and
 * records its own trace. */
#include <dlfcn.h>
#include <link.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "recorder.h"

#define EXEC_VAR "LTT_EXEC_FROM"

extern char **environ;

typedef int (*execve_fn)(const char *, char *const[], char *const[]);
typedef int (*fexecve_fn)(int, char *const[], char *const[]);
typedef int (*execveat_fn)(int, const char *, char *const[], char *const[], int);

/* The C library's functions, looked up once at load: a vfork child must not call dlsym(). */
static execve_fn real_execve, real_execvpe;
static fexecve_fn real_fexecve;
static execveat_fn real_execveat;

__attribute__((constructor(103))) static void exec_lookup(void)
{
	real_execve = (execve_fn)dlsym(RTLD_NEXT, "execve");
	real_execvpe = (execve_fn)dlsym(RTLD_NEXT, "execvpe");
	real_fexecve = (fexecve_fn)dlsym(RTLD_NEXT, "fexecve");
	real_execveat = (execveat_fn)dlsym(RTLD_NEXT, "execveat");
}

/* A regular file this process may execute. */
static int executable(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && !faccessat(AT_FDCWD, path, X_OK, AT_EACCESS);
}

/* Whether execvp would find file: a name with '/' as is, else in PATH (the C library's default path
 * when PATH is unset). */
static int found(const char *file)
{
	const char *path = secure_getenv("PATH"), *p; /* the rule of libltt (secure_env.c) */
	char buf[PATH_MAX];

	if (!file || !*file)
		return 0;
	if (strchr(file, '/'))
		return executable(file);
	for (p = path ? path : "/bin:/usr/bin";;) {
		size_t len = strcspn(p, ":");

		if (snprintf(buf, sizeof(buf), "%.*s%s%s", (int)len, p, len ? "/" : "", file) <
			    (int)sizeof(buf) &&
		    executable(buf))
			return 1;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

/* Whether this process records (not a vfork child of the one that does: it shares its memory). */
static int recording_here(void)
{
	return ltt_cur.rg && ltt_cur.pid == getpid();
}

/* envp without LTT_EXEC_FROM, then LTT_EXEC_FROM=PID:TRACE; NULL when out of memory. */
static char **env_with(char *const envp[], const char *trace)
{
	size_t n = 0, k = 0, vl = strlen(EXEC_VAR);
	char **out;

	while (envp && envp[n])
		n++;
	out = malloc((n + 2) * sizeof(*out));
	if (!out)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (strncmp(envp[i], EXEC_VAR "=", vl + 1))
			out[k++] = envp[i];
	if (asprintf(&out[k], EXEC_VAR "=%d:%s", (int)getpid(), trace) < 0) {
		free(out);
		return NULL;
	}
	out[k + 1] = NULL;
	return out;
}

/* Before an exec that should succeed: the recording stopped and the environment that tells the new
 * image where its trace went (*env, to free with env_free), or NULL when this process does not record. */
static char **before(char *const envp[])
{
	char trace[PATH_MAX];
	char **env;

	if (!recording_here())
		return NULL;
	snprintf(trace, sizeof(trace), "%s", ltt_cur.path);
	ltt_stop(); /* complete: every block written, the end records, the loss line */
	env = env_with(envp, trace);
	if (!env) /* the new image records a trace of its own beside this one */
		ltt_warn("exec: out of memory: %s stays a trace of its own", trace);
	return env;
}

static void env_free(char **env)
{
	size_t k = 0;

	if (!env)
		return;
	while (env[k] && strncmp(env[k], EXEC_VAR "=", sizeof(EXEC_VAR)))
		k++;
	free(env[k]); /* the one string made here: the last */
	free(env);
}

/* After an exec that failed (errno kept): recording goes on from the environment in a new trace. */
static void after_failure(const char *what, int stopped)
{
	int e = errno;

	if (stopped) {
		if (ltt_env_restart() == 0 && ltt_cur.rg)
			ltt_warn("exec of %s failed (%s): recording goes on in %s", what, strerror(e),
				 ltt_cur.path);
		else
			ltt_warn("exec of %s failed (%s): the recording of this process ended at it", what,
				 strerror(e));
	}
	errno = e;
}

__attribute__((visibility("default"))) int execve(const char *path, char *const argv[], char *const envp[])
{
	char **env = real_execve && executable(path) ? before(envp) : NULL; /* relative to the cwd */
	int rc;

	if (!real_execve) {
		errno = ENOSYS;
		return -1;
	}
	rc = real_execve(path, argv, env ? env : envp);
	env_free(env);
	after_failure(path, env != NULL);
	return rc;
}

__attribute__((visibility("default"))) int execvpe(const char *file, char *const argv[], char *const envp[])
{
	char **env = real_execvpe && found(file) ? before(envp) : NULL;
	int rc;

	if (!real_execvpe) {
		errno = ENOSYS;
		return -1;
	}
	rc = real_execvpe(file, argv, env ? env : envp);
	env_free(env);
	after_failure(file, env != NULL);
	return rc;
}

__attribute__((visibility("default"))) int execv(const char *path, char *const argv[])
{
	return execve(path, argv, environ);
}

__attribute__((visibility("default"))) int execvp(const char *file, char *const argv[])
{
	return execvpe(file, argv, environ);
}

__attribute__((visibility("default"))) int fexecve(int fd, char *const argv[], char *const envp[])
{
	struct stat st;
	char **env = real_fexecve && !fstat(fd, &st) && S_ISREG(st.st_mode) ? before(envp) : NULL;
	int rc;

	if (!real_fexecve) {
		errno = ENOSYS;
		return -1;
	}
	rc = real_fexecve(fd, argv, env ? env : envp);
	env_free(env);
	after_failure("a file descriptor", env != NULL);
	return rc;
}

__attribute__((visibility("default"))) int execveat(int dirfd, const char *path, char *const argv[],
						    char *const envp[], int flags)
{
	struct stat st;
	char **env = real_execveat && !fstatat(dirfd, path, &st, flags & AT_EMPTY_PATH) && S_ISREG(st.st_mode)
			     ? before(envp)
			     : NULL;
	int rc;

	if (!real_execveat) {
		errno = ENOSYS;
		return -1;
	}
	rc = real_execveat(dirfd, path, argv, env ? env : envp, flags);
	env_free(env);
	after_failure(path, env != NULL);
	return rc;
}

/* execl, execle, execlp: their arguments as an array on the stack (a list written in a call is short),
 * then as execve and execvpe. list_len: the arguments after arg up to the NULL, plus arg. */
static size_t list_len(va_list *ap)
{
	va_list cp;
	size_t n = 1;

	va_copy(cp, *ap);
	while (va_arg(cp, const char *))
		n++;
	va_end(cp);
	return n;
}

/* argv[0..n]: arg, the n - 1 arguments after it and the NULL (read from *ap). */
static void list_fill(char **argv, size_t n, const char *arg, va_list *ap)
{
	argv[0] = (char *)arg;
	for (size_t i = 1; i <= n; i++)
		argv[i] = va_arg(*ap, char *);
}

__attribute__((visibility("default"))) int execl(const char *path, const char *arg, ...)
{
	va_list ap;
	size_t n;

	va_start(ap, arg);
	n = list_len(&ap);
	char *argv[n + 1];

	list_fill(argv, n, arg, &ap);
	va_end(ap);
	return execve(path, argv, environ);
}

__attribute__((visibility("default"))) int execlp(const char *file, const char *arg, ...)
{
	va_list ap;
	size_t n;

	va_start(ap, arg);
	n = list_len(&ap);
	char *argv[n + 1];

	list_fill(argv, n, arg, &ap);
	va_end(ap);
	return execvpe(file, argv, environ);
}

__attribute__((visibility("default"))) int execle(const char *path, const char *arg, ...)
{
	va_list ap;
	char *const *envp;
	size_t n;

	va_start(ap, arg);
	n = list_len(&ap);
	char *argv[n + 1];

	list_fill(argv, n, arg, &ap);
	envp = va_arg(ap, char *const *);
	va_end(ap);
	return execve(path, argv, envp);
}

/* _exit() (recorder/flight_handlers.c): a program that ends with it (dash, the shell of `sh -c 'a; b'`,
 * ends every run so) skips the exit handlers, and its trace was cut. Stopped as at exit when called
 * with no signal blocked: not from a signal handler (there the signal being handled is blocked), where
 * the stop's locks and allocations are not safe; a crash handler's _exit keeps its snapshot path. */
void ltt_exec_exit_stop(void)
{
	sigset_t mask;

	if (!recording_here() || pthread_sigmask(SIG_SETMASK, NULL, &mask) || !sigisemptyset(&mask))
		return;
	ltt_stop();
}

/* ---- the new image: taking the trace of the one before ------------------------------------------ */

static char adopt_from[PATH_MAX], adopt_tmp[PATH_MAX];

void ltt_exec_adopt_begin(void)
{
	const char *v = secure_getenv(EXEC_VAR);
	char *end, *slash;
	long pid;
	struct stat st;

	adopt_tmp[0] = 0;
	if (!v)
		return;
	pid = strtol(v, &end, 10);
	if (*end == ':' && pid == getpid() && end[1] == '/')
		snprintf(adopt_from, sizeof(adopt_from), "%s", end + 1);
	else
		adopt_from[0] = 0;
	unsetenv(EXEC_VAR); /* the program's children are other processes */
	/* the trace this process wrote before its exec: a directory of this user, not a link */
	if (!adopt_from[0] || lstat(adopt_from, &st) || !S_ISDIR(st.st_mode) || st.st_uid != geteuid())
		return;
	/* out of the way (a name readers skip, in the same directory) while the new trace is made, which
	 * may take its name */
	slash = strrchr(adopt_from, '/');
	if (snprintf(adopt_tmp, sizeof(adopt_tmp), "%.*s/.ltt-exec-%ld", (int)(slash - adopt_from),
		     adopt_from, pid) >= (int)sizeof(adopt_tmp) ||
	    rename(adopt_from, adopt_tmp))
		adopt_tmp[0] = 0;
}

void ltt_exec_adopt_end(void)
{
	char dest[PATH_MAX + 16], line[2 * PATH_MAX + 64];

	if (!adopt_tmp[0])
		return;
	if (ltt_cur.rg && snprintf(dest, sizeof(dest), "%s/before-exec", ltt_cur.path) < (int)sizeof(dest) &&
	    !rename(adopt_tmp, dest)) {
		/* `ltt record` names the new trace only, the one before the exec being in it */
		snprintf(line, sizeof(line), "moved %s\t%s\n", adopt_from, dest);
		ltt_record_report(line);
	} else if (rename(adopt_tmp, adopt_from)) {
		ltt_warn("%s: the trace before this process's exec is %s (%s)", adopt_from, adopt_tmp,
			 strerror(errno));
	}
	adopt_tmp[0] = 0;
}

/* ---- a copy of libltt that should stay idle -------------------------------------------------------- */

/* In every image that holds libltt's recorder (control.c's constructor, which starts recording from the
 * environment, is in the same object file as the reference to this). */
__attribute__((used)) const char ltt_recorder_marker[] = "ltt-recorder-in-this-image:1";

int ltt_exec_redundant(void)
{
	Dl_info self;
	struct link_map *map = NULL;
	struct stat st;
	void *m;
	int fd, found_it = 0;

	/* this copy is libltt.so (preloaded by `ltt record` into a wrapper, inherited through the exec)
	 * and the program has libltt linked in statically: the program's own copy records, this one not
	 * (else both would, each a trace). The program's own link map has the empty name. */
	if (!dladdr1((void *)ltt_exec_redundant, &self, (void **)&map, RTLD_DL_LINKMAP) || !map ||
	    !map->l_name || !map->l_name[0])
		return 0; /* this copy is the program's own */
	fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size <= 0) {
		close(fd);
		return 0;
	}
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return 0;
	found_it = memmem(m, (size_t)st.st_size, ltt_recorder_marker, sizeof(ltt_recorder_marker)) != NULL;
	munmap(m, (size_t)st.st_size);
	return found_it;
}
