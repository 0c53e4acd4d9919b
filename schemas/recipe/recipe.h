/*
 * recipe.h - load and validate a YAML recipe into an immutable model.
 *
 * Every error carries file:line:col (1-based) of the offending YAML node,
 * with a "did you mean" hint for misspelt keys.  Scripts are parsed here
 * too (through drivers/script) so that `recipe check` catches them.
 * The format is documented in schemas/recipe/REFERENCE.md.
 */
#ifndef PGCLIFF_RECIPE_H
#define PGCLIFF_RECIPE_H

#include <stdbool.h>
#include <stdint.h>

#include "base.h"
#include "build.h"
#include "placement.h"
#include "script.h"

struct recipe;

enum recipe_protocol
{
	RECIPE_PROTO_SIMPLE,
	RECIPE_PROTO_EXTENDED,
	RECIPE_PROTO_PREPARED
};

enum recipe_topology
{
	RECIPE_TOPO_PRIMARY,
	RECIPE_TOPO_PRIMARY_STANDBY /* a hot standby streaming from it */
};

/* A place in the recipe file, 1-based. */
struct recipe_pos
{
	int line;
	int col;
};

struct recipe_guc
{
	char *name;
	char *value;
	struct recipe_pos pos;
};

/* One SQL text of setup/reset, with its origin for error positions. */
struct recipe_sql
{
	char *text;
	struct script_origin origin;
};

/* One script of a workload: inline, a file, or one of pgbench's builtins. */
struct recipe_script
{
	char *label;   /* pgbench's "transaction type": path, builtin, name */
	char *file;    /* resolved path of file:, or NULL */
	char *builtin; /* "tpcb-like"... or NULL */
	int weight;    /* pgbench's @weight: share of the transactions */
	struct script *script;
	struct recipe_pos pos;
};

/* on_error: one class of error and what to do with it. */
struct recipe_rule
{
	char *key;    /* serialization, deadlock, recovery_conflict, other,
				   * a SQLSTATE ("23505") or a class ("23") */
	char *action; /* retry, continue, abort_client, abort_run */
	struct recipe_pos pos;
};

struct recipe_workload
{
	char *name;
	struct recipe_pos pos;
	char *target; /* "primary" or "standby" */
	enum recipe_protocol protocol;
	bool protocol_set;
	/* one per transaction, chosen by weight; variables are shared */
	struct recipe_script *scripts;
	int nscripts;
	int clients; /* when not swept */
	int jobs;
	int64_t transactions; /* per client, as pgbench -t; 0 = duration */
	int max_tries;  /* pgbench's --max-tries; 0: not given (1); INT32_MAX: none
					 */
	double rate;    /* pgbench's --rate, tps over the workload; 0 */
	bool reconnect; /* pgbench's -C: a connection per transaction */
	bool timed;     /* at: given: a timed event */
	int64_t at_ns;  /* starts at this second of the window */
	int64_t every_ns; /* then again every so often; 0 = once */
	int64_t until_ns; /* while before this; 0 = the window's end */
	struct recipe_pos at_pos;
	int64_t latency_limit_ns; /* pgbench's --latency-limit; 0 = none */
	struct recipe_rule *on_error;
	int non_error;
	bool swept;
};

/* One server setting of a variant: the recipe's, or the variant's over it. */
struct variant_guc
{
	char *name;
	char *value;
	const char *origin_file; /* recipe path, or NULL: the command line */
	struct recipe_pos pos;
	bool from_variant; /* set by the variant, not the recipe's server: */
};

/*
 * A server variant: another bindir, a build from source, other GUCs (over
 * the recipe's `server:`), or an external server.  The one model of a
 * variant: the recipe's variants: parse into it (their own settings only),
 * the run resolves --variant and the recipe's server: over a copy of it
 * (variants_resolve(), variant.c), the plan indexes the resolved list,
 * and targets and the store's variant rows are made from it.
 */
struct variant
{
	char *name;
	struct recipe_pos pos; /* in the recipe; line 0: the command line */
	char *bindir;          /* managed: a bindir, or NULL for the default */
	char *target;          /* external conninfo, or NULL: managed */
	struct variant_guc *gucs;
	int ngucs;
	/*
	 * build: PostgreSQL built from source: (or --source) with #define
	 * overrides, patches (resolved beside the recipe) and configure
	 * options; SPEC owns its arrays, its source is set when it is built
	 */
	bool build;
	struct build_spec spec;
	char *build_json; /* provenance, once built (variants_build) */
	/* profile: its servers' CPU profiles: 0 as the run's, -1 none, > 0
	 * at this rate (to interleave blocks with and without a profiler) */
	int profile_hz;
};

