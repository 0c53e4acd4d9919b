/*
 * script.h - pgbench 15's script language: parse a script into commands
 * once, then evaluate it per transaction without allocating.
 *
 * The whole language: SQL commands split at top-level semicolons the way
 * psql's lexer does (quotes, dollar quotes, comments, parentheses), "\;"
 * compound statements, ":name" substitution exactly as pgbench does it,
 * and the meta-commands \set (pgbench's expression language: int64,
 * double, boolean and NULL values, operators, CASE, every function),
 * \sleep, \if/\elif/\else/\endif, \gset/\aset, \shell/\setshell and
 * \startpipeline/\syncpipeline/\endpipeline.  Syntax errors carry
 * file:line:col and pgbench's own message text.
 *
 * A parsed script is immutable and may be shared by any number of threads.
 * Per-client state (struct script_vars) holds the variables and the
 * client's random stream.
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

/* ---------------------------------------------------------------- values */

enum script_vtype
{
	SV_NONE = 0, /* no value (unset, or only a string so far) */
	SV_NULL,
	SV_BOOL,
	SV_INT,
	SV_DOUBLE
};

struct script_value
{
	enum script_vtype type;
	union
	{
		int64_t i;
		double d;
		bool b;
	} u;
};

/* ------------------------------------------------------------- commands */

enum script_cmd_kind
{
	SCRIPT_CMD_SQL,
	SCRIPT_CMD_SET,
	SCRIPT_CMD_SETSHELL,
	SCRIPT_CMD_SHELL,
	SCRIPT_CMD_SLEEP,
	SCRIPT_CMD_IF,
	SCRIPT_CMD_ELIF,
	SCRIPT_CMD_ELSE,
	SCRIPT_CMD_ENDIF,
	SCRIPT_CMD_STARTPIPELINE,
	SCRIPT_CMD_SYNCPIPELINE,
	SCRIPT_CMD_ENDPIPELINE
};

