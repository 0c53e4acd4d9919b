/*
 * pginit.c - pgbench -i, ported from pgbench 15 (initDropTables,
 * initCreateTables, createPartitions, initGenerateDataClientSide and
 * ServerSide, initVacuum, initCreatePKeys, initCreateFKeys, runInitSteps,
 * GetTableInfo): same tables, same rows, same order of work.  The
 * client-side COPY sends 64 kB chunks instead of a line per call.
 */
#include "pginit.h"

#include <libpq-fe.h>

#include "cluster.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NBRANCHES 1
#define NTELLERS  10
#define NACCOUNTS 100000
/* from this scale on, account ids are bigint (pgbench's threshold) */
#define SCALE_32BIT_THRESHOLD 20000
#define COPY_CHUNK            65536

static void progress(const struct pginit_opts *o, const char *fmt, ...)
	PGC_PRINTF(2, 3);

static void
progress(const struct pginit_opts *o, const char *fmt, ...)
{
	char line[256];
	va_list ap;

	if (o->progress == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	o->progress(o->progress_arg, line);
}

static int
sql_failed(PGconn *conn, const PGresult *res, const char *sql,
		   struct pgc_error *err)
{
	cluster_pg_error(err, conn, res, sql, NULL, NULL);
	/* pgbench -i's own statements: say which one, not where in it */
	error_detail(err, "while running: %s", sql);
	return -1;
}

static int
run_sql(PGconn *conn, const char *sql, struct pgc_error *err)
{
	PGresult *res = PQexec(conn, sql);
	int rc = 0;

	if (PQresultStatus(res) != PGRES_COMMAND_OK &&
		PQresultStatus(res) != PGRES_TUPLES_OK)
		rc = sql_failed(conn, res, sql, err);
	PQclear(res);
	return rc;
}

static int
drop_tables(PGconn *conn, const struct pginit_opts *o, struct pgc_error *err)
{
	progress(o, "dropping old tables...");
	return run_sql(conn,
				   "drop table if exists pgbench_accounts, pgbench_branches, "
				   "pgbench_history, pgbench_tellers",
				   err);
}

/* ", with (fillfactor=N)" and " tablespace T", escaped, into BUF. */
static void
add_tablespace(PGconn *conn, struct strbuf *buf, const char *what,
			   const char *ts)
{
	char *esc;

	if (ts == NULL)
		return;
	esc = PQescapeIdentifier(conn, ts, strlen(ts));
	strbuf_addf(buf, " %s %s", what, esc ? esc : "\"\"");
	PQfreemem(esc);
}

static int
create_partitions(PGconn *conn, const struct pginit_opts *o, int fillfactor,
				  struct pgc_error *err)
{
	struct strbuf q = STRBUF_INIT;
	int rc = 0;

	progress(o, "creating %d partitions...", o->partitions);
	for (int p = 1; p <= o->partitions && rc == 0; p++)
	{
		strbuf_reset(&q);
		strbuf_addf(&q,
					"create%s table pgbench_accounts_%d\n"
					"  partition of pgbench_accounts\n",
					o->unlogged ? " unlogged" : "", p);
		if (o->method == PGINIT_PART_RANGE)
		{
			int64_t part_size =
				((int64_t) NACCOUNTS * o->scale + o->partitions - 1) /
				o->partitions;

			strbuf_addstr(&q, "  for values from (");
			if (p == 1)
				strbuf_addstr(&q, "minvalue");
			else
				strbuf_addf(&q, "%" PRId64, (p - 1) * part_size + 1);
			strbuf_addstr(&q, ") to (");
			if (p < o->partitions)
				strbuf_addf(&q, "%" PRId64, p * part_size + 1);
			else
				strbuf_addstr(&q, "maxvalue");
			strbuf_addch(&q, ')');
		}
		else
			strbuf_addf(&q, "  for values with (modulus %d, remainder %d)",
						o->partitions, p - 1);
		strbuf_addf(&q, " with (fillfactor=%d)", fillfactor);
		rc = run_sql(conn, q.buf, err);
	}
	strbuf_release(&q);
	return rc;
}

static int
create_tables(PGconn *conn, const struct pginit_opts *o, int fillfactor,
			  struct pgc_error *err)
{
	static const struct
	{
		const char *table;
		const char *smcols;
		const char *bigcols;
		bool fillfactor;
	} ddls[] = {
		{"pgbench_history",
		 "tid int,bid int,aid    int,delta int,mtime timestamp,filler char(22)",
		 "tid int,bid int,aid bigint,delta int,mtime timestamp,filler char(22)",
		 false},
		{"pgbench_tellers",
		 "tid int not null,bid int,tbalance int,filler char(84)",
		 "tid int not null,bid int,tbalance int,filler char(84)", true},
		{"pgbench_accounts",
		 "aid    int not null,bid int,abalance int,filler char(84)",
		 "aid bigint not null,bid int,abalance int,filler char(84)", true},
		{"pgbench_branches", "bid int not null,bbalance int,filler char(88)",
		 "bid int not null,bbalance int,filler char(88)", true}};
	struct strbuf q = STRBUF_INIT;
	int rc = 0;

	progress(o, "creating tables...");
	for (size_t i = 0; i < lengthof(ddls) && rc == 0; i++)
	{
		strbuf_reset(&q);
		strbuf_addf(&q, "create%s table %s(%s)",
					o->unlogged ? " unlogged" : "", ddls[i].table,
					o->scale >= SCALE_32BIT_THRESHOLD ? ddls[i].bigcols
													  : ddls[i].smcols);
		if (o->partitions > 0 &&
			strcmp(ddls[i].table, "pgbench_accounts") == 0)
			strbuf_addf(&q, " partition by %s (aid)",
						pginit_partition_name(o->method));
		else if (ddls[i].fillfactor)
			strbuf_addf(&q, " with (fillfactor=%d)", fillfactor);
		add_tablespace(conn, &q, "tablespace", o->tablespace);
		rc = run_sql(conn, q.buf, err);
	}
	strbuf_release(&q);
	if (rc == 0 && o->partitions > 0)
		rc = create_partitions(conn, o, fillfactor, err);
	return rc;
}

static int
truncate_tables(PGconn *conn, struct pgc_error *err)
{
	return run_sql(conn,
				   "truncate table pgbench_accounts, pgbench_branches, "
				   "pgbench_history, pgbench_tellers",
				   err);
}

/* Send what BUF holds as COPY data and empty it. */
static int
copy_flush(PGconn *conn, struct strbuf *buf, struct pgc_error *err)
{
	if (buf->len > 0 && PQputCopyData(conn, buf->buf, (int) buf->len) != 1)
	{
		error_set(err, PGC_ERR_SQL, "COPY failed: %s", PQerrorMessage(conn));
		return -1;
	}
	strbuf_reset(buf);
	return 0;
}

static int
copy_accounts(PGconn *conn, const struct pginit_opts *o, struct pgc_error *err)
{
	int64_t total = (int64_t) NACCOUNTS * o->scale;
	const char *copy =
		o->partitions == 0 && PQserverVersion(conn) >= 140000
			? "copy pgbench_accounts from stdin with (freeze on)"
			: "copy pgbench_accounts from stdin";
	PGresult *res = PQexec(conn, copy);
	struct strbuf buf = STRBUF_INIT;
	int64_t start = clock_now_ns(), next_report = 5;
	int rc = 0;

	if (PQresultStatus(res) != PGRES_COPY_IN)
	{
		rc = sql_failed(conn, res, copy, err);
		PQclear(res);
		return rc;
	}
	PQclear(res);
	strbuf_grow(&buf, COPY_CHUNK + 64);
	for (int64_t k = 0; k < total && rc == 0; k++)
	{
		int64_t j = k + 1;

		/* the filler defaults to a blank-padded empty string */
		strbuf_addf(&buf, "%" PRId64 "\t%" PRId64 "\t0\t\n", j,
					k / NACCOUNTS + 1);
		if (buf.len >= COPY_CHUNK)
			rc = copy_flush(conn, &buf, err);
		if (o->interrupt && *o->interrupt)
		{
			error_set(err, PGC_ERR_INTERRUPTED, "interrupted");
			rc = -1;
		}
		if (rc == 0 && (o->quiet ? j % 100 == 0 : j % 100000 == 0))
		{
			double elapsed = (double) (clock_now_ns() - start) / 1e9;
			double remaining =
				((double) total - (double) j) * elapsed / (double) j;

			if (!o->quiet || j == total || elapsed >= (double) next_report)
			{
				progress(o,
						 "%" PRId64 " of %" PRId64
						 " tuples (%d%%) done (elapsed %.2f s, remaining "
						 "%.2f s)",
						 j, total, (int) (j * 100 / total), elapsed,
						 remaining);
				while (o->quiet && elapsed >= (double) next_report)
					next_report += 5;
			}
		}
	}
	if (rc == 0)
		rc = copy_flush(conn, &buf, err);
	strbuf_release(&buf);
	if (PQputCopyEnd(conn, rc == 0 ? NULL : "aborted") != 1)
	{
		if (rc == 0)
			error_set(err, PGC_ERR_SQL, "COPY failed: %s",
					  PQerrorMessage(conn));
		return -1;
	}
	while ((res = PQgetResult(conn)) != NULL)
	{
		if (rc == 0 && PQresultStatus(res) != PGRES_COMMAND_OK)
			rc = sql_failed(conn, res, copy, err);
		PQclear(res);
	}
	return rc;
}

static int
fill_client_side(PGconn *conn, const struct pginit_opts *o,
				 struct pgc_error *err)
{
	struct strbuf q = STRBUF_INIT;
	int rc;

	rc = 0;
	/* branches, tellers, accounts: in case foreign keys already exist */
	for (int i = 0; rc == 0 && i < NBRANCHES * o->scale; i++)
	{
		strbuf_reset(&q);
		strbuf_addf(&q,
					"insert into pgbench_branches(bid,bbalance) values(%d,0)",
					i + 1);
		rc = run_sql(conn, q.buf, err);
	}
	for (int i = 0; rc == 0 && i < NTELLERS * o->scale; i++)
	{
		strbuf_reset(&q);
		strbuf_addf(
			&q,
			"insert into pgbench_tellers(tid,bid,tbalance) values (%d,%d,0)",
			i + 1, i / NTELLERS + 1);
		rc = run_sql(conn, q.buf, err);
	}
	strbuf_release(&q);
	if (rc == 0)
		rc = copy_accounts(conn, o, err);
	return rc;
}

static int
fill_server_side(PGconn *conn, const struct pginit_opts *o,
				 struct pgc_error *err)
{
	struct strbuf q = STRBUF_INIT;
	int rc;

	strbuf_addf(&q,
				"insert into pgbench_branches(bid,bbalance) select bid, 0 "
				"from generate_series(1, %d) as bid",
				NBRANCHES * o->scale);
	rc = run_sql(conn, q.buf, err);
	if (rc == 0)
	{
		strbuf_reset(&q);
		strbuf_addf(
			&q,
			"insert into pgbench_tellers(tid,bid,tbalance) select tid, "
			"(tid - 1) / %d + 1, 0 from generate_series(1, %d) as tid",
			NTELLERS, NTELLERS * o->scale);
		rc = run_sql(conn, q.buf, err);
	}
	if (rc == 0)
	{
		strbuf_reset(&q);
		strbuf_addf(&q,
					"insert into pgbench_accounts(aid,bid,abalance,filler) "
					"select aid, (aid - 1) / %d + 1, 0, '' from "
					"generate_series(1, %" PRId64 ") as aid",
					NACCOUNTS, (int64_t) NACCOUNTS * o->scale);
		rc = run_sql(conn, q.buf, err);
	}
	strbuf_release(&q);
	return rc;
}

/*
 * Generate the data with FILL in one transaction (for the backend's
 * data-loading optimizations), the old rows truncated first.
 */
static int
generate(PGconn *conn, const struct pginit_opts *o, const char *where,
		 int (*fill)(PGconn *, const struct pginit_opts *, struct pgc_error *),
		 struct pgc_error *err)
{
	int rc;

	progress(o, "generating data (%s)...", where);
	rc = run_sql(conn, "begin", err);
	if (rc == 0)
		rc = truncate_tables(conn, err);
	if (rc == 0)
		rc = fill(conn, o, err);
	if (rc == 0)
		return run_sql(conn, "commit", err);
	PQclear(PQexec(conn, "rollback"));
	return rc;
}

static int
vacuum(PGconn *conn, const struct pginit_opts *o, struct pgc_error *err)
{
	static const char *const tables[] = {"pgbench_branches", "pgbench_tellers",
										 "pgbench_accounts",
										 "pgbench_history"};
	int rc = 0;

	progress(o, "vacuuming...");
	for (size_t i = 0; i < lengthof(tables) && rc == 0; i++)
	{
		char q[64];

		snprintf(q, sizeof(q), "vacuum analyze %s", tables[i]);
		rc = run_sql(conn, q, err);
	}
	return rc;
}

static int
primary_keys(PGconn *conn, const struct pginit_opts *o, struct pgc_error *err)
{
	static const char *const ddls[] = {
		"alter table pgbench_branches add primary key (bid)",
		"alter table pgbench_tellers add primary key (tid)",
		"alter table pgbench_accounts add primary key (aid)"};
	struct strbuf q = STRBUF_INIT;
	int rc = 0;

	progress(o, "creating primary keys...");
	for (size_t i = 0; i < lengthof(ddls) && rc == 0; i++)
	{
		strbuf_reset(&q);
		strbuf_addstr(&q, ddls[i]);
		add_tablespace(conn, &q, "using index tablespace",
					   o->index_tablespace);
		rc = run_sql(conn, q.buf, err);
	}
	strbuf_release(&q);
	return rc;
}

static int
foreign_keys(PGconn *conn, const struct pginit_opts *o, struct pgc_error *err)
{
	static const char *const ddls[] = {
		"alter table pgbench_tellers add constraint pgbench_tellers_bid_fkey "
		"foreign key (bid) references pgbench_branches",
		"alter table pgbench_accounts add constraint pgbench_accounts_bid_fkey "
		"foreign key (bid) references pgbench_branches",
		"alter table pgbench_history add constraint pgbench_history_bid_fkey "
		"foreign key (bid) references pgbench_branches",
		"alter table pgbench_history add constraint pgbench_history_tid_fkey "
		"foreign key (tid) references pgbench_tellers",
		"alter table pgbench_history add constraint pgbench_history_aid_fkey "
		"foreign key (aid) references pgbench_accounts"};
	int rc = 0;

	progress(o, "creating foreign keys...");
	for (size_t i = 0; i < lengthof(ddls) && rc == 0; i++)
		rc = run_sql(conn, ddls[i], err);
	return rc;
}

int
pginit_check_steps(const char *steps, struct pgc_error *err)
{
	if (steps[0] == '\0')
	{
		error_set(err, PGC_ERR_USAGE, "no initialization steps specified");
		return -1;
	}
	for (const char *s = steps; *s; s++)
		if (strchr(PGINIT_STEPS_ALL " ", *s) == NULL)
		{
			error_set(err, PGC_ERR_USAGE,
					  "unrecognized initialization step \"%c\"", *s);
			error_hint(err, "allowed step characters are: \"%s\"",
					   PGINIT_STEPS_ALL);
			return -1;
		}
	return 0;
}

int
pginit_run(PGconn *conn, const struct pginit_opts *o, char *summary,
		   size_t summary_size, struct pgc_error *err)
{
	const char *steps = o->steps ? o->steps : PGINIT_STEPS_DEFAULT;
	int fillfactor = o->fillfactor ? o->fillfactor : 100;
	struct strbuf stats = STRBUF_INIT;
	double total = 0;
	int rc = 0;

	if (pginit_check_steps(steps, err) < 0)
		return -1;
	for (const char *s = steps; *s && rc == 0; s++)
	{
		int64_t start = clock_now_ns();
		const char *op = NULL;

		switch (*s)
		{
			case 'd':
				op = "drop tables";
				rc = drop_tables(conn, o, err);
				break;
			case 't':
				op = "create tables";
				rc = create_tables(conn, o, fillfactor, err);
				break;
			case 'g':
				op = "client-side generate";
				rc = generate(conn, o, "client-side", fill_client_side, err);
				break;
			case 'G':
				op = "server-side generate";
				rc = generate(conn, o, "server-side", fill_server_side, err);
				break;
			case 'v':
				op = "vacuum";
				rc = vacuum(conn, o, err);
				break;
			case 'p':
				op = "primary keys";
				rc = primary_keys(conn, o, err);
				break;
			case 'f':
				op = "foreign keys";
				rc = foreign_keys(conn, o, err);
				break;
			default:
				break;
		}
		if (op != NULL && rc == 0)
		{
			double secs = (double) (clock_now_ns() - start) / 1e9;

			strbuf_addf(&stats, "%s%s %.2f s", stats.len ? ", " : "", op,
						secs);
			total += secs;
		}
	}
	if (rc == 0)
		snprintf(summary, summary_size, "done in %.2f s (%s).", total,
				 stats.buf ? stats.buf : "");
	strbuf_release(&stats);
	return rc;
}

const char *
pginit_partition_name(enum pginit_partition m)
{
	return m == PGINIT_PART_HASH    ? "hash"
		   : m == PGINIT_PART_RANGE ? "range"
									: "none";
}

int
pginit_table_info(PGconn *conn, int *scale, int *partitions,
				  enum pginit_partition *method, struct pgc_error *err)
{
	PGresult *res = PQexec(conn, "select count(*) from pgbench_branches");
	const char *st;

	if (PQresultStatus(res) != PGRES_TUPLES_OK)
	{
		st = PQresultErrorField(res, PG_DIAG_SQLSTATE);
		sql_failed(conn, res, "select count(*) from pgbench_branches", err);
		if (st && strcmp(st, "42P01") == 0)
			error_hint(err,
					   "Perhaps you need to do initialization (\"pgcliff "
					   "init\", or init: in the recipe) in this database?");
		PQclear(res);
		return -1;
	}
	*scale = atoi(PQgetvalue(res, 0, 0));
	PQclear(res);
	if (*scale < 1)
	{
		error_set(err, PGC_ERR_SQL,
				  "invalid count(*) from pgbench_branches: %d", *scale);
		error_hint(err, "pgbench_branches is empty: initialize the tables");
		return -1;
	}
	/* pgbench's query: the partitioning of pgbench_accounts, if any */
	res = PQexec(
		conn,
		"select o.n, p.partstrat, pg_catalog.count(i.inhparent) "
		"from pg_catalog.pg_class as c "
		"join pg_catalog.pg_namespace as n on (n.oid = c.relnamespace) "
		"cross join lateral (select pg_catalog.array_position("
		"pg_catalog.current_schemas(true), n.nspname)) as o(n) "
		"left join pg_catalog.pg_partitioned_table as p on (p.partrelid = c.oid) "
		"left join pg_catalog.pg_inherits as i on (c.oid = i.inhparent) "
		"where c.relname = 'pgbench_accounts' and o.n is not null "
		"group by 1, 2 order by 1 asc limit 1");
	*partitions = 0;
	*method = PGINIT_PART_NONE;
	if (PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1)
	{
		const char *ps = PQgetvalue(res, 0, 1);

		if (!PQgetisnull(res, 0, 1))
		{
			*method = ps[0] == 'h' ? PGINIT_PART_HASH : PGINIT_PART_RANGE;
			*partitions = atoi(PQgetvalue(res, 0, 2));
		}
	}
	PQclear(res);
	return 0;
}
