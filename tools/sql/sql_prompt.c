/* SPDX-License-Identifier: MIT */
/* The interactive prompt of `ltt sql` (stdin a terminal): a small line editor on a raw terminal, with
 * history (up/down, kept in $HOME/.ltt_sql_history). Keys: left/right, Home/End, Ctrl-A/E/B/F,
 * Backspace, Delete, Ctrl-D (delete, or end of input on an empty line), Ctrl-U/K (kill before/after
 * the cursor), Ctrl-C (drop the line), Enter. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "common/grow.h"

#include "sql_prompt.h"

#define HISTORY_MAX 1000

struct sql_prompt {
	char **hist;
	size_t nhist, caphist;
	char *path;		/* history file, or NULL */
	struct termios saved;
};

struct sql_prompt *sql_prompt_new(void)
{
	struct sql_prompt *p = calloc(1, sizeof(*p));
	const char *home = getenv("HOME");
	char line[4096];
	FILE *f;

	if (!p)
		return NULL;
	if (home && *home && asprintf(&p->path, "%s/.ltt_sql_history", home) < 0)
		p->path = NULL;
	if (p->path && (f = fopen(p->path, "r"))) {
		while (fgets(line, sizeof(line), f)) {
			line[strcspn(line, "\n")] = 0;
			if (*line)
				sql_prompt_add(p, line, 0);
		}
		fclose(f);
	}
	return p;
}

void sql_prompt_free(struct sql_prompt *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nhist; i++)
		free(p->hist[i]);
	free(p->hist);
	free(p->path);
	free(p);
}

void sql_prompt_add(struct sql_prompt *p, const char *line, int save)
{
	char *copy;
	FILE *f;

	if (!*line || strchr(line, '\n') || (p->nhist && !strcmp(p->hist[p->nhist - 1], line)))
		return;
	if (p->nhist == HISTORY_MAX) {
		free(p->hist[0]);
		memmove(p->hist, p->hist + 1, (HISTORY_MAX - 1) * sizeof(*p->hist));
		p->nhist--;
	}
	copy = strdup(line);
	if (!copy || LTT_GROW(p->hist, p->nhist + 1, p->caphist)) {
		free(copy);
		return;
	}
	p->hist[p->nhist++] = copy;
	if (save && p->path && (f = fopen(p->path, "a"))) {
		fprintf(f, "%s\n", line);
		fclose(f);
	}
}

struct edit {
	char *buf;
	size_t len, pos, cap;
};

static int edit_set(struct edit *e, const char *s)
{
	size_t n = strlen(s);

	if (LTT_GROW_FROM(e->buf, n + 1, e->cap, 64))
		return -ENOMEM;
	memcpy(e->buf, s, n + 1);
	e->len = e->pos = n;
	return 0;
}

static int edit_insert(struct edit *e, char c)
{
	if (LTT_GROW_FROM(e->buf, e->len + 2, e->cap, 64))
		return -ENOMEM;
	memmove(e->buf + e->pos + 1, e->buf + e->pos, e->len - e->pos + 1);
	e->buf[e->pos++] = c;
	e->len++;
	return 0;
}

static void edit_delete(struct edit *e, size_t at, size_t n)
{
	memmove(e->buf + at, e->buf + at + n, e->len - at - n + 1);
	e->len -= n;
	if (e->pos > at)
		e->pos = e->pos >= at + n ? e->pos - n : at;
}

static void redraw(const char *prompt, const struct edit *e)
{
	char seq[32];

	(void)!write(STDOUT_FILENO, "\r", 1);
	(void)!write(STDOUT_FILENO, prompt, strlen(prompt));
	(void)!write(STDOUT_FILENO, e->buf, e->len);
	(void)!write(STDOUT_FILENO, "\x1b[K", 3);
	if (e->len > e->pos) {
		snprintf(seq, sizeof(seq), "\x1b[%zuD", e->len - e->pos);
		(void)!write(STDOUT_FILENO, seq, strlen(seq));
	}
}

static int read_key(void)
{
	unsigned char c;
	ssize_t n;

	do
		n = read(STDIN_FILENO, &c, 1);
	while (n < 0 && errno == EINTR);
	return n == 1 ? c : -1;
}

