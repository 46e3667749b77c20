/* SPDX-License-Identifier: MIT */
/* ltt sql: SQL over traces, on SQLite's virtual tables (doc/cli.md, toolkit/sql.h). */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/buf.h"
#include "common/private.h"
#include "toolkit/cli_hint.h"
#include "toolkit/cmd.h"
#include "toolkit/sql.h"
#include "toolkit/sql_guard.h"
#include "sql_out.h"
#include "sql_prompt.h"
#include "sql_readonly.h"
#include "toolkit/sql_rows.h"
#include "toolkit/sql_schema.h"

extern const struct ltt_cmd ltt_cmd_sql;	/* at the end of this file */

#define MAX_QUERIES 256


struct sql_opts {
	const char *queries[MAX_QUERIES];
	unsigned nqueries;
	enum sql_format fmt;
	const char *save;
	const char *schema;
	int stats;
	int force;		/* --force: --save may replace an earlier --save database */
	int tables;		/* --tables: the tables and their columns, and exit */
};

struct session {
	struct sql_ctx *ctx;
	struct sql_out *out;
	const struct sql_opts *o;
	int failed;		/* a statement failed: exit status 1 */
	int quit;
};

/* ---- statements ---------------------------------------------------------------------------------- */

/* Prints "ltt sql: WHERE: line L, column C: msg" for the byte at offset of text, whose first line is
 * line `line` of its input. */