/* What a SQL command does with its result (\gset / \aset). */
enum script_store
{
	SCRIPT_STORE_NONE,
	SCRIPT_STORE_GSET, /* the last result must have exactly one row */
	SCRIPT_STORE_ASET  /* every result's last row, empty ones skipped */
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

/* A word of \shell, \setshell or \sleep: literal text or a variable. */
struct script_word
{
	char *text; /* literal (a leading "::" already made ":") */
	int var;    /* slot when the word is ":name", else -1 */
};

struct script_cmd
{
	enum script_cmd_kind kind;
	size_t offset;    /* byte offset in the script text */
	int line;         /* 1-based line within the script, as pgbench counts */
	char *first_line; /* the command's first line, for messages */
	/* SCRIPT_CMD_SQL */
	char *sql_text;   /* the command as written, ":name" kept */
	char *sql_params; /* text with $1..$n (extended/prepared) */
	int nparams;
	int *param_vars; /* variable slot of each $n */
	struct script_subst *substs;
	struct script_piece *pieces; /* simple protocol: text + vars */
	int npieces;
	char *stmt_name; /* "P<cmd index>" for the prepared mode */
	int nqueries;    /* statements joined with "\;", >= 1 */
	enum script_store store;
	char *store_prefix; /* \gset PREFIX, "" without */
	/* SCRIPT_CMD_SET, _IF, _ELIF */
	int set_var;
	int expr; /* root node index */
	/* SCRIPT_CMD_IF, _ELIF, _ELSE: where a false branch goes */
	int next_branch; /* the next \elif, \else or \endif */
	int endif;       /* the matching \endif */
	/* SCRIPT_CMD_SHELL, _SETSHELL (set_var), _SLEEP */
	struct script_word *words;
	int nwords;
	int64_t sleep_unit_us; /* _SLEEP: 1, 1000 or 1000000 */
};

/* ---------------------------------------------------------- expressions */

enum script_node_kind
{
	SNODE_CONST,
	SNODE_VAR,
	SNODE_FUNC
};

/* pgbench's functions, operators included (they are functions there). */
enum script_func
{
	SF_ADD,
	SF_SUB,
	SF_MUL,
	SF_DIV,
	SF_MOD,
	SF_ABS,
	SF_LEAST,
	SF_GREATEST,
	SF_DEBUG,
	SF_PI,
	SF_SQRT,
	SF_LN,
	SF_EXP,
	SF_INT,
	SF_DOUBLE,
	SF_RANDOM,
	SF_RANDOM_GAUSSIAN,
	SF_RANDOM_EXPONENTIAL,
	SF_RANDOM_ZIPFIAN,
	SF_POW,
	SF_AND,
	SF_OR,
	SF_NOT,
	SF_BITAND,
	SF_BITOR,
	SF_BITXOR,
	SF_LSHIFT,
	SF_RSHIFT,
	SF_EQ,
	SF_NE,
	SF_LE,
	SF_LT,
	SF_IS,
	SF_CASE,
	SF_HASH_MURMUR2,
	SF_HASH_FNV1A,
	SF_PERMUTE
};

struct script_node
{
	enum script_node_kind kind;
	struct script_value value; /* SNODE_CONST */
	int var;                   /* SNODE_VAR */
	enum script_func func;     /* SNODE_FUNC */
	int nargs;
	int first_arg; /* index into script.args */
	size_t offset; /* in the script text, for errors */
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
	int nsql;              /* how many commands are SQL */
	char **var_names;      /* slot -> name */
	bool *var_assigned;    /* slot -> \set or \setshell assigns it */
	size_t *var_first_use; /* slot -> offset of its first use */
	int nvars;
	bool has_store; /* some \gset or \aset: any name may be assigned */
	struct script_node *nodes;
	int nnodes;
	int *args; /* function arguments: node indices */
	int nargs;
	int max_params; /* widest SQL command */
	int max_words;  /* widest \shell */
};

/*
 * Parse TEXT (borrowed; copied).  NAME labels the script in output.
 * NULL with err filled (file:line:col from ORIGIN) on a syntax error.
 * The caller frees the result with script_free().
 */
struct script *script_parse(const char *name, const char *text,
							const struct script_origin *origin,
							struct pgc_error *err);

/*
 * Parse the INDEX-th script of a workload whose scripts share one set of
 * variables, as pgbench's scripts do: PREV (the previous script, or NULL)
 * gives the slots its variables already have, so a variable keeps its slot
 * in every script, and the last script knows them all.  Prepared
 * statements are named "P<INDEX>_<command>".
 */
struct script *script_parse_next(const struct script *prev, int index,
								 const char *name, const char *text,
								 const struct script_origin *origin,
								 struct pgc_error *err);
void script_free(struct script *s);

/*
 * The load-time check pgbench leaves to run time: a variable that is used
 * but that nothing can assign (no \set, \setshell, \gset or \aset in any
 * of the NSCRIPTS scripts of a workload, not automatic, and not among the
 * NDEFINED names given by the caller: -D, a recipe's variables:).  -1 with
 * err at its first use.
 */
int script_check_variables(const struct script *const *scripts, int nscripts,
						   const char *const *defined, int ndefined,
						   struct pgc_error *err);

/* Slot of variable NAME, or -1 when the script never mentions it. */
int script_var_slot(const struct script *s, const char *name);

/* pgbench's built-in scripts. */
struct script_builtin
{
	const char *name; /* "tpcb-like" */
	const char *desc; /* "<builtin: TPC-B (sort of)>" */
	const char *text;
};

extern const struct script_builtin script_builtins[];
extern const int script_nbuiltins;

/*
 * The built-in script NAME, or a unique prefix of one ("select" for
 * select-only), as pgbench's -b finds them.  NULL with *NFOUND set to 0
 * (none) or the number of ambiguous matches.
 */
const struct script_builtin *script_builtin_find(const char *name,
												 int *nfound);

/*
 * Map a byte OFFSET in TEXT, which came from ORIGIN, to a 1-based file
 * line and column.  Used for scripts and for any other SQL from a recipe.
 */
void script_origin_locate(const struct script_origin *origin, const char *text,
						  size_t offset, int *line, int *col);

/* Map a byte offset in the script text to a 1-based file line/col. */
void script_locate(const struct script *s, size_t offset, int *line, int *col);

/*
 * Map a byte offset in the text sent for SQL command CMD (its
 * sql_params, as cluster_pg_error() turns the server's character
 * position into bytes) back to a byte offset in the script text.
 */
size_t script_sql_offset(const struct script *s, int cmd, size_t sent_offset);

/* ---------------------------------------------------------------------
 * Evaluation state, one per client.
 * ------------------------------------------------------------------- */

/* One variable of one client: a value, a string, or both. */
struct script_var
{
	struct script_value v; /* SV_NONE: not parsed from str yet */
	char *str;             /* text form, valid when has_str */
	size_t cap;
	bool has_str;
	bool isset;
};

/* A variable given from outside the script (-D NAME=VALUE, variables:). */
struct script_define
{
	const char *name;
	const char *value;
};

/* Where debug() writes: one line, without the newline. */
typedef void (*script_debug_fn)(void *arg, const char *line);

struct script_vars
{
	struct script_var *vars;
	int nvars;
	struct prng prng; /* pgbench's cs_func_rs */
	int client_id;
	int script_index; /* pgbench's "script=%d" */
	int cmd_index;    /* 0-based, for debug()'s "command=%d" */
	script_debug_fn debug;
	void *debug_arg;
	char errmsg[512]; /* runtime error text */
};

/*
 * Set up client state: the automatic variables (unless DEFINES, which are
 * applied first, name them, as pgbench's -D overrides), and the random
 * stream seeded with FUNC_SEED (pgbench draws it from its base sequence).
 */
void script_vars_init(struct script_vars *v, const struct script *s,
					  int client_id, int64_t scale, int64_t random_seed,
					  int64_t default_seed, uint64_t func_seed,
					  const struct script_define *defines, int ndefines);
void script_vars_release(struct script_vars *v);

/*
 * Evaluate node NODE.  false with v->errmsg set on a runtime error, with
 * pgbench's message (division by zero, bigint add out of range...).
 */
bool script_eval(const struct script *s, int node, struct script_vars *v,
				 struct script_value *out);

/* pgbench's truth of a value for \if: NULL and zero are false. */
bool script_value_truth(const struct script_value *val);

/* Run a \set command.  false with v->errmsg set on error. */
bool script_exec_set(const struct script *s, const struct script_cmd *c,
					 struct script_vars *v);

/*
 * The text of variable SLOT as pgbench substitutes it (its string, or the
 * value formatted: int, "%.15g", true/false, NULL), in BUF (at least
 * SCRIPT_TEXT_WIDTH bytes) unless it has a string.  NULL when unset.
 */
#define SCRIPT_TEXT_WIDTH 64
const char *script_var_text(struct script_vars *v, int slot, char *buf);

/* Give SLOT a string value (\gset, -D); its value is parsed when used. */
void script_var_put_string(struct script_vars *v, int slot, const char *str);

/* Give SLOT a value. */
void script_var_put_value(struct script_vars *v, int slot,
						  const struct script_value *val);

/*
 * pgbench's valid_variable_name(): ASCII letters, digits, '_' and any
 * non-ASCII byte, not starting with a digit.
 */
bool script_valid_var_name(const char *name);

/*
 * \sleep's duration in microseconds.  false with v->errmsg on an unset
 * or non-numeric variable.
 */
bool script_sleep_us(const struct script_cmd *c, struct script_vars *v,
					 int64_t *us);

/*
 * Build the command line of \shell or \setshell into OUT (a NUL-terminated
 * string of at most SIZE bytes).  false with v->errmsg when a variable is
 * unset or the line is too long.
 */
#define SCRIPT_SHELL_SIZE 256 /* pgbench's SHELL_COMMAND_SIZE */
bool script_shell_line(const struct script_cmd *c, struct script_vars *v,
					   char *out, size_t size);

#endif /* PGCLIFF_SCRIPT_H */