/* Free V's fields (not V). */
void variant_release(struct variant *v);

/* A deep copy of SRC into DST (whose old fields are not freed). */
void variant_copy(struct variant *dst, const struct variant *src);

/* Set NAME=VALUE among V's settings, replacing one of the same name. */
void variant_set_guc(struct variant *v, const char *name, const char *value,
					 const char *file, struct recipe_pos pos,
					 bool from_variant);

/* Set #define NAME to VALUE in V's build, replacing one of that name. */
void variant_set_define(struct variant *v, const char *name,
						const char *value);

/*
 * A run's variants: the recipe's, amended by --variant NAME:KEY=VALUE,
 * each a managed server (bindir + GUCs, maybe built from source) or an
 * external conninfo (variant.c).
 */

/*
 * Resolve the variants of a run.  ARGS are the --variant values
 * ("NAME:bindir=DIR", "NAME:target=CONNINFO", "NAME:server.GUC=VALUE",
 * "NAME:define.MACRO=VALUE", "NAME:patch=FILE", "NAME:configure=OPT",
 * "NAME:build=source", or "NAME" alone for the recipe as it is; several
 * may name one variant); they amend the recipe's variant of that name or
 * add one.  With no variants at all there is one, "default".  BINDIR and
 * TARGET are --bindir and --target: the defaults of variants that give
 * neither.  Returns the count, or -1 (PGC_ERR_USAGE) with ERR.
 */
int variants_resolve(const struct recipe *r, char *const *args, int nargs,
					 const char *bindir, const char *target,
					 struct variant **out, struct pgc_error *err);
void variants_free(struct variant *v, int n);

/*
 * Build (or find built) every variant with a build from SOURCE, and point
 * its bindir at the install.  Progress through O.  -1 with ERR.
 */
int variants_build(struct variant *vs, int n, const char *source,
				   const struct build_options *o, struct pgc_error *err);

/* Whether some variant builds from source. */
bool variants_need_source(const struct variant *vs, int n);

/*
 * -1 with ERR (PGC_ERR_USAGE) when a variant builds from source and
 * SOURCE (--source, else the recipe's source:) is NULL: what run refuses
 * before anything starts, and recipe check with it.
 */
int variants_check_source(const struct variant *vs, int n, const char *source,
						  struct pgc_error *err);

/* The build of V for people: "NUM_XLOGINSERT_LOCKS=64, patch fix.patch". */
void variant_describe_build(const struct variant *v, struct strbuf *out);

/* The GUCs set by the variant itself, "a=1, b=2" (empty when none). */
void variant_describe_gucs(const struct variant *v, struct strbuf *out);

/* init: pgbench's -i (with its options) or SQL, before setup. */
struct recipe_init
{
	bool pgbench; /* init: {pgbench: {...}} */
	struct recipe_pos pos;
	int scale;
	int fillfactor;
	int partitions;
	char *partition_method; /* "range" or "hash" */
	bool unlogged;
	bool foreign_keys;
	char *steps;            /* "dtgvp"... */
	struct recipe_sql *sql; /* init: {sql: [...]} */
	int nsql;
};

/*
 * A named stretch of the measured window, whole seconds from its start:
 * [start, end).  `before`, `during` and `after` give the dip and the
 * recovery time that compare reports.
 */
struct recipe_window
{
	char *name;
	struct recipe_pos pos;
	int start_s;
	int end_s;
};

/*
 * probes: SQL sampled every second of the window on the servers it targets,
 * beside pgcliff's own samples (engine.h: load_probe).  One row, every
 * column a number; COUNTERS name the columns that only grow.
 */
struct recipe_probe
{
	char *name;
	struct recipe_pos pos;
	char *sql;
	char *target; /* "primary", "standby", or NULL: every server */
	char **counters;
	int ncounters;
};