static void error_at(const char *where, long line, const char *text, long offset, const char *msg)
{
	long col = 1;

	for (long i = 0; i < offset && text[i]; i++) {
		if (text[i] == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	ltt_tool_error("sql", "%s: line %ld, column %ld: %s", where, line, col, msg);
}

static void print_stats(struct session *s, unsigned stmt)
{
	struct sql_ctx *c = s->ctx;

	ltt_tool_error("sql", "stats: statement %u: %llu rows; %llu scans read %llu of %llu blocks, %llu events",
		       stmt, (unsigned long long)s->out->rows, (unsigned long long)c->scans,
		       (unsigned long long)c->blocks_read, (unsigned long long)c->blocks_total,
		       (unsigned long long)c->events_read);
}

/* Runs every statement of text; 0, or -1 after an error (reported). */
static int run_text(struct session *s, const char *text, const char *where, long line)
{
	const char *p = text;
	unsigned n = 0;

	while (*p) {
		sqlite3_stmt *st = NULL;
		const char *tail = NULL;
		int rc;

		rc = sqlite3_prepare_v2(s->ctx->db, p, -1, &st, &tail);
		if (rc != SQLITE_OK) {
			int off = sqlite3_error_offset(s->ctx->db);

			error_at(where, line, text, (long)(p - text) + (off >= 0 ? off : 0),
				 sql_guard_errmsg(s->ctx));
			s->failed = 1;
			return -1;
		}
		if (!st)	/* only spaces or comments left */
			break;
		n++;
		s->ctx->blocks_read = s->ctx->blocks_total = s->ctx->events_read = s->ctx->scans = 0;
		if (sql_out_begin(s->out, st)) {
			sqlite3_finalize(st);
			ltt_tool_error("sql", "out of memory");
			s->failed = 1;
			return -1;
		}
		while ((rc = sqlite3_step(st)) == SQLITE_ROW)
			if (sql_out_row(s->out, st)) {
				rc = SQLITE_NOMEM;
				break;
			}
		sql_out_end(s->out);
		if (rc != SQLITE_DONE) {
			error_at(where, line, text, (long)(p - text), sql_guard_errmsg(s->ctx));
			sqlite3_finalize(st);
			s->failed = 1;
			return -1;
		}
		sqlite3_finalize(st);
		if (s->o->stats)
			print_stats(s, n);
		p = tail;
	}
	return 0;
}

/* ---- dot commands -------------------------------------------------------------------------------- */

/* The CREATE TABLE text of a table (the per-type tables' declarations say "x"). */
static void print_decl(const char *name, const char *decl)
{
	const char *paren = strchr(decl, '(');
	char *q = sqlite3_mprintf("%w", name);
	int plain = q && strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == strlen(name);

	printf(plain ? "CREATE TABLE %s%s;\n" : "CREATE TABLE \"%s\"%s;\n", q ? q : name, paren ? paren : "");
	sqlite3_free(q);
}

static void each_table(struct session *s, void (*fn)(const char *name, const char *decl, void *arg), void *arg)
{
	const char *decl;

	fn("events", sql_events_decl, arg);
	for (unsigned i = 0; i < s->ctx->ntypes; i++) {
		const char *name = sql_type_table(s->ctx, i, &decl);

		fn(name, decl, arg);
	}
	for (unsigned i = 0; sql_rows_defs[i].name; i++)
		fn(sql_rows_defs[i].name, sql_rows_defs[i].decl, arg);
}

static void show_name(const char *name, const char *decl, void *arg)
{
	(void)decl;
	(void)arg;
	printf("%s\n", name);
}

static void show_schema(const char *name, const char *decl, void *arg)
{
	const char *which = arg;

	if (!*which || !strcasecmp(which, name))
		print_decl(name, decl);
}

/* --tables: "NAME(COLUMN TYPE, ...)", a line per table, in the order of .tables. */
static void show_table(const char *name, const char *decl, void *arg)
{
	const char *paren = strchr(decl, '(');

	(void)arg;
	printf("%s%s\n", name, paren ? paren : "()");
}

/* --tables without a trace: the tables every trace set has, and the per-type tables' form (their
 * leading columns are the events table's first five, then a column per field). */
static void show_tables_generic(void)
{
	const char *decl = strchr(sql_events_decl, '('), *fac = strstr(sql_events_decl, ", facility");

	show_table("events", sql_events_decl, NULL);
	if (decl && fac)
		printf("FACILITY_EVENT%.*s, FIELD...)\n", (int)(fac - decl), decl);
	for (unsigned i = 0; sql_rows_defs[i].name; i++)
		show_table(sql_rows_defs[i].name, sql_rows_defs[i].decl, NULL);
}

/* A line starting with '.': 0, or -1 for an unknown command (reported). */
static int dot_command(struct session *s, const char *line, const char *where)
{
	char cmd[64] = "", arg[256] = "";

	sscanf(line, "%63s %255s", cmd, arg);
	if (!strcmp(cmd, ".tables")) {
		each_table(s, show_name, NULL);
	} else if (!strcmp(cmd, ".schema")) {
		each_table(s, show_schema, arg);
	} else if (!strcmp(cmd, ".quit") || !strcmp(cmd, ".exit")) {
		s->quit = 1;
	} else if (!strcmp(cmd, ".help")) {
		printf(".tables          the tables\n.schema [TABLE]  their CREATE TABLE statements\n"
		       ".quit            leave (also Ctrl-D)\nSQL statements end with ';' (doc/cli.md)\n");
	} else {
		ltt_tool_error("sql", "%s: unknown command %s (.tables, .schema, .help, .quit)", where, cmd);
		s->failed = 1;
		return -1;
	}
	fflush(stdout);
	return 0;
}

/* ---- input --------------------------------------------------------------------------------------- */

/* Runs lines as they come (from the prompt or a file): dot commands on a line of their own, SQL once
 * a statement is complete. Stops at the first error unless interactive. */
static int run_lines(struct session *s, FILE *in, struct sql_prompt *prompt)
{
	struct ltt_buf b = LTT_BUF_INIT;
	char *line = NULL, where[64];
	size_t cap = 0;
	long lineno = 0, start = 1;
	int rc = 0;

	while (!s->quit) {
		ssize_t n;

		if (prompt) {
			free(line);
			line = sql_prompt_read(prompt, b.len ? "   ...> " : "ltt sql> ");
			if (!line)
				break;
		} else {
			if ((n = getline(&line, &cap, in)) < 0)
				break;
			if (n > 0 && line[n - 1] == '\n')
				line[n - 1] = 0;
		}
		lineno++;
		if (!b.len && line[strspn(line, " \t")] == '.') {
			snprintf(where, sizeof(where), prompt ? "input" : "stdin line %ld", lineno);
			if (prompt)
				sql_prompt_add(prompt, line, 1);
			if (dot_command(s, line + strspn(line, " \t"), where) && !prompt) {
				rc = -1;
				break;
			}
			continue;
		}
		if (!b.len)
			start = lineno;
		ltt_buf_puts(&b, line);
		ltt_buf_putc(&b, '\n');	/* one statement, line by line */
		if (b.nomem) {
			ltt_tool_error("sql", "out of memory");
			rc = -1;
			break;
		}
		if (!sqlite3_complete(b.buf))
			continue;
		if (prompt) {
			b.buf[b.len - 1] = 0;	/* history holds the statement on one line */
			for (char *c = b.buf; *c; c++)
				if (*c == '\n')
					*c = ' ';
			sql_prompt_add(prompt, b.buf, 1);
			b.buf[b.len - 1] = '\n';
		}
		snprintf(where, sizeof(where), prompt ? "input" : "stdin");
		if (run_text(s, b.buf, where, prompt ? 1 : start) && !prompt) {
			rc = -1;
			break;
		}
		ltt_buf_reset(&b);
	}
	if (!rc && b.len && b.buf[strspn(b.buf, " \t\n")]) {	/* a last statement without ';' */
		snprintf(where, sizeof(where), prompt ? "input" : "stdin");
		rc = run_text(s, b.buf, where, prompt ? 1 : start);
	}
	free(line);
	ltt_buf_free(&b);
	return rc;
}

/* ---- the session --------------------------------------------------------------------------------- */

struct save_state {
	sqlite3 *db;
	char *err;
};

static void save_one(const char *name, const char *decl, void *arg)
{
	struct save_state *ss = arg;
	char *q;

	(void)decl;
	if (ss->err)
		return;
	q = sqlite3_mprintf("CREATE TABLE save.\"%w\" AS SELECT * FROM main.\"%w\"", name, name);
	if ((!q || sqlite3_exec(ss->db, q, NULL, NULL, &ss->err) != SQLITE_OK) && !ss->err)
		ss->err = sqlite3_mprintf("out of memory");
	sqlite3_free(q);
}

/* --save FILE never replaces what it did not write: an existing FILE is refused, or with --force
 * replaced only when it is an SQLite database (an earlier --save), never a trace or another file.
 * 0, or 1 with one line said. */
static int save_allowed(const char *path, int force)
{
	char head[16];
	struct stat st;
	ssize_t n = -1;
	int fd;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : (ltt_tool_error("sql", "--save %s: %s", path, strerror(errno)), 1);
	if (!force) {
		ltt_tool_error("sql", "--save %s: exists (--force replaces an earlier --save database, or name "
			       "another file)", path);
		return 1;
	}
	fd = S_ISREG(st.st_mode) ? open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) : -1;
	if (fd >= 0) {
		n = read(fd, head, sizeof(head));
		close(fd);
	}
	if (n != 16 || memcmp(head, "SQLite format 3", 16)) {
		ltt_tool_error("sql", "--save %s: not an SQLite database (an earlier --save): not replaced by "
			       "--force", path);
		return 1;
	}
	return 0;
}

/* --save FILE: every table into a new SQLite file (written as FILE.tmp-PID, then renamed). */
static int save_tables(struct session *s, const char *path)
{
	char *tmp = sqlite3_mprintf("%s.tmp-%ld", path, (long)getpid()), *q = NULL;
	struct save_state ss = { s->ctx->db, NULL };
	int rc = -1, priv = 0;

	if (!tmp)
		return -1;
	if (!access(tmp, F_OK)) {	/* not ours: left alone */
		ltt_tool_error("sql", "--save %s: %s exists (remove it)", path, tmp);
		sqlite3_free(tmp);
		return -1;
	}
	for (unsigned i = 0; i < s->ctx->ntraces && !priv; i++)
		priv = ltt_path_private(s->ctx->names[i]);
	if (priv) {	/* the tables of a private trace: made 0600 before SQLite opens it (common/private.h) */
		int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

		if (fd < 0) {
			ltt_tool_error("sql", "--save %s: %s: %s", path, tmp, strerror(errno));
			sqlite3_free(tmp);
			return -1;
		}
		close(fd);
	}
	q = sqlite3_mprintf("ATTACH DATABASE '%q' AS save", tmp);
	if (!q || sql_exec(s->ctx->db, "sql", q))
		goto out;
	sql_exec(s->ctx->db, "sql", "BEGIN");
	each_table(s, save_one, &ss);
	if (ss.err) {
		ltt_tool_error("sql", "--save %s: %s", path, ss.err);
		sql_exec(s->ctx->db, "sql", "ROLLBACK");
	} else if (!sql_exec(s->ctx->db, "sql", "COMMIT")) {
		rc = 0;
	}
	sql_exec(s->ctx->db, "sql", "DETACH DATABASE save");
	if (!rc && rename(tmp, path) < 0) {
		ltt_tool_error("sql", "--save %s: %s", path, strerror(errno));
		rc = -1;
	}
out:
	if (rc)
		unlink(tmp);
	sqlite3_free(ss.err);
	sqlite3_free(q);
	sqlite3_free(tmp);
	return rc;
}

static int parse_args(int argc, char **argv, struct sql_opts *o)
{
	static const struct option lo[] = {
		{ "format", required_argument, NULL, 'F' },
		{ "save", required_argument, NULL, 'S' },
		{ "schema", required_argument, NULL, 'C' },
		{ "stats", no_argument, NULL, 's' },
		{ "force", no_argument, NULL, 'O' },
		{ "tables", no_argument, NULL, 'T' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":e:", lo, NULL)) != -1) {
		switch (c) {
		case 'e':
			if (o->nqueries >= MAX_QUERIES) {
				ltt_tool_error("sql", "too many -e options");
				return -1;
			}
			o->queries[o->nqueries++] = optarg;
			break;
		case 'F':
			if (!strcmp(optarg, "table"))
				o->fmt = SQL_FMT_TABLE;
			else if (!strcmp(optarg, "csv"))
				o->fmt = SQL_FMT_CSV;
			else if (!strcmp(optarg, "json"))
				o->fmt = SQL_FMT_JSON;
			else {
				ltt_tool_error("sql", "--format=%s: expected table, csv or json", optarg);
				return -1;
			}
			break;
		case 'S':
			o->save = optarg;
			break;
		case 'C':
			o->schema = optarg;
			break;
		case 's':
			o->stats = 1;
			break;
		case 'O':
			o->force = 1;
			break;
		case 'T':
			o->tables = 1;
			break;
		default:
			ltt_cli_option_error("sql", ltt_cmd_sql.usage, c, argc, argv, lo);
			return -1;
		}
	}
	if (optind >= argc && !o->schema && !o->tables) {
		ltt_tool_error("sql", "no trace given (see ltt sql --help)");
		return -1;
	}
	return optind;
}

