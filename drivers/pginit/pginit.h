/*
 * pginit.h - pgbench -i: create and fill pgbench's tables, with pgbench
 * 15's DDL, data and steps (d drop, t create, g client-side generate,
 * G server-side generate, v vacuum, p primary keys, f foreign keys),
 * partitions by range or hash, fillfactor, unlogged tables, tablespaces.
 *
 * A library: progress goes to a callback, errors to struct pgc_error.
 */
#ifndef PGCLIFF_PGINIT_H
#define PGCLIFF_PGINIT_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "base.h"

struct pg_conn; /* libpq's PGconn */

#define PGINIT_STEPS_DEFAULT "dtgvp"
#define PGINIT_STEPS_ALL     "dtgGvpf"

enum pginit_partition
{
	PGINIT_PART_NONE,
	PGINIT_PART_RANGE,
	PGINIT_PART_HASH
};

struct pginit_opts
{
	int scale;      /* >= 1 */
	int fillfactor; /* 10..100; 0 = 100 */
	int partitions; /* 0 = not partitioned */
	enum pginit_partition method;
	bool unlogged;
	const char *steps; /* NULL = PGINIT_STEPS_DEFAULT */
	const char *tablespace;
	const char *index_tablespace;
	bool quiet; /* client-side generation: a line every 5 s, not 100k rows */
	/* one progress line (without newline); may be NULL */
	void (*progress)(void *arg, const char *line);
	void *progress_arg;
	/* set from a signal handler to stop between rows */
	volatile sig_atomic_t *interrupt;
};

/*
 * Check a steps string ("dtgvp"...).  -1 with err (PGC_ERR_USAGE) naming
 * the first character that is no step.
 */
int pginit_check_steps(const char *steps, struct pgc_error *err);

/*
 * Run the steps on CONN.  SUMMARY (at least 512 bytes) gets pgbench's
 * closing line, "done in 1.23 s (drop tables 0.01 s, ...)".  -1 with err
 * (PGC_ERR_SQL with the SQLSTATE, or PGC_ERR_INTERRUPTED) on failure.
 */
int pginit_run(struct pg_conn *conn, const struct pginit_opts *o,
			   char *summary, size_t summary_size, struct pgc_error *err);

/*
 * What pgbench's GetTableInfo() reads back: the scale (rows of
 * pgbench_branches) and the partitioning of pgbench_accounts.  -1 with
 * err when the tables are missing ("Perhaps you need to do
 * initialization").
 */
int pginit_table_info(struct pg_conn *conn, int *scale, int *partitions,
					  enum pginit_partition *method, struct pgc_error *err);

const char *pginit_partition_name(enum pginit_partition m);

#endif /* PGCLIFF_PGINIT_H */