struct recipe
{
	char *path;
	char *text; /* the whole file, as read */
	char *name;
	char *description;
	char *source; /* source: the tree variants build from, or NULL */
	struct recipe_pos source_pos;
	struct recipe_guc *gucs;
	struct recipe_guc *primary_gucs; /* primary: over server: */
	struct recipe_guc *standby_gucs; /* standby: over server: */
	int nprimary_gucs;
	int nstandby_gucs;
	struct recipe_guc *variables; /* variables: name -> value (as -D) */
	int nvariables;
	struct recipe_init init;
	bool has_init;
	struct recipe_sql *setup;
	struct recipe_sql *reset; /* before every measured point */
	struct recipe_workload *workloads;
	/* sweep */
	int *sweep_clients;
	int *sweep_jobs_list; /* parallel to sweep_clients, or NULL */
	/* variants (none: the run has one variant, "default") */
	struct variant *variants;
	struct recipe_window *windows;
	struct recipe_probe *probes;
	int nprobes;
	/* measure: workload.metric */
	char *measure_workload;
	char *measure_metric;
	int64_t duration_ns; /* 0 when every workload runs transactions: */
	int64_t warmup_ns;   /* with warmup_stable: the longest */
	enum recipe_topology topology;
	int ngucs;
	int nsetup;
	int nreset;
	int repeat;
	int nworkloads;
	int nsweep_clients;
	int sweep_jobs; /* when !sweep_jobs_eq_clients and no list */
	int nvariants;
	int nwindows;
	int profile_hz; /* profile: servers' CPU profiles at this rate; 0 off */
	/* profile: {callgraph: fp|dwarf}: an enum profile_callgraph, 0 none */
	int profile_callgraph;
	bool sweep_jobs_eq_clients;
	bool restart_per_block; /* restart: block (default) | never */
	bool separately;        /* run_workloads: separately */
	bool warmup_stable;     /* warmup: stable[:MAX] */
	/* placement: where servers and driver run (free when not given) */
	bool has_placement;
	struct placement placement;
	struct recipe_pos placement_pos;
	struct recipe_pos placement_list_pos[2]; /* its server and driver lists */
};

/*
 * Load PATH.  NULL with err filled (kind PGC_ERR_RECIPE or PGC_ERR_IO)
 * on failure.  The caller frees the result with recipe_free().
 */
struct recipe *recipe_load(const char *path, struct pgc_error *err);

/* Same, from text in memory; PATH names it in errors and resolves file:. */
struct recipe *recipe_load_text(const char *path, const char *text,
								struct pgc_error *err);

void recipe_free(struct recipe *r);

/*
 * What the command line sets over a recipe (run's and bisect's options,
 * pgbench's words).  Zero, or -1 where said, leaves the recipe's.
 */
struct recipe_override
{
	const int *clients;                /* -c: the sweep's client counts */
	char *const *defines;              /* -D NAME=VALUE, over variables: */
	const struct placement *placement; /* --placement: NULL the recipe's */
	int64_t duration_ns;               /* -T */
	int64_t transactions;              /* -t, per client */
	int64_t warmup_ns;                 /* --warmup (with warmup_set) */
	int64_t latency_limit_ns;          /* -L */
	double rate;                       /* -R, per workload */
	int nclients;
	int ndefines;
	int jobs;      /* -j */
	int protocol;  /* -M: an enum recipe_protocol, -1 the recipe's */
	int max_tries; /* --max-tries: 0 unlimited, -1 the recipe's */
	int repeat;    /* --repeat */
	bool warmup_set;
	bool warmup_stable; /* with warmup_set: warmup_ns is the longest */
	bool reconnect;     /* -C: every workload a connection per transaction */
};

/*
 * Apply O to R, once, before anything reads it (override.c): the sweep's
 * clients (whose jobs list, written for the recipe's points, then gives
 * way to one thread per client), every workload's jobs, protocol,
 * transactions (-T turns a recipe of transactions into durations), rate,
 * latency limit, tries and reconnect, the duration, warm-up and repeats,
 * -D's variables (set over the recipe's, new ones after them) and the
 * placement (then no longer the file's: no position in its errors).  -1
 * with ERR (PGC_ERR_USAGE) for a window past -T or an invalid -D name; R
 * is then unchanged.
 */
int recipe_override(struct recipe *r, const struct recipe_override *o,
					struct pgc_error *err);

/* One script of pgbench's command line: -f FILE[@W] or -b NAME[@W]. */
struct recipe_script_arg
{
	const char *file;    /* as given, or NULL */
	const char *builtin; /* a builtin's name or prefix, or NULL */
	int weight;
};

/*
 * pgbench mode: a one-workload recipe of ARGS (N scripts) built directly,
 * with pgbench's defaults (one client on one thread; 10 transactions per
 * client unless DURATION_US or TRANSACTIONS is given; INIT_SCALE > 0:
 * pgbench -i -s INIT_SCALE first).  Its name comes from the first
 * script; its text, for the store, is the equivalent YAML recipe.  Errors
 * point into the script files.  NULL with ERR.
 */
