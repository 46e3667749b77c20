/* SPDX-License-Identifier: MIT */
/* The interactive prompt of `ltt sql` (sql_prompt.c). */
#ifndef LTT_TOOLS_SQL_PROMPT_H
#define LTT_TOOLS_SQL_PROMPT_H

struct sql_prompt;

/* With the history of $HOME/.ltt_sql_history; NULL on ENOMEM. */
struct sql_prompt *sql_prompt_new(void);
void sql_prompt_free(struct sql_prompt *p);
/* Reads one line from the terminal: malloc'ed, without its newline; NULL at the end of input. */
char *sql_prompt_read(struct sql_prompt *p, const char *prompt);
/* Adds a line to the history (and to the history file when save). */
void sql_prompt_add(struct sql_prompt *p, const char *line, int save);

#endif
