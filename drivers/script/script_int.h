/*
 * script_int.h - private to drivers/script: the parser's state, shared by
 * script.c (SQL commands, meta-commands, a script's variables) and
 * expr_parse.c (pgbench's expression grammar); the evaluator, expr.c,
 * needs none of it.
 */
#ifndef PGCLIFF_SCRIPT_INT_H
#define PGCLIFF_SCRIPT_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "script.h"

/* A script being parsed. */
#define MAX_ARGS 256 /* pgbench's limit on a command's words */

struct parser
{
	struct script *s;
	const char *text; /* whole script */
	size_t len;
	struct pgc_error *err;
	int ncmds_alloc;
	int nnodes_alloc;
	int nargs_alloc;
	const char *cmdname; /* meta-command being parsed, for messages */
	/* expression tokenizer state */
	size_t pos; /* absolute offset */
	size_t end; /* end of the meta-command */
	int index;  /* of the script in its workload */
	/* "\;" seen by scan_sql in the current SQL command */
	size_t *semis;
	int nsemis;
	int semis_alloc;
	int depth; /* of parse_expr() calls: bounded, see SCRIPT_MAX_DEPTH */
	/* the line of the last command made: commands come in order, so
	 * counting goes on from there (a rescan per command was quadratic) */
	size_t line_at;
	int line_no;
};

/*
 * Expressions nest at most this deep (parentheses, unary operators,
 * function arguments): each level is a C stack frame, and 60,000 of them
 * crashed.  pgbench's parser gives up at 10,000 ("memory exhausted").
 */
#define SCRIPT_MAX_DEPTH 1000

/* A recipe error at OFFSET of the script (SPAN bytes), as FMT says; -1. */
int fail_at(struct parser *p, size_t offset, int span, const char *fmt, ...)
	PGC_PRINTF(4, 5);

/*
 * pgbench's syntax_error(): MSG, " (MORE)" when given, and " in command
 * "NAME"" inside a meta-command.
 */
int syntax_error(struct parser *p, size_t offset, int span, const char *msg,
				 const char *more);

/*
 * The slot of variable NAME (LEN bytes) in S, added when new; USE is the
 * offset of its first use.
 */
int var_slot(struct script *s, const char *name, size_t len, size_t use);

/* Parse the expression from p->pos to p->end entirely. */
int parse_full_expr(struct parser *p);

/* Skip blanks and "\" + newline continuations of the meta-command. */
void skip_blanks(struct parser *p);

/* Whether the LEN bytes at T are the keyword KW, without regard to case. */
bool word_is(const char *t, size_t len, const char *kw);

#endif /* PGCLIFF_SCRIPT_INT_H */