struct recipe *recipe_from_scripts(const struct recipe_script_arg *args, int n,
								   int64_t duration_ns, int64_t transactions,
								   int init_scale, struct pgc_error *err);

/*
 * Check every workload's script for variables nothing assigns: not the
 * script, not the recipe's variables:, not the NEXTRA names given by the
 * caller (-D).  -1 with err at the first use of such a variable.
 */
int recipe_check_variables(const struct recipe *r, const char *const *extra,
						   int nextra, struct pgc_error *err);

/* The shortest window a point may have (duration:, -T): one second, the
 * unit of its series. */
#define RECIPE_MIN_DURATION_NS 1000000000LL

/*
 * Parse "5s", "500ms", "2min", "1h", "90" (seconds) into nanoseconds, the
 * one time unit from the recipe to the engine.  -1 on error (no sign, hex
 * or exponent; at most a year).
 */
int64_t recipe_parse_duration_ns(const char *text);

/*
 * A warm-up: a duration ("5s"), or "stable" / "stable:MAX" — until the
 * point's throughput is stable, at most MAX (RECIPE_WARMUP_STABLE_MAX_NS
 * when not given).  0 with *NS and *STABLE set, -1 when it is neither.
 */
#define RECIPE_WARMUP_STABLE_MAX_NS (60 * 1000000000LL)
int recipe_parse_warmup(const char *text, int64_t *ns, bool *stable);

const char *recipe_protocol_name(enum recipe_protocol p);
int recipe_protocol_parse(const char *text, enum recipe_protocol *out);

/* The metric names `measure:` accepts, NULL-terminated. */
extern const char *const recipe_metrics[];

/* profile: on samples at this rate (profile.h's default) */
#define RECIPE_PROFILE_HZ 99

/* "on" (RECIPE_PROFILE_HZ), "off" (0) or a rate in Hz, 1 to 10000, as
 * the recipe's and a variant's profile: take it; -1 for anything else */
int recipe_profile_parse(const char *text);

/*
 * Jobs of the recipe's sweep point I (0 <= I < nsweep_clients), which has
 * CLIENTS clients; clamped to them.  Overrides (-c, -j) are the caller's.
 */
int recipe_sweep_jobs(const struct recipe *r, int i, int clients);

/*
 * Whether S is a valid name of a recipe, workload, variant or window:
 * a letter or _, then letters, digits, _ and -, RECIPE_NAME_MAX at most.
 */
bool recipe_is_name(const char *s);

/* The longest name a recipe, workload, window or variant may have. */
#define RECIPE_NAME_MAX 63

/* Whether NAME is a valid server setting name, as `server:` checks it. */
bool recipe_guc_name_ok(const char *name);

/* ----------------------------------------------------------------- plan */

/*
 * One stretch of a run: variant V measures sweep point SWEEP (an index into
 * the client list) for repeat BLOCK.
 */
struct recipe_plan_step
{
	int block;
	int variant;
	int sweep;
	int workload; /* -1: all at once; else the one workload measured */
};

/*
 * The order a run measures its points in.  One variant: sweep points in
 * order, each repeated BLOCKS times in a row (the order of the seeds).
 * Several variants: counterbalanced blocks, one per repeat, the variants of
 * block b in row b of a Williams design (AB, BA, AB, ... for two; for more,
 * every variant takes every position and follows every other equally
 * often, so neither drift nor what one variant leaves behind for the next
 * favours a side), and within a block the sweep points in a random order
 * drawn from SEED (the same for every variant of the block).  Returns the
 * number of steps (NVARIANTS * NSWEEP * BLOCKS); the caller frees *STEPS.
 */
int recipe_plan(int nvariants, int nsweep, int blocks, uint64_t seed,
				struct recipe_plan_step **steps);

/*
 * The plan of recipe R: recipe_plan(), and with `run_workloads:
 * separately` every step once per workload (a workload the sweep does not
 * apply to only at its first point, when SWEPT).
 */
int recipe_plan_for(const struct recipe *r, int nvariants, int nsweep,
					bool swept, int blocks, uint64_t seed,
					struct recipe_plan_step **steps);

/* Whether some workload runs one of pgbench's builtin scripts. */
bool recipe_uses_builtin(const struct recipe *r);

/* Find a workload by name, or NULL. */
const struct recipe_workload *recipe_workload_find(const struct recipe *r,
												   const char *name);

#endif /* PGCLIFF_RECIPE_H */
