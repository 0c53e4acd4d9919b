/*
 * run_int.h - private to cmd/conductor/run: the provenance a run row records
 * (host facts, the recipe's hash) and the one way run/ turns a jansson
 * value into stored text.
 */
#ifndef PGCLIFF_RUN_INT_H
#define PGCLIFF_RUN_INT_H

#include "pjson.h"
#include <inttypes.h>
#include <stdint.h>

#include "cost.h"
#include "engine.h"

struct target;

struct host_facts
{
	char name[256];
	char cpu[256];
	int cores;
	int64_t mem_bytes;
	char kernel[256];
};

/* The machine: host name, CPU model, online cores, memory, kernel. */
void host_facts(struct host_facts *h);

/* SHA-256 of TEXT as 64 hex digits; caller frees. */
char *sha256_hex(const char *text);

/* J as one line of JSON ({"a": 1, "b": [2]}), released; caller frees. */
#define json_text(j) pjson_text((j), JSON_REAL_PRECISION(15))

/* ---------------------------------------------------------------------
 * Counted points (run --count; count.c)
 * ------------------------------------------------------------------- */

/* The functions a counted point keeps, largest first. */
#define COUNT_TOP_FUNCTIONS 200

/* The warm transactions of a count of N: a tenth of it, at least 1. */
uint64_t count_warm_txns(uint64_t n);

/* A counted point: per transaction (enum cost_event) and by function. */
struct count_result
{
	double per[COST_NEVENTS];
	struct cost_fn_share *fns; /* names owned */
	int nfns;
};

/*
 * Count LP on T's primary (started under callgrind): after one connection
 * of its own, LP at count_warm_txns(N) transactions per client, then at
 * that + N; RES gets the second run's results (load_result_release() it
 * whenever filled), OUT the difference per transaction.  LP's workloads'
 * transaction counts are overwritten.  -1 with ERR.
 */
int count_point(const struct target *t, const struct load_point *lp,
				uint64_t n, struct load_result *res, struct count_result *out,
				struct pgc_error *err);
void count_result_release(struct count_result *c);

#endif /* PGCLIFF_RUN_INT_H */