static int open_session(struct sql_ctx *ctx, char **paths, unsigned npaths)
{
	struct ltt_reader_options opt = { .problem = sql_problem, .problem_arg = ctx };

	ctx->tool.cmd = "sql";
	if (reader_tool_open(&ctx->tool, &ctx->catalog, paths, npaths, &opt)) {
		ctx->catalog = NULL;
		return -1;
	}
	if (sql_session_init(ctx))
		return -1;
	/* the catalog only names the tables: each scan opens its own reader, so that a statement over one
	 * table needs no more descriptors than ltt check (issue 28, point 6) */
	ltt_reader_close_files(ctx->catalog);
	return 0;
}

static int run(int argc, char **argv)
{
	struct sql_ctx ctx = { 0 };
	struct sql_opts o = { .fmt = SQL_FMT_TABLE };
	struct session s = { .ctx = &ctx, .o = &o };
	int first, status = 0;

	first = parse_args(argc, argv, &o);
	if (first < 0)
		return 2;
	if (o.save && save_allowed(o.save, o.force))
		return 1;
	if (o.schema) {
		if (sql_schema_print(stdout, o.schema)) {
			ltt_tool_error("sql", "--schema %s: expected clickhouse, duckdb or sqlite", o.schema);
			return 2;
		}
		return fflush(stdout) ? 1 : 0;
	}
	if (o.tables && first >= argc) {
		show_tables_generic();
		return fflush(stdout) ? 1 : 0;
	}
	if (open_session(&ctx, argv + first, (unsigned)(argc - first))) {
		sql_session_free(&ctx);
		return 1;
	}
	if (o.tables) {
		struct session ts = { .ctx = &ctx, .o = &o };

		each_table(&ts, show_table, NULL);
		status = fflush(stdout) || ctx.tool.problems || ctx.tool.skipped ? 1 : 0;
		sql_session_free(&ctx);
		return status;
	}
	s.out = sql_out_new(o.fmt, stdout);
	if (!s.out) {
		ltt_tool_error("sql", "out of memory");
		sql_session_free(&ctx);
		return 1;
	}
	if (o.save && save_tables(&s, o.save))
		s.failed = 1;
	if (!o.save)	/* the statements read: only --save writes a file (sql_readonly.c) */
		sql_readonly_set(&ctx);
	for (unsigned i = 0; i < o.nqueries && !s.failed && !s.quit; i++) {
		char where[32];
		const char *q = o.queries[i] + strspn(o.queries[i], " \t\n");

		snprintf(where, sizeof(where), "-e %u", i + 1);
		if (*q == '.')
			dot_command(&s, q, where);
		else
			run_text(&s, o.queries[i], where, 1);
	}
	if (!o.nqueries && !o.save) {
		if (isatty(STDIN_FILENO)) {
			struct sql_prompt *p = sql_prompt_new();

			if (p)
				run_lines(&s, NULL, p);
			sql_prompt_free(p);
		} else {
			run_lines(&s, stdin, NULL);
		}
	}
	if (fflush(stdout) || ferror(stdout)) {
		if (errno != EPIPE)
			ltt_tool_error("sql", "standard output: %s", strerror(errno));
		status = 1;
	}
	status = reader_tool_status(&ctx.tool, status || s.failed);
	sql_out_free(s.out);
	sql_session_free(&ctx);
	return status;
}