enum { K_LEFT = 1000, K_RIGHT, K_UP, K_DOWN, K_HOME, K_END, K_DEL };

/* An escape sequence after ESC: a K_ code, or 0 for one not known. */
static int read_escape(void)
{
	int a = read_key(), b;

	if (a != '[' && a != 'O')
		return 0;
	b = read_key();
	if (b >= '0' && b <= '9') {
		int t = read_key();

		if (t != '~')
			return 0;
		return b == '3' ? K_DEL : (b == '1' || b == '7') ? K_HOME : (b == '4' || b == '8') ? K_END : 0;
	}
	switch (b) {
	case 'A': return K_UP;
	case 'B': return K_DOWN;
	case 'C': return K_RIGHT;
	case 'D': return K_LEFT;
	case 'H': return K_HOME;
	case 'F': return K_END;
	default: return 0;
	}
}

char *sql_prompt_read(struct sql_prompt *p, const char *prompt)
{
	struct termios raw;
	struct edit e = { 0 };
	size_t h = p->nhist;	/* history position: nhist is the line being edited */
	char *draft = NULL;
	int done = 0, eof = 0;

	if (edit_set(&e, ""))
		return NULL;
	if (tcgetattr(STDIN_FILENO, &p->saved) < 0) {
		free(e.buf);
		return NULL;
	}
	raw = p->saved;
	raw.c_iflag &= ~(tcflag_t)(BRKINT | ICRNL | INPCK | ISTRIP | IXON);
	raw.c_lflag &= ~(tcflag_t)(ECHO | ICANON | IEXTEN | ISIG);
	raw.c_cc[VMIN] = 1;
	raw.c_cc[VTIME] = 0;
	tcsetattr(STDIN_FILENO, TCSANOW, &raw);	/* not TCSAFLUSH: typed-ahead input stays */
	redraw(prompt, &e);
	while (!done) {
		int k = read_key();

		if (k == 27)
			k = read_escape();
		switch (k) {
		case -1:
			eof = 1;
			done = 1;
			break;
		case '\r':
		case '\n':
			done = 1;
			break;
		case 4:		/* Ctrl-D */
			if (!e.len) {
				eof = 1;
				done = 1;
			} else if (e.pos < e.len) {
				edit_delete(&e, e.pos, 1);
			}
			break;
		case 3:		/* Ctrl-C */
			edit_set(&e, "");
			(void)!write(STDOUT_FILENO, "^C\r\n", 4);
			h = p->nhist;
			break;
		case 127:
		case 8:
			if (e.pos > 0)
				edit_delete(&e, e.pos - 1, 1);
			break;
		case K_DEL:
			if (e.pos < e.len)
				edit_delete(&e, e.pos, 1);
			break;
		case 1:
		case K_HOME:
			e.pos = 0;
			break;
		case 5:
		case K_END:
			e.pos = e.len;
			break;
		case 2:
		case K_LEFT:
			if (e.pos > 0)
				e.pos--;
			break;
		case 6:
		case K_RIGHT:
			if (e.pos < e.len)
				e.pos++;
			break;
		case 21:	/* Ctrl-U */
			edit_delete(&e, 0, e.pos);
			break;
		case 11:	/* Ctrl-K */
			e.buf[e.pos] = 0;
			e.len = e.pos;
			break;
		case K_UP:
		case K_DOWN:
			if (k == K_UP && h == 0)
				break;
			if (k == K_DOWN && h >= p->nhist)
				break;
			if (h == p->nhist) {
				free(draft);
				draft = strdup(e.buf);
			}
			h += k == K_UP ? (size_t)-1 : 1;
			edit_set(&e, h < p->nhist ? p->hist[h] : draft ? draft : "");
			break;
		default:
			if (k >= 32 && k < 256 && k != 127)
				edit_insert(&e, (char)k);
			break;
		}
		if (!done)
			redraw(prompt, &e);
	}
	tcsetattr(STDIN_FILENO, TCSANOW, &p->saved);
	(void)!write(STDOUT_FILENO, "\r\n", 2);
	free(draft);
	if (eof) {
		free(e.buf);
		return NULL;
	}
	return e.buf;
}
