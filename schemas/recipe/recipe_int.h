/*
 * recipe_int.h - private to schemas/recipe: the loader's state and the
 * helpers its files share: recipe.c (the YAML walk's helpers, the top
 * level, loading and freeing), parts.c (init, variables, settings,
 * variants and builds, windows, probes, measure, placement), workload.c
 * (workloads, their scripts and failure policies, the sweep),
 * pgbench_mode.c (a recipe made from pgbench's -f/-b), variant.c (a run's
 * variants).
 */
#ifndef PGCLIFF_RECIPE_INT_H
#define PGCLIFF_RECIPE_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <yaml.h>

#include "recipe.h"

#define MAX_CLIENTS 100000
#define MAX_REPEAT  1000

struct loader
{
	const char *path;
	const char *text;
	yaml_document_t *doc;
	struct recipe *r;
	struct pgc_error *err;
};

/*
 * A name that recipe_is_name() refuses, at NODE: too long (not echoed:
 * a 100,000-character name is not repeated whole), or which character.
 */
int bad_name(struct loader *ld, const yaml_node_t *node, const char *what,
			 const char *name);

/*
 * Check the keys of a mapping: each a scalar, known (any key when KNOWN
 * is NULL), and not repeated.  CONTEXT completes "unknown key 'x' ..." (e.g.
 * "in workload 'reads'").
 */
int check_keys(struct loader *ld, const yaml_node_t *map,
			   const char *const *known, const char *context);

/* -1 with a located error unless NODE is a mapping (WHAT names it). */
int expect_mapping(struct loader *ld, const yaml_node_t *node,
				   const char *what);

/* -1 with a located error unless NODE is a scalar (WHAT names it). */
int expect_scalar(struct loader *ld, const yaml_node_t *node,
				  const char *what);

/* The loader's error at NODE (file:line:col and its span), as FMT says; -1. */
int fail(struct loader *ld, const yaml_node_t *node, const char *fmt, ...)
	PGC_PRINTF(3, 4);

/* The value of KEY in the mapping MAP, or NULL. */
yaml_node_t *lookup(struct loader *ld, const yaml_node_t *map,
					const char *key);

/* The document's node INDEX. */
yaml_node_t *node_at(struct loader *ld, int index);

/* "a scalar", "a list" or "a mapping", for messages. */
const char *node_kind(const yaml_node_t *node);

/* A YAML boolean (true/false, on/off, yes/no) at NODE into *OUT. */
int parse_bool(struct loader *ld, const yaml_node_t *node, const char *what,
			   bool *out);

/* A duration with its unit ("5s", "100ms") at NODE, in ns, into *OUT. */
int parse_duration(struct loader *ld, const yaml_node_t *node,
				   const char *what, bool allow_zero, int64_t *out);

/* An integer in [MIN, MAX] at NODE into *OUT. */
int parse_int(struct loader *ld, const yaml_node_t *node, const char *what,
			  long min, long max, int *out);

/* profile: on | off | HZ (cpu-clock samples per second, profile.h) into
 * *HZ; off is OFF */
int parse_profile(struct loader *ld, const yaml_node_t *node, int *out,
				  int off);

/* A list of SQL strings (or one string) for setup:/reset:. */
int parse_sql_list(struct loader *ld, const yaml_node_t *node,
				   const char *what, struct recipe_sql **out, int *nout);

/* NODE's position, 1-based. */
struct recipe_pos pos_of(const yaml_node_t *node);

/*
 * Where the characters of a scalar start in the file, so that errors in
 * SQL or scripts (and server error positions) point at the recipe.  For a
 * literal block ("|") the content starts on the next line at the block's
 * indentation; quoted scalars start one column after the quote.
 */
void scalar_origin(struct loader *ld, const yaml_node_t *node,
				   struct script_origin *o);

/* A scalar node's text. */
const char *scalar(const yaml_node_t *node);

/* Room for one entry per pair of mapping NODE, and one more, zeroed. */
void *mapping_alloc(const yaml_node_t *node, size_t size);

/* A mapping of GUCs (`server:` of the recipe or of a variant). */
int parse_gucs(struct loader *ld, const yaml_node_t *node, const char *what,
			   struct recipe_guc **gucs, int *ngucs);

/*
 * Without `duration`, every workload must run a number of transactions;
 * some but not all is an error either way.
 */
int check_transactions(struct loader *ld, const yaml_node_t *root);

/* init: {pgbench: {scale: 10, ...}} or init: {sql: [...]} */
int parse_init(struct loader *ld, const yaml_node_t *node);

/* measure: WORKLOAD.METRIC, the workload one of the recipe's. */
int parse_measure(struct loader *ld, const yaml_node_t *node);

/*
 * placement: free | split | SERVER/DRIVER, or {server: LIST, driver:
 * LIST}.  Only the form is checked here: which CPUs exist is the run's
 * machine's business (placement_resolve()).
 */
int parse_placement(struct loader *ld, const yaml_node_t *v);

/* probes: NAME: {sql: ..., target: ..., counters: [...]}, ... */
int parse_probes(struct loader *ld, const yaml_node_t *node);

/* `variables:`: script variables, as pgbench's -D NAME=VALUE. */
int parse_variables(struct loader *ld, const yaml_node_t *node);

/* variants: NAME: {server:, bindir:, target:, build:, profile:}. */
int parse_variants(struct loader *ld, const yaml_node_t *node);

/* windows: NAME: [START, END], each bound a duration from the start. */
int parse_windows(struct loader *ld, const yaml_node_t *node);

/*
 * The encoding of TEXT when it is UTF-16 or UTF-32 (a byte order mark,
 * or ASCII with a NUL after or before every character), else NULL.
 */
const char *utf16_or_32(const char *text, size_t len);

/*
 * A swept workload takes clients and jobs from the sweep, so giving them
 * in the workload too would be ambiguous.
 */
int check_swept_workloads(struct loader *ld, const yaml_node_t *workloads);

/* on_error: {serialization: retry, "23505": abort_run, ...} */
int parse_on_error(struct loader *ld, const yaml_node_t *node,
				   struct recipe_workload *w);

/* sweep: clients:, jobs:, workloads:. */
int parse_sweep(struct loader *ld, const yaml_node_t *node);

/* workloads: NAME: {...}, each checked and built. */
int parse_workloads(struct loader *ld, const yaml_node_t *node);

/*
 * A script file's text (SHOWN: its name as the user gave it): refused when it
 * is UTF-16 or UTF-32, or holds a NUL byte (everything after it would be
 * lost), with the reason in ERR.
 */
char *read_script_file(const char *path, const char *shown,
					   struct pgc_error *err);

/* FILE as named beside the recipe at RECIPE_PATH (absolute stays). */
char *resolve_beside(const char *recipe_path, const char *file);

#endif /* PGCLIFF_RECIPE_INT_H */