const struct ltt_cmd ltt_cmd_sql = {
	.name = "sql",
	.summary = "query traces with SQL (SQLite, the traces read in place)",
	.usage =
		"usage: ltt sql [OPTIONS] TRACE... [-e QUERY]...\n"
		"       ltt sql --tables [TRACE...]\n"
		"       ltt sql --schema clickhouse|duckdb|sqlite\n"
		"\n"
		"Queries the traces (directories or packed .tar.gz traces) with SQL, on SQLite's virtual tables:\n"
		"nothing is loaded first, each query reads what it needs. Tables (doc/cli.md has their columns):\n"
		"  events      every event: ts_ns, trace, tracefile, cpu, tid, facility, event, fields (JSON)\n"
		"  FACILITY_EVENT  one per event type, a typed column per field (nested structs as a_b)\n"
		"  regions     the app facility's regions (the rows behind ltt stats --regions)\n"
		"  threads, processes, lost, traces\n"
		"  spans       the spans the facilities declare (begin and end events paired)\n"
		"  calls       the calls function tracing recorded (ltt stats --functions)\n"
		"  thread_states, syscalls  from the kernel events (ltt stats --sched)\n"
		"  io          the read and write system calls, with their file (ltt stats --io)\n"
		"Constraints on ts_ns, trace, tracefile, cpu, facility and event are read by the reader itself:\n"
		"WHERE ts_ns BETWEEN A AND B reads only the blocks of that time range.\n"
		"Without -e, statements are read from standard input, or from an interactive prompt with history\n"
		"when it is a terminal (.tables, .schema [TABLE], .help, .quit). A bad statement prints one line\n"
		"with its line and column and the exit status is 1; problems in the traces are printed on stderr,\n"
		"every good row still comes, and the exit status is then 1.\n"
		"\n"
		"  -e QUERY          run the statements of QUERY (repeatable, in order; .tables and .schema too)\n"
		"  --format=FORMAT   table (default): aligned columns under a header; csv: RFC 4180 with a\n"
		"                    header line; json: JSON Lines, one object per row\n"
		"  --save FILE.db    write every table into a new SQLite file (then run the -e queries, if any);\n"
		"                    an existing FILE is refused\n"
		"  --force           with --save: replace FILE when it is an SQLite database (an earlier --save)\n"
		"  --tables          print every table with its columns and their types, one line each\n"
		"                    (NAME(COLUMN TYPE, ...)), and exit: with TRACEs, their per-type tables too;\n"
		"                    without, FACILITY_EVENT stands for them\n"
		"  --schema DIALECT  print the CREATE TABLE statements of the rows of ltt export --format=rows for\n"
		"                    clickhouse, duckdb or sqlite, and exit (doc/fleet.md)\n"
		"  --stats           after each statement, print on stderr the rows, and the blocks and events the\n"
		"                    reader read (of the blocks of the tracefiles it had to consider)\n",
	.run = run,
};
