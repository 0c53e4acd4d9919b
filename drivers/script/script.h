/*
 * script.h - pgbench's script language: parse a script into commands once,
 * then evaluate it per transaction without allocating.
 *
 * Supported here: SQL commands split at top-level semicolons (quotes,
 * dollar quotes, comments and parentheses respected), ":name"
 * substitution exactly as pgbench does it (also inside literals, "::type"
 * casts left alone), and "\set name expr" with pgbench's int64 arithmetic
 * and functions abs, greatest, least, mod, random.  Anything else pgbench
 * accepts is refused with a clear error at parse time, never ignored.
 *
 * A parsed script is immutable and may be shared by any number of threads.
 */
#ifndef PGCLIFF_SCRIPT_H
#define PGCLIFF_SCRIPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base.h"

/* Where a script's text came from, to report file:line:col. */
struct script_origin
{
	const char *file; /* file to name in errors */
	int first_line;   /* 1-based line of the script's 1st line */
	int first_col;    /* 0-based column of its first character */
	int indent;       /* 0-based column of later lines */
};

enum script_cmd_kind
{
	SCRIPT_CMD_SQL,
	SCRIPT_CMD_SET
};

/* A ":name" replaced by "$n" in the text sent to the server. */
struct script_subst
{
	size_t sent_offset; /* where "$n" starts in sql_params */
	size_t sent_len;    /* strlen("$n") */
	size_t orig_len;    /* strlen(":name") */
};

/* One literal piece of a SQL command followed by a variable (or none). */
struct script_piece
{
	const char *text; /* points into the command's sql_text */
	size_t len;
	int var; /* slot to append after it, -1 at the end */
};

struct script_cmd
{
	enum script_cmd_kind kind;
	size_t offset; /* byte offset in the script text */
	/* SCRIPT_CMD_SQL */
	char *sql_text;   /* the command as written, ":name" kept */
	char *sql_params; /* text with $1..$n (extended/prepared) */
	int nparams;
	int *param_vars; /* variable slot of each $n */
	struct script_subst *substs;
	struct script_piece *pieces; /* simple protocol: text + vars */
	int npieces;
	char *stmt_name; /* "P<cmd index>" for the prepared mode */
	/* SCRIPT_CMD_SET */
	int set_var;
	int expr; /* root node index */
};

/* Expression nodes, in one flat array per script. */
enum script_node_kind
{
	SNODE_INT,
	SNODE_VAR,
	SNODE_NEG,
	SNODE_ADD,
	SNODE_SUB,
	SNODE_MUL,
	SNODE_DIV,
	SNODE_MOD,
	SNODE_FUNC
};

enum script_func
{
	SFUNC_ABS,
	SFUNC_GREATEST,
	SFUNC_LEAST,
	SFUNC_MOD,
	SFUNC_RANDOM
};

#define SCRIPT_MAX_ARGS 8

struct script_node
{
	enum script_node_kind kind;
	int64_t ival;          /* SNODE_INT */
	int var;               /* SNODE_VAR */
	enum script_func func; /* SNODE_FUNC */
	int nargs;
	int args[SCRIPT_MAX_ARGS]; /* child node indices */
	size_t offset;             /* in the script text, for errors */
};

/* Automatic variables, always present in these slots. */
enum
{
	SCRIPT_VAR_CLIENT_ID = 0,
	SCRIPT_VAR_SCALE,
	SCRIPT_VAR_RANDOM_SEED,
	SCRIPT_VAR_DEFAULT_SEED,
	SCRIPT_NAUTOVARS
};

struct script
{
	char *name;
	char *text;
	struct script_origin origin;
	char *origin_file; /* owned copy of origin.file */
	struct script_cmd *cmds;
	int ncmds;
	int nsql;         /* how many commands are SQL */
	char **var_names; /* slot -> name */
	int nvars;
	struct script_node *nodes;
	int nnodes;
	int max_params; /* widest SQL command */
};

/*
 * Parse TEXT (borrowed; copied).  NAME labels the script in output.
 * NULL with err filled (file:line:col from ORIGIN) on a syntax error.
 * The caller frees the result with script_free().
 */
struct script *script_parse(const char *name, const char *text,
							const struct script_origin *origin,
							struct pgc_error *err);
void script_free(struct script *s);

/*
 * Map a byte OFFSET in TEXT, which came from ORIGIN, to a 1-based file
 * line and column.  Used for scripts and for any other SQL from a recipe.
 */
void script_origin_locate(const struct script_origin *origin, const char *text,
						  size_t offset, int *line, int *col);

/* Map a byte offset in the script text to a 1-based file line/col. */
void script_locate(const struct script *s, size_t offset, int *line, int *col);

/*
 * Map a server error position (1-based, in characters of the text sent)
 * inside SQL command CMD back to a byte offset in the script text.
 */
size_t script_sql_offset(const struct script *s, int cmd, int sent_position);

/* ---------------------------------------------------------------------
 * Evaluation state, one per client.  No allocation after script_vars_init.
 * ------------------------------------------------------------------- */

struct script_vars
{
	int64_t *values;
	bool *isset;
	int nvars;
	struct prng prng; /* pgbench's generator, one stream per client */
	char errmsg[256]; /* runtime error text */
};

void script_vars_init(struct script_vars *v, const struct script *s,
					  int client_id, int64_t scale, uint64_t seed);
void script_vars_release(struct script_vars *v);

/*
 * Evaluate node NODE.  false with v->errmsg set on a runtime error
 * (division by zero, bigint out of range, unset variable...).
 */
bool script_eval(const struct script *s, int node, struct script_vars *v,
				 int64_t *out);

/* Run a \set command.  false with v->errmsg set on error. */
bool script_exec_set(const struct script *s, const struct script_cmd *c,
					 struct script_vars *v);

#endif /* PGCLIFF_SCRIPT_H */
