/*
 * test_store.c - the store: a full round trip in :memory:, migrations and
 * reopening of a file, refusal of a newer schema, concurrent writers.
 * With --shared CONNINFO, the same round trip and writers on PostgreSQL
 * (tests/integration/it_pgstore.sh gives it a server).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libpq-fe.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "store.h"
#include "test.h"

/*
 * SQL that takes a current store back to schema 19: the documents of
 * schema 20's tables (docs.c) back in their JSON columns, as older
 * pgcliff wrote them (a variant's GUCs and a point's warm-up kept; the
 * rest of the columns empty).  The older downgrades below start here.
 */
#define BACK_TO_19                                                            \
	"ALTER TABLE variant ADD COLUMN gucs TEXT;"                               \
	"ALTER TABLE variant ADD COLUMN settings TEXT;"                           \
	"ALTER TABLE variant ADD COLUMN defines TEXT;"                            \
	"ALTER TABLE variant ADD COLUMN pg_config TEXT;"                          \
	"ALTER TABLE variant ADD COLUMN build TEXT;"                              \
	"ALTER TABLE point ADD COLUMN scripts TEXT;"                              \
	"ALTER TABLE point ADD COLUMN warmup TEXT;"                               \
	"UPDATE variant SET gucs = (SELECT '{' || group_concat(json_quote(name)"  \
	"  || ': ' || json_quote(value), ', ') || '}' FROM variant_setting s"     \
	"  WHERE s.run_id = variant.run_id AND s.variant = variant.name"          \
	"  AND s.kind = 'guc');"                                                  \
	"DROP TABLE point_warmup_tick;"                                           \
	"DROP TABLE point_warmup;"                                                \
	"DROP TABLE point_statement;"                                             \
	"DROP TABLE point_script;"                                                \
	"DROP TABLE variant_build;"                                               \
	"DROP TABLE variant_setting;"

static int64_t
add_run(struct store *st, const char *recipe)
{
	struct store_run run;
	struct pgc_error err;
	int64_t id = -1;

	memset(&run, 0, sizeof(run));
	run.recipe = recipe;
	run.recipe_text = "recipe: x\n";
	run.recipe_sha256 = "abc";
	run.command_line = "pgcliff run x.yaml";
	run.seed = 7;
	run.host_cores = 2;
	CHECK_INT(store_run_begin(st, &run, &id, &err), 0);
	return id;
}

static void
add_point(struct store *st, int64_t run, int clients, int order)
{
	struct store_point p;
	struct store_series_row series[3] = {{0, 10, 0, 1.0, 2.0, NULL},
										 {1, 20, 1, 1.5, 3.0, "{\"22\": 1}"},
										 {2, 30, 0, 1.2, 2.5, NULL}};
	struct pgc_error err;

	memset(&p, 0, sizeof(p));
	p.variant = "default";
	p.workload = "w";
	p.clients = clients;
	p.jobs = 1;
	p.order_idx = order;
	p.protocol = "prepared";
	p.duration_s = 3;
	p.transactions = 60;
	p.failures = 1;
	p.failures_by_class = "{\"40\": 1}";
	p.tps = 20;
	p.lat_p99_ms = 2.5;
	p.histogram = "0;0;0;0;0;";
	p.series = series;
	p.nseries = 3;
	/* the second point of a run: a warm-up until stable */
	if (order == 1)
	{
		p.warmup_s = 4.25;
		p.warmup = "{\"until\": \"stable\", \"stable\": true, \"tps\": [1.5]}";
		/* and counted (run --count) */
		p.cost[0] = 27303.5;
		p.cost[1] = 1531.25;
		p.cost[2] = 0.5;
		p.counted = 1000;
	}
	CHECK_INT(store_point_add(st, run, &p, NULL, &err), 0);
}

/* A sample's probes (recipe probes:) come back as they were stored. */
static void
test_sample_probes(const char *dbfile)
{
	struct store *st;
	struct pgc_error err;
	struct store_sample_row rows[2], *back = NULL;
	int64_t id;
	int n = 0;

	unlink(dbfile);
	st = store_open(dbfile, &err);
	CHECK(st != NULL);
	id = add_run(st, "probes");
	memset(rows, 0, sizeof(rows));
	rows[0].node = rows[1].node = "standby";
	rows[0].ok = rows[1].ok = true;
	rows[0].standby = rows[1].standby = true;
	rows[1].second = 1;
	rows[0].probes = "{\"kax\":{\"used\":812.0,\"scanned/s\":1200.5}}";
	rows[1].probes = NULL; /* no probe targets the node */
	CHECK_INT(store_samples_add(st, id, 0, rows, 2, &err), 0);
	CHECK_INT(store_get_samples(st, id, 0, &back, &n, &err), 0);
	CHECK_INT(n, 2);
	CHECK_STR(back[0].probes, rows[0].probes);
	CHECK(back[1].probes == NULL);
	store_samples_free(back, n);
	store_close(st);
}

/*
 * A run whose process is gone reads as dead; one whose process lives (this
 * one) or whose process cannot be told (another boot) does not.  The
 * owner of the dead one is a child that has exited and been reaped.
 */
static void
test_dead_runs(const char *dbfile)
{
	struct store *st;
	struct store_run_row row;
	struct pgc_error err;
	char child_id[128] = "";
	int fds[2], status;
	int64_t live, gone, foreign;
	pid_t pid;
	sqlite3 *db;
	char sql[512];

	CHECK(pipe(fds) == 0);
	if ((pid = fork()) == 0)
	{
		char id[128];

		process_identity(id, sizeof(id));
		(void) !write(fds[1], id, strlen(id) + 1);
		_exit(0);
	}
	close(fds[1]);
	CHECK(read(fds[0], child_id, sizeof(child_id) - 1) > 0);
	close(fds[0]);
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(child_id[0] != '\0');
	CHECK_INT(process_alive(child_id), 0);
	{
		char me[128];

		process_identity(me, sizeof(me));
		CHECK_INT(process_alive(me), 1);
		CHECK_INT(process_alive("not-this-boot 1 1"), -1);
		CHECK_INT(process_alive(""), -1);
	}

	unlink(dbfile);
	st = store_open(dbfile, &err);
	CHECK(st != NULL);
	live = add_run(st, "live");
	gone = add_run(st, "gone");
	foreign = add_run(st, "foreign");
	store_close(st);
	CHECK_INT(sqlite3_open(dbfile, &db), SQLITE_OK);
	snprintf(sql, sizeof(sql),
			 "UPDATE run SET owner = '%s' WHERE id = %lld;"
			 "UPDATE run SET owner = 'another-boot 1 1' WHERE id = %lld",
			 child_id, (long long) gone, (long long) foreign);
	CHECK_INT(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	st = store_open_read(dbfile, &err);
	CHECK(st != NULL);
	CHECK_INT(store_get_run(st, live, &row, &err), 0);
	CHECK(!row.dead && strcmp(row.status, "running") == 0);
	store_run_row_release(&row);
	CHECK_INT(store_get_run(st, gone, &row, &err), 0);
	CHECK(row.dead);
	store_run_row_release(&row);
	CHECK_INT(store_get_run(st, foreign, &row, &err), 0);
	CHECK(!row.dead);
	store_run_row_release(&row);
	store_close(st);
	/* a run that ended is not dead, whoever wrote it */
	st = store_open(dbfile, &err);
	CHECK_INT(store_run_finish(st, gone, "ok", NULL, &err), 0);
	CHECK_INT(store_get_run(st, gone, &row, &err), 0);
	CHECK(!row.dead && strcmp(row.status, "ok") == 0);
	store_run_row_release(&row);
	store_close(st);
	unlink(dbfile);
}

/*
 * A schema-5 store with a run whose point has windows: migrated to the
 * current schema, everything readable, its windows read back as stored
 * and its measure unknown (NULL: tps, as before).
 */
/*
 * A bisect row and its steps: a step links its commit to its run; a step
 * that failed before its run has none; the end records the first bad
 * commit.
 */
static void
test_bisect_rows(const char *dbfile)
{
	struct pgc_error err;
	struct store *st;
	struct store_bisect b;
	struct store_bisect_step step;
	int64_t bid = 0, run;
	sqlite3 *db;
	sqlite3_stmt *s;

	unlink(dbfile);
	st = store_open(dbfile, &err);
	CHECK(st != NULL);
	run = add_run(st, "bisected");
	memset(&b, 0, sizeof(b));
	b.recipe = "bisected";
	b.source = "/src/pg";
	b.good = "aaaa";
	b.bad = "dddd";
	b.commits = 3;
	b.margin = 0.1;
	CHECK_INT(store_bisect_begin(st, &b, &bid, &err), 0);
	CHECK(bid > 0);
	memset(&step, 0, sizeof(step));
	step.step = 1;
	step.revision = "dddd";
	step.run_id = run;
	step.outcome = "REGRESSION";
	step.detail = "rev_dddd/good REGRESSION";
	CHECK_INT(store_bisect_step(st, bid, &step, &err), 0);
	step.step = 2;
	step.revision = "bbbb";
	step.run_id = 0;
	step.outcome = NULL;
	step.detail = NULL;
	CHECK_INT(store_bisect_step(st, bid, &step, &err), 0);
	/* a step is stored once */
	CHECK_INT(store_bisect_step(st, bid, &step, &err), -1);
	CHECK_INT(store_bisect_finish(st, bid, "found", "cccc", NULL, &err), 0);
	store_close(st);

	CHECK_INT(sqlite3_open(dbfile, &db), SQLITE_OK);
	CHECK_INT(
		sqlite3_prepare_v2(
			db,
			"SELECT b.status || ' ' || b.first_bad || ' ' || b.margin"
			" || ' ' || (b.ended_at IS NOT NULL) || ' ' ||"
			" group_concat(s.step || ':' || s.revision || ':' ||"
			" coalesce(s.run_id, '-') || ':' || coalesce(s.outcome, '-'),"
			" ',')"
			" FROM bisect b JOIN bisect_step s ON s.bisect_id = b.id"
			" GROUP BY b.id",
			-1, &s, NULL),
		SQLITE_OK);
	CHECK_INT(sqlite3_step(s), SQLITE_ROW);
	{
		char want[128];

		snprintf(want, sizeof(want),
				 "found cccc 0.1 1 1:dddd:%lld:REGRESSION,2:bbbb:-:-",
				 (long long) run);
		CHECK_STR((const char *) sqlite3_column_text(s, 0), want);
	}
	sqlite3_finalize(s);
	sqlite3_close(db);
}

static void
test_upgrade_from_5(const char *dbfile)
{
	struct store *st;
	struct pgc_error err;
	struct store_point p;
	struct store_window_row win[2] = {{"before", 0, 5, 100, false, 0, 0},
									  {"during", 5, 10, 50, true, 0.5, 3}};
	struct store_window_row *back = NULL;
	struct store_point_row *pts = NULL;
	struct store_run_row run;
	int64_t id, pid;
	int n = 0, np = 0;
	sqlite3 *db;

	unlink(dbfile);
	st = store_open(dbfile, &err);
	CHECK(st != NULL);
	id = add_run(st, "v5");
	memset(&p, 0, sizeof(p));
	p.variant = "default";
	p.workload = "reads";
	p.clients = 2;
	p.jobs = 1;
	p.protocol = "simple";
	p.duration_s = 10;
	p.transactions = 750;
	p.failures_by_class = "{}";
	p.tps = 75;
	p.histogram = "0;0;0;0;0;";
	p.windows = win;
	p.nwindows = 2;
	CHECK_INT(store_point_add(st, id, &p, &pid, &err), 0);
	CHECK_INT(store_run_finish(st, id, "ok", NULL, &err), 0);
	store_close(st);
	/* back to what pgcliff wrote before schema 6 */
	CHECK_INT(sqlite3_open(dbfile, &db), SQLITE_OK);
	CHECK_INT(sqlite3_exec(db,
						   BACK_TO_19
						   "DROP TABLE series_stage;"
						   "ALTER TABLE sample DROP COLUMN probes;"
						   "ALTER TABLE point DROP COLUMN steal_pct;"
						   "ALTER TABLE point DROP COLUMN instructions;"
						   "ALTER TABLE point DROP COLUMN l1_misses;"
						   "ALTER TABLE point DROP COLUMN ll_misses;"
						   "ALTER TABLE point DROP COLUMN counted;"
						   "DROP TABLE work_share;"
						   "DROP TABLE work_point;"
						   "ALTER TABLE run DROP COLUMN measure;"
						   "ALTER TABLE run DROP COLUMN owner;"
						   "DROP TABLE look;"
						   "DROP TABLE profile;"
						   "DROP TABLE bisect_step;"
						   "DROP TABLE bisect;"
						   "ALTER TABLE point DROP COLUMN warmup;"
						   "ALTER TABLE variant DROP COLUMN seq;"
						   "DROP INDEX run_uid;"
						   "ALTER TABLE run DROP COLUMN uid;"
						   "PRAGMA user_version = 5;",
						   NULL, NULL, NULL),
			  SQLITE_OK);
	sqlite3_close(db);

	/* reading it first changes nothing in the file: read from a migrated
	 * copy in memory, the file keeps schema 5 */
	{
		size_t nb = 0, na = 0;
		char *before = file_read_all(dbfile, &nb, &err);
		char *after;

		st = store_open_read(dbfile, &err);
		CHECK(st != NULL);
		CHECK_INT(store_schema_version(st), STORE_SCHEMA_VERSION);
		CHECK_INT(store_get_run(st, id, &run, &err), 0);
		CHECK_STR(run.status, "ok");
		store_run_row_release(&run);
		store_close(st);
		after = file_read_all(dbfile, &na, &err);
		CHECK(before && after && na == nb && memcmp(before, after, nb) == 0);
		free(before);
		free(after);
		CHECK_INT(sqlite3_open(dbfile, &db), SQLITE_OK);
		{
			sqlite3_stmt *s = NULL;

			CHECK_INT(
				sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &s, NULL),
				SQLITE_OK);
			CHECK_INT(sqlite3_step(s), SQLITE_ROW);
			CHECK_INT(sqlite3_column_int(s, 0), 5);
			sqlite3_finalize(s);
		}
		sqlite3_close(db);
	}

	st = store_open(dbfile, &err);
	CHECK(st != NULL);
	CHECK_INT(store_schema_version(st), STORE_SCHEMA_VERSION);
	CHECK_INT(store_get_run(st, id, &run, &err), 0);
	CHECK_STR(run.status, "ok");
	CHECK(run.measure == NULL);
	store_run_row_release(&run);
	CHECK_INT(store_get_points(st, id, &pts, &np, &err), 0);
	CHECK_INT(np, 1);
	CHECK_INT(pts[0].transactions, 750);
	CHECK_INT(store_get_windows(st, pts[0].id, &back, &n, &err), 0);
	CHECK_INT(n, 2);
	CHECK_STR(back[0].name, "before");
	CHECK(!back[0].has_dip);
	CHECK_STR(back[1].name, "during");
	CHECK(back[1].has_dip);
	CHECK_NEAR(back[1].dip, 0.5, 1e-9);
	CHECK_NEAR(back[1].recovery_s, 3, 1e-9);
	store_windows_free(back, n);
	store_points_free(pts, np);
	/* and looks, in order, with why the last one stopped */
	{
		struct store_look l1 = {
			1, 2, 0.9994, 12.5, "INCONCLUSIVE", NULL, "b/a INCONCLUSIVE"};
		struct store_look l2 = {
			2, 3, 0.997, 20, "REGRESSION", "decided", "b/a REGRESSION"};
		struct store_look *looks = NULL;
		int nl = 0;

		CHECK_INT(store_look_add(st, id, &l2, &err), 0);
		CHECK_INT(store_look_add(st, id, &l1, &err), 0);
		CHECK_INT(store_look_add(st, id, &l1, &err), -1); /* once each */
		CHECK_INT(store_get_looks(st, id, &looks, &nl, &err), 0);
		CHECK_INT(nl, 2);
		CHECK_INT(looks[0].look, 1);
		CHECK(looks[0].stop == NULL);
		CHECK_STR(looks[1].stop, "decided");
		CHECK_NEAR(looks[1].confidence, 0.997, 1e-12);
		store_looks_free(looks, nl);
	}
	/* and it takes new runs with a measure */
	{
		struct store_run r;
		int64_t id2;

		memset(&r, 0, sizeof(r));
		r.recipe = "v6";
		r.recipe_text = "recipe: v6\n";
		r.recipe_sha256 = "def";
		r.command_line = "pgcliff run";
		r.measure = "reads.p99";
		CHECK_INT(store_run_begin(st, &r, &id2, &err), 0);
		CHECK_INT(store_get_run(st, id2, &run, &err), 0);
		CHECK_STR(run.measure, "reads.p99");
		store_run_row_release(&run);
	}
	store_close(st);
	/* a current store read-only: reads work, writes are refused */
	st = store_open_read(dbfile, &err);
	CHECK(st != NULL);
	CHECK_INT(store_get_run(st, id, &run, &err), 0);
	store_run_row_release(&run);
	{
		struct store_run r;
		int64_t id3;

		memset(&r, 0, sizeof(r));
		r.recipe = "ro";
		r.recipe_text = "recipe: ro\n";
		r.recipe_sha256 = "0";
		r.command_line = "pgcliff run";
		error_clear(&err);
		CHECK_INT(store_run_begin(st, &r, &id3, &err), -1);
		CHECK_INT(err.kind, PGC_ERR_STORE);
	}
	store_close(st);
	unlink(dbfile);
}

/* A point's scripts and statements, as the run stores them, read back. */
static void
scripts_round_trip(struct store *st, int64_t run)
{
	struct store_point p;
	struct store_script_row *sc = NULL;
	struct pgc_error err;
	int64_t pid = 0;
	int n = 0;

	memset(&p, 0, sizeof(p));
	p.variant = "zz-first";
	p.workload = "mixed";
	p.clients = 1;
	p.jobs = 1;
	p.protocol = "simple";
	p.duration_s = 1;
	p.failures_by_class = "{}";
	p.histogram = "";
	p.scripts = "[{\"name\": \"a.sql\", \"weight\": 3, \"transactions\": 90,"
				" \"failures\": 1, \"retried\": 2, \"latency_avg_ms\": 0.25,"
				" \"statements\": [{\"line\": 1, \"command\": \"BEGIN;\","
				" \"latency_avg_ms\": 0.01, \"count\": 90, \"failures\": 0,"
				" \"retries\": 0}, {\"line\": 4, \"command\": \"UPDATE t\","
				" \"latency_avg_ms\": 0.2, \"count\": 90, \"failures\": 1,"
				" \"retries\": 2}]},"
				" {\"name\": \"b.sql\", \"weight\": 1, \"transactions\": 30,"
				" \"failures\": 0, \"retried\": 0, \"latency_avg_ms\": 1.5}]";
	CHECK_INT(store_point_add(st, run, &p, &pid, &err), 0);
	CHECK_INT(store_get_scripts(st, pid, &sc, &n, &err), 0);
	CHECK_INT(n, 2);
	if (n == 2)
	{
		CHECK_STR(sc[0].name, "a.sql");
		CHECK_INT(sc[0].weight, 3);
		CHECK_INT(sc[0].transactions, 90);
		CHECK_INT(sc[0].retried, 2);
		CHECK_NEAR(sc[0].lat_avg_ms, 0.25, 1e-12);
		CHECK_INT(sc[0].nstatements, 2);
		CHECK_INT(sc[0].statements[1].line, 4);
		CHECK_STR(sc[0].statements[1].command, "UPDATE t");
		CHECK_INT(sc[0].statements[1].retries, 2);
		CHECK_STR(sc[1].name, "b.sql");
		CHECK_INT(sc[1].nstatements, 0);
	}
	store_scripts_free(sc, n);
	/* a point without scripts has none */
	CHECK_INT(store_get_scripts(st, pid + 1000, &sc, &n, &err), 0);
	CHECK_INT(n, 0);
	store_scripts_free(sc, n);
}

/*
 * The whole round trip through the store API on TARGET, an empty store:
 * the same on SQLite (":memory:") and on PostgreSQL (--shared).
 */
static void
round_trip(const char *target)
{
	struct pgc_error err;
	struct store *st = store_open(target, &err);
	struct store_run_row *runs;
	struct store_point_row *pts, *pts2;
	struct store_series_row *ser;
	struct store_variant_row *vars;
	struct store_variant v;
	struct store_run_row one;
	int n, np, ns, nv;
	int64_t r1, r2;

	CHECK(st != NULL);
	CHECK_INT(store_schema_version(st), STORE_SCHEMA_VERSION);
	r1 = add_run(st, "alpha");
	r2 = add_run(st, "beta");
	CHECK(r2 > r1);
	memset(&v, 0, sizeof(v));
	v.name = "default";
	v.kind = "managed";
	v.server_version = "15.18";
	v.settings = "{\"fsync\": \"off\"}";
	CHECK_INT(store_variant_add(st, r1, &v, &err), 0);
	add_point(st, r1, 1, 0);
	add_point(st, r1, 4, 1);
	CHECK_INT(store_run_finish(st, r1, "ok", NULL, &err), 0);
	CHECK_INT(store_run_finish(st, r2, "interrupted", "interrupted", &err), 0);
	/* variants keep the order they were stored in, not their names' */
	v.name = "zz-first";
	CHECK_INT(store_variant_add(st, r2, &v, &err), 0);
	v.name = "aa-second";
	CHECK_INT(store_variant_add(st, r2, &v, &err), 0);
	v.server_version = "15.19"; /* stored again: updated, in its place */
	v.name = "zz-first";
	CHECK_INT(store_variant_add(st, r2, &v, &err), 0);

	CHECK_INT(store_list_runs(st, NULL, NULL, 0, &runs, &n, &err), 0);
	CHECK_INT(n, 2);
	CHECK_INT(runs[0].id, r2); /* newest first */
	CHECK_STR(runs[0].variants, "zz-first,aa-second");
	CHECK_STR(runs[0].host, "?: ?, 2 cores, 0.0 GiB, ?");
	CHECK_STR(runs[1].status, "ok");
	CHECK_INT(runs[1].npoints, 2);
	CHECK_STR(runs[1].variants, "default");
	store_runs_free(runs, n);
	CHECK_INT(store_list_runs(st, "beta", NULL, 0, &runs, &n, &err), 0);
	CHECK_INT(n, 1);
	store_runs_free(runs, n);
	CHECK_INT(store_list_runs(st, NULL, "default", 0, &runs, &n, &err), 0);
	CHECK_INT(n, 1);
	store_runs_free(runs, n);

	CHECK_INT(store_get_run(st, r2, &one, &err), 0);
	CHECK_STR(one.error, "interrupted");
	store_run_row_release(&one);
	CHECK_INT(store_get_run(st, 999, &one, &err), -1);
	CHECK_INT(err.kind, PGC_ERR_NOT_FOUND);

	CHECK_INT(store_get_variants(st, r1, &vars, &nv, &err), 0);
	CHECK_INT(nv, 1);
	CHECK_STR(vars[0].settings, "{\"fsync\": \"off\"}");
	store_variants_free(vars, nv);
	CHECK_INT(store_get_variants(st, r2, &vars, &nv, &err), 0);
	CHECK_INT(nv, 2);
	CHECK_STR(vars[0].name, "zz-first");
	CHECK_STR(vars[0].server_version, "15.19");
	CHECK_STR(vars[1].name, "aa-second");
	store_variants_free(vars, nv);

	CHECK_INT(store_get_points(st, r1, &pts, &np, &err), 0);
	CHECK_INT(np, 2);
	CHECK_INT(pts[1].clients, 4);
	CHECK_INT(pts[0].transactions, 60);
	/* a fixed warm-up has no warm-up object; a stable one keeps its own */
	CHECK(pts[0].warmup == NULL);
	CHECK_NEAR(pts[1].warmup_s, 4.25, 1e-12);
	CHECK_STR(pts[1].warmup, "{\"until\": \"stable\", \"stable\": true, "
							 "\"tps\": [1.5]}");
	CHECK_STR(pts[0].failures_by_class, "{\"40\": 1}");
	/* a timed point is not counted; a counted one keeps its figures */
	CHECK_INT(pts[0].counted, 0);
	CHECK(pts[0].cost[0] < 0 && pts[0].cost[2] < 0);
	CHECK_INT(pts[1].counted, 1000);
	CHECK_NEAR(pts[1].cost[0], 27303.5, 1e-12);
	CHECK_NEAR(pts[1].cost[1], 1531.25, 1e-12);
	CHECK_NEAR(pts[1].cost[2], 0.5, 1e-12);
	CHECK_INT(store_get_series(st, pts[0].id, &ser, &ns, &err), 0);
	CHECK_INT(ns, 3);
	CHECK_INT(ser[0].transactions + ser[1].transactions + ser[2].transactions,
			  pts[0].transactions);
	free(ser);
	scripts_round_trip(st, r2);
	CHECK_INT(store_list_runs(st, NULL, NULL, 1, &runs, &n, &err), 0);
	CHECK_INT(n, 1); /* a limit */
	store_runs_free(runs, n);
	{
		struct store_selector sel = {0};

		sel.recipe = "alpha";
		CHECK_INT(store_select_points(st, &sel, &pts2, &np, &err), 0);
		CHECK_INT(np, 2);
		store_points_free(pts2, np);
	}
	store_points_free(pts, np);
	store_close(st);
}

/* Four processes writing 25 runs of a point each at once: nothing lost. */
static void
concurrent_writers(const char *target)
{
	struct pgc_error err;
	struct store *st;
	struct store_run_row *runs;
	int n;

	for (int k = 0; k < 4; k++)
		if (fork() == 0)
		{
			struct store *cs = store_open(target, &err);

			if (cs == NULL)
				printf("writer %d: %s\n", k, err.message);
			for (int i = 0; i < 25 && cs; i++)
				add_point(cs, add_run(cs, "concurrent"), 1, i);
			store_close(cs);
			_exit(test_failures || cs == NULL ? 1 : 0);
		}
	for (int k = 0; k < 4; k++)
	{
		int status;

		wait(&status);
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	st = store_open(target, &err);
	CHECK(st != NULL);
	CHECK_INT(store_list_runs(st, "concurrent", NULL, 0, &runs, &n, &err), 0);
	CHECK_INT(n, 100);
	for (int i = 0; i < n; i++)
		CHECK_INT(runs[i].npoints, 1);
	store_runs_free(runs, n);
	store_close(st);
}

/*
 * Runs copied from the store FROM to TO (empty stores, either backend):
 * everything comes across, a second copy copies nothing, a run changed
 * after its copy conflicts and leaves TO as it was, a running run stays.
 */
static void
copy_suite(const char *from_target, const char *to_target)
{
	struct pgc_error err;
	struct store *from = store_open(from_target, &err);
	struct store *to = store_open(to_target, &err);
	struct store_copy c;
	struct store_run_row ra, rb;
	struct store_point_row *pa, *pb;
	struct store_series_row *sa, *sb;
	struct store_variant_row *va, *vb;
	struct store_profile_row prof[2] = {
		{NULL, NULL, NULL, 100.0, 150, 100.0, 99},
		{NULL, "postgres", "GetSnapshotData", 60.0, 90, 75.5, 99}};
	struct store_profile_row *qa;
	struct store_variant v = {0};
	int64_t r1, r2;
	int na, nb, nsa, nsb, nq;

	CHECK(from != NULL && to != NULL);
	if (from == NULL || to == NULL)
		return;
	add_run(to, "there-before"); /* ids differ between the stores */
	r1 = add_run(from, "moved");
	v.name = "b-first";
	v.kind = "managed";
	v.settings = "{}";
	CHECK_INT(store_variant_add(from, r1, &v, &err), 0);
	v.name = "a-second";
	CHECK_INT(store_variant_add(from, r1, &v, &err), 0);
	add_point(from, r1, 1, 0);
	add_point(from, r1, 4, 1);
	CHECK_INT(store_profile_add(from, r1, 1, "primary", prof, 2, &err), 0);
	CHECK_INT(store_run_finish(from, r1, "ok", NULL, &err), 0);
	r2 = add_run(from, "still-running");

	CHECK_INT(store_copy_run(from, r1, to, &c, &err), 0);
	CHECK(c.copied);
	CHECK(c.id != r1);
	CHECK_INT(c.points, 2);
	CHECK_INT(store_get_run(from, r1, &ra, &err), 0);
	CHECK_INT(store_get_run(to, c.id, &rb, &err), 0);
	CHECK_STR(rb.uid, ra.uid);
	CHECK_STR(rb.started_at, ra.started_at);
	CHECK_STR(rb.host, ra.host);
	CHECK_STR(rb.variants, "b-first,a-second");
	CHECK_INT(rb.npoints, 2);
	CHECK_INT(rb.seed, 7);
	store_run_row_release(&ra);
	store_run_row_release(&rb);
	CHECK_INT(store_get_points(from, r1, &pa, &na, &err), 0);
	CHECK_INT(store_get_points(to, c.id, &pb, &nb, &err), 0);
	CHECK_INT(nb, na);
	for (int i = 0; i < na && i < nb; i++)
	{
		CHECK_INT(pb[i].run_id, c.id);
		CHECK_INT(pb[i].clients, pa[i].clients);
		CHECK(pb[i].tps == pa[i].tps);
		CHECK(pb[i].lat_p99_ms == pa[i].lat_p99_ms);
		CHECK(pb[i].warmup_s == pa[i].warmup_s);
		CHECK(pb[i].counted == pa[i].counted &&
			  pb[i].cost[0] == pa[i].cost[0]);
		CHECK_STR(pb[i].histogram, pa[i].histogram);
		CHECK_INT(store_get_series(from, pa[i].id, &sa, &nsa, &err), 0);
		CHECK_INT(store_get_series(to, pb[i].id, &sb, &nsb, &err), 0);
		CHECK_INT(nsb, nsa);
		for (int k = 0; k < nsa && k < nsb; k++)
			CHECK(sb[k].transactions == sa[k].transactions &&
				  sb[k].lat_avg_ms == sa[k].lat_avg_ms);
		free(sa);
		free(sb);
	}
	store_points_free(pa, na);
	store_points_free(pb, nb);
	CHECK_INT(store_get_variants(to, c.id, &vb, &nb, &err), 0);
	CHECK_INT(store_get_variants(from, r1, &va, &na, &err), 0);
	CHECK_INT(nb, 2);
	CHECK_STR(vb[0].name, "b-first");
	store_variants_free(va, na);
	store_variants_free(vb, nb);
	CHECK_INT(store_get_profile(to, c.id, 1, &qa, &nq, &err), 0);
	CHECK_INT(nq, 2);
	if (nq == 2)
		CHECK(fabs(qa[1].inclusive - 75.5) < 1e-12);
	store_profile_free(qa, nq);

	/* again: nothing copied, the same run named */
	{
		int64_t first = c.id;

		CHECK_INT(store_copy_run(from, r1, to, &c, &err), 0);
		CHECK(!c.copied);
		CHECK_INT(c.id, first);
	}
	/* changed after its copy: a conflict, nothing overwritten */
	CHECK_INT(store_run_finish(from, r1, "failed", "later", &err), 0);
	error_clear(&err);
	CHECK_INT(store_copy_run(from, r1, to, &c, &err), -1);
	CHECK_INT(err.kind, PGC_ERR_STORE);
	CHECK(strstr(err.message, "conflicts") != NULL);
	CHECK_INT(store_get_run(to, c.id, &rb, &err), 0);
	CHECK_STR(rb.status, "ok");
	store_run_row_release(&rb);
	/* a run still running (this process writes it) is not copied */
	error_clear(&err);
	CHECK_INT(store_copy_run(from, r2, to, &c, &err), -1);
	CHECK_INT(err.kind, PGC_ERR_USAGE);
	{
		struct store_run_row *rows;
		int n;

		CHECK_INT(store_list_runs(to, NULL, NULL, 0, &rows, &n, &err), 0);
		CHECK_INT(n, 2);
		store_runs_free(rows, n);
	}
	store_close(from);
	store_close(to);
}

/* Run SQL on C (libpq), checked; the first value of its first row. */
static char *
pg_do(PGconn *c, const char *sql)
{
	PGresult *res = PQexec(c, sql);
	ExecStatusType rc = PQresultStatus(res);
	char *v = NULL;

	if (rc != PGRES_COMMAND_OK && rc != PGRES_TUPLES_OK)
		printf("SQL failed: %s: %s", sql, PQerrorMessage(c));
	CHECK(rc == PGRES_COMMAND_OK || rc == PGRES_TUPLES_OK);
	if (rc == PGRES_TUPLES_OK && PQntuples(res) > 0)
		v = xstrdup(PQgetvalue(res, 0, 0));
	PQclear(res);
	return v;
}

/* BASE (a conninfo) with its tables in SCHEMA. */
static char *
in_schema(const char *base, const char *schema)
{
	return xasprintf("%s options=-csearch_path=%s", base, schema);
}

/*
 * The PostgreSQL store, on the database BASE names (a conninfo; the test
 * makes its schemas there): the round trip as on SQLite, reopening
 * without migrating, four first writers at once (they migrate a new
 * schema one at a time), another program's tables and a newer schema
 * refused and left as they were, a read-only handle, a bisect.
 */
static void
shared_suite(const char *base)
{
	PGconn *c = PQconnectdb(base);
	struct pgc_error err;
	struct store *st;
	struct store_run_row *runs, row;
	char *a = in_schema(base, "t_a"), *b = in_schema(base, "t_b");
	char *f = in_schema(base, "t_foreign"), *nw = in_schema(base, "t_newer");
	char *v;
	int n;

	CHECK(PQstatus(c) == CONNECTION_OK);
	if (PQstatus(c) != CONNECTION_OK)
	{
		printf("%s", PQerrorMessage(c));
		PQfinish(c);
		return;
	}
	free(pg_do(c,
			   "SET client_min_messages = warning;"
			   "DROP SCHEMA IF EXISTS t_a, t_b, t_foreign, t_newer, t_copy1,"
			   " t_copy2 CASCADE;"
			   "CREATE SCHEMA t_a; CREATE SCHEMA t_b;"
			   "CREATE SCHEMA t_copy1; CREATE SCHEMA t_copy2;"
			   "CREATE SCHEMA t_foreign; CREATE SCHEMA t_newer;"
			   "CREATE TABLE t_foreign.run (cookie text);"
			   "INSERT INTO t_foreign.run VALUES ('a');"
			   "CREATE TABLE t_newer.pgcliff_schema (version integer);"
			   "INSERT INTO t_newer.pgcliff_schema VALUES (99);"
			   "CREATE TABLE t_newer.run (id integer);"));
	CHECK(store_is_shared(a));
	CHECK(store_is_shared("postgresql:///x"));
	CHECK(!store_is_shared("/tmp/a=b.db"));
	CHECK(!store_is_shared(":memory:"));

	round_trip(a);
	/* runs copied from SQLite to PostgreSQL, and back */
	{
		char *c1 = in_schema(base, "t_copy1"),
			 *c2 = in_schema(base, "t_copy2");
		char file[1024];

		snprintf(file, sizeof(file), "%s/pgcliff-test-copy-%d.db",
				 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int) getpid());
		unlink(file);
		copy_suite(file, c1);
		unlink(file);
		copy_suite(c2, file);
		unlink(file);
		free(c1);
		free(c2);
	}
	/* reopened: migrated once, the runs there; messages name no password */
	st = store_open(a, &err);
	CHECK(st != NULL);
	CHECK_INT(store_schema_version(st), STORE_SCHEMA_VERSION);
	CHECK(strncmp(store_name(st), "postgresql://", 13) == 0);
	CHECK_INT(store_list_runs(st, NULL, NULL, 0, &runs, &n, &err), 0);
	CHECK_INT(n, 2);
	store_runs_free(runs, n);
	{
		/* a bisect and its steps */
		struct store_bisect bi = {0};
		struct store_bisect_step step = {0};
		int64_t bid = 0;

		bi.recipe = "bisected";
		bi.source = "/src/pg";
		bi.good = "aaaa";
		bi.bad = "dddd";
		bi.commits = 3;
		bi.margin = 0.1;
		CHECK_INT(store_bisect_begin(st, &bi, &bid, &err), 0);
		step.step = 1;
		step.revision = "dddd";
		step.run_id = 1;
		step.outcome = "REGRESSION";
		CHECK_INT(store_bisect_step(st, bid, &step, &err), 0);
		CHECK_INT(store_bisect_step(st, bid, &step, &err), -1); /* once */
		CHECK_INT(store_bisect_finish(st, bid, "found", "cccc", NULL, &err),
				  0);
	}
	store_close(st);
	v = pg_do(c, "SELECT b.status || ' ' || b.first_bad || ' ' || b.margin"
				 " || ' ' || string_agg(s.step || ':' || s.revision, ',')"
				 " FROM t_a.bisect b JOIN t_a.bisect_step s"
				 " ON s.bisect_id = b.id GROUP BY b.id");
	CHECK_STR(v, "found cccc 0.1 1:dddd");
	free(v);

	/* read-only: reads work, writes are refused */
	st = store_open_read(a, &err);
	CHECK(st != NULL);
	CHECK_INT(store_list_runs(st, NULL, NULL, 0, &runs, &n, &err), 0);
	CHECK_INT(n, 2);
	store_runs_free(runs, n);
	CHECK_INT(store_get_run(st, 1, &row, &err), 0);
	store_run_row_release(&row);
	{
		struct store_run r = {0};
		int64_t id = 0;

		r.recipe = "ro";
		r.recipe_text = "recipe: ro\n";
		r.recipe_sha256 = "0";
		r.command_line = "pgcliff run";
		error_clear(&err);
		CHECK_INT(store_run_begin(st, &r, &id, &err), -1);
		CHECK_INT(err.kind, PGC_ERR_STORE);
		CHECK(strstr(err.message, "read-only") != NULL);
	}
	store_close(st);

	/* an older schema is not read (a reader may not migrate) */
	{
		char q[128];

		snprintf(q, sizeof(q), "UPDATE t_a.pgcliff_schema SET version = %d",
				 STORE_SCHEMA_VERSION - 1);
		free(pg_do(c, q));
	}
	error_clear(&err);
	CHECK(store_open_read(a, &err) == NULL);
	CHECK(strstr(err.message, "older") != NULL);
	{
		char q[128];

		snprintf(q, sizeof(q), "UPDATE t_a.pgcliff_schema SET version = %d",
				 STORE_SCHEMA_VERSION);
		free(pg_do(c, q));
	}

	concurrent_writers(b);
	v = pg_do(c, "SELECT count(*) FROM t_b.point");
	CHECK_STR(v, "100");
	free(v);

	/* another program's tables, and a newer pgcliff's: refused, kept */
	error_clear(&err);
	CHECK(store_open(f, &err) == NULL);
	CHECK_INT(err.kind, PGC_ERR_STORE);
	CHECK(strstr(err.message, "is not a pgcliff store") != NULL);
	v = pg_do(c, "SELECT count(*) || ' ' || (SELECT count(*) FROM"
				 " pg_tables WHERE schemaname = 't_foreign')"
				 " FROM t_foreign.run");
	CHECK_STR(v, "1 1");
	free(v);
	error_clear(&err);
	CHECK(store_open(nw, &err) == NULL);
	CHECK(strstr(err.message, "newer") != NULL);
	error_clear(&err);
	CHECK(store_open_read(nw, &err) == NULL);
	CHECK(strstr(err.message, "newer") != NULL);
	v = pg_do(c, "SELECT version FROM t_newer.pgcliff_schema");
	CHECK_STR(v, "99");
	free(v);

	/* a server that is not there: a clear error, no store */
	error_clear(&err);
	CHECK(store_open("host=/nonexistent-dir dbname=x", &err) == NULL);
	CHECK_INT(err.kind, PGC_ERR_STORE);
	CHECK(strstr(err.message, "could not connect") != NULL);

	free(pg_do(c, "DROP SCHEMA t_a, t_b, t_foreign, t_newer, t_copy1, t_copy2"
				  " CASCADE"));
	PQfinish(c);
	free(a);
	free(b);
	free(f);
	free(nw);
}

/*
 * A store file that carries code (a trigger, a view) is refused by name
 * before anything reads it, for writing and for reading, and is left as it
 * was; a new store file is its owner's alone (0600).
 */
static void
code_in_store(const char *dir)
{
	static const char *const objects[] = {
		"CREATE TRIGGER evil AFTER INSERT ON run BEGIN"
		" INSERT INTO run (recipe, recipe_text, recipe_sha256, command_line,"
		" tool_version, seed, started_at, status) SELECT recipe, recipe_text,"
		" recipe_sha256, command_line, tool_version, seed, started_at, status"
		" FROM run LIMIT 1; END;",
		"CREATE VIEW evil AS SELECT * FROM run;"};
	static const char *const names[] = {"trigger \"evil\"", "view \"evil\""};
	char file[1100];
	struct pgc_error err;
	struct stat sb;

	for (size_t i = 0; i < lengthof(objects); i++)
	{
		struct store *st;
		sqlite3 *db;

		snprintf(file, sizeof(file), "%s/code%zu.db", dir, i);
		st = store_open(file, &err);
		CHECK(st != NULL);
		add_run(st, "alpha");
		store_close(st);
		CHECK(stat(file, &sb) == 0 && (sb.st_mode & 0777) == 0600);
		CHECK_INT(sqlite3_open(file, &db), SQLITE_OK);
		CHECK_INT(sqlite3_exec(db, objects[i], NULL, NULL, NULL), SQLITE_OK);
		sqlite3_close(db);
		st = store_open(file, &err);
		CHECK(st == NULL);
		CHECK(strstr(err.message, names[i]) != NULL);
		CHECK(strstr(err.message, "refused") != NULL);
		st = store_open_read(file, &err);
		CHECK(st == NULL);
		CHECK(strstr(err.message, names[i]) != NULL);
		/* still there, untouched: pgcliff refuses, it does not repair */
		CHECK_INT(sqlite3_open(file, &db), SQLITE_OK);
		{
			sqlite3_stmt *s;

			CHECK_INT(sqlite3_prepare_v2(db,
										 "SELECT count(*) FROM sqlite_master"
										 " WHERE name = 'evil'",
										 -1, &s, NULL),
					  SQLITE_OK);
			CHECK_INT(sqlite3_step(s), SQLITE_ROW);
			CHECK_INT(sqlite3_column_int(s, 0), 1);
			sqlite3_finalize(s);
		}
		sqlite3_close(db);
	}
}

int
main(int argc, char **argv)
{
	struct pgc_error err;
	struct store *st;
	struct store_run_row *runs;
	int n;
	char path[512];
	char dbfile[1024];

	if (argc == 3 && strcmp(argv[1], "--shared") == 0)
	{
		shared_suite(argv[2]);
		TEST_MAIN_END("test_store --shared");
	}
	round_trip(":memory:");
	copy_suite(":memory:", ":memory:");

	/* a file: created with its directory, reopened without re-migrating */
	snprintf(path, sizeof(path), "%s/pgcliff-test-store-XXXXXX",
			 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	CHECK(mkdtemp(path) != NULL);
	snprintf(dbfile, sizeof(dbfile), "%s/sub/dir/p.db", path);
	st = store_open(dbfile, &err);
	CHECK(st != NULL);
	add_run(st, "gamma");
	store_close(st);
	code_in_store(path);
	st = store_open(dbfile, &err);
	CHECK(st != NULL);
	CHECK_INT(store_list_runs(st, NULL, NULL, 0, &runs, &n, &err), 0);
	CHECK_INT(n, 1);
	{
		/* a profile round trip: the whole first, then its functions */
		struct store_profile_row in[3] = {
			{NULL, NULL, NULL, 100.0, 150, 100.0, 99},
			{NULL, "postgres", "GetSnapshotData", 60.0, 90, 75.5, 99},
			{NULL, "[kernel.kallsyms]", "pvm_irq_enable", 40.0, 60, -1, 99}};
		struct store_profile_row *out;
		int nout;

		CHECK_INT(store_profile_add(st, runs[0].id, 2, "standby", in, 3, &err),
				  0);
		CHECK_INT(store_get_profile(st, runs[0].id, 2, &out, &nout, &err), 0);
		CHECK_INT(nout, 3);
		CHECK(out[0].dso == NULL && out[0].symbol == NULL);
		CHECK_INT(out[0].samples, 150);
		CHECK_STR(out[1].symbol, "GetSnapshotData");
		/* the inclusive share, where the profile has call graphs */
		CHECK(fabs(out[1].inclusive - 75.5) < 1e-9);
		CHECK(out[2].inclusive < 0);
		CHECK_STR(out[2].node, "standby");
		CHECK_INT(out[2].hz, 99);
		store_profile_free(out, nout);
		CHECK_INT(store_get_profile(st, runs[0].id, 3, &out, &nout, &err), 0);
		CHECK_INT(nout, 0);
		store_profile_free(out, nout);
	}
	store_runs_free(runs, n);
	store_close(st);

	/* several processes writing at once: nothing lost */
	concurrent_writers(dbfile);

	/*
	 * a version 1 store (before prepare_ms, plans, pg_config, scripts,
	 * retries and rate-limit columns) is
	 * migrated, its rows kept
	 */
	{
		sqlite3 *db;
		struct store_point_row *old_pts;
		struct store_variant_row *vars;
		int nold, nv;

		CHECK_INT(sqlite3_open(dbfile, &db), SQLITE_OK);
		CHECK_INT(
			sqlite3_exec(db,
						 BACK_TO_19
						 "DROP TABLE series_stage;"
						 "ALTER TABLE point DROP COLUMN steal_pct;"
						 "ALTER TABLE point DROP COLUMN instructions;"
						 "ALTER TABLE point DROP COLUMN l1_misses;"
						 "ALTER TABLE point DROP COLUMN ll_misses;"
						 "ALTER TABLE point DROP COLUMN counted;"
						 "DROP TABLE work_share;"
						 "DROP TABLE work_point;"
						 "ALTER TABLE point DROP COLUMN prepare_ms;"
						 "ALTER TABLE run DROP COLUMN plan;"
						 "ALTER TABLE variant DROP COLUMN pg_config;"
						 "ALTER TABLE variant DROP COLUMN build;"
						 "ALTER TABLE variant DROP COLUMN seq;"
						 "ALTER TABLE run DROP COLUMN measure;"
						 "ALTER TABLE run DROP COLUMN owner;"
						 "DROP INDEX run_uid;"
						 "ALTER TABLE run DROP COLUMN uid;"
						 "ALTER TABLE point DROP COLUMN scale;"
						 "ALTER TABLE point DROP COLUMN scripts;"
						 "ALTER TABLE point DROP COLUMN retried;"
						 "ALTER TABLE point DROP COLUMN retries;"
						 "ALTER TABLE point DROP COLUMN skipped;"
						 "ALTER TABLE point DROP COLUMN late;"
						 "ALTER TABLE point DROP COLUMN lag_avg_ms;"
						 "ALTER TABLE point DROP COLUMN lag_max_ms;"
						 "ALTER TABLE point DROP COLUMN warmup;"
						 "ALTER TABLE series DROP COLUMN failures_by_class;"
						 "ALTER TABLE run DROP COLUMN script_files;"
						 "DROP TABLE event;"
						 "DROP TABLE sample;"
						 "DROP TABLE window_stat;"
						 "DROP TABLE look;"
						 "DROP TABLE profile;"
						 "DROP TABLE bisect_step;"
						 "DROP TABLE bisect;"
						 "INSERT INTO variant (run_id, name, kind, gucs,"
						 " settings) SELECT max(id), 'old', 'external',"
						 " '{\"work_mem\": \"8MB\", \"jit\": \"off\"}',"
						 " 'not JSON' FROM run;"
						 "PRAGMA user_version = 1;",
						 NULL, NULL, NULL),
			SQLITE_OK);
		sqlite3_close(db);
		st = store_open(dbfile, &err);
		CHECK(st != NULL);
		CHECK_INT(store_schema_version(st), STORE_SCHEMA_VERSION);
		/* every older run has an identity now, its own */
		CHECK_INT(store_list_runs(st, NULL, NULL, 0, &runs, &n, &err), 0);
		CHECK_INT(n, 101);
		for (int i = 0; i < n; i++)
		{
			CHECK(runs[i].uid != NULL && strlen(runs[i].uid) == 32);
			for (int k = 0; k < i && runs[i].uid; k++)
				CHECK(runs[k].uid == NULL ||
					  strcmp(runs[k].uid, runs[i].uid) != 0);
		}
		store_runs_free(runs, n);
		CHECK_INT(store_list_runs(st, "concurrent", NULL, 1, &runs, &n, &err),
				  0);
		CHECK_INT(n, 1);
		CHECK_INT(store_get_points(st, runs[0].id, &old_pts, &nold, &err), 0);
		CHECK_INT(nold, 1);
		CHECK_INT(old_pts[0].transactions, 60);
		store_points_free(old_pts, nold);
		/* a version 1 variant's GUCs through schema 20's table, in their
		 * order; its settings, which were not JSON, dropped, not fatal */
		{
			struct store_run_row *all;
			int nall, seen = 0;

			CHECK_INT(store_list_runs(st, NULL, NULL, 0, &all, &nall, &err),
					  0);
			for (int r = 0; r < nall; r++)
			{
				CHECK_INT(store_get_variants(st, all[r].id, &vars, &nv, &err),
						  0);
				for (int i = 0; i < nv; i++, seen++)
				{
					CHECK_STR(vars[i].gucs, "{\"work_mem\": \"8MB\", "
											"\"jit\": \"off\"}");
					CHECK_STR(vars[i].settings, "{}");
					CHECK(vars[i].defines == NULL && vars[i].build == NULL);
				}
				store_variants_free(vars, nv);
			}
			CHECK(seen >= 1);
			store_runs_free(all, nall);
		}
		add_point(st, runs[0].id, 8, 99); /* the new column takes writes */
		store_runs_free(runs, n);
		store_close(st);
	}

	test_upgrade_from_5(dbfile);
	test_bisect_rows(dbfile);
	test_sample_probes(dbfile);

	/* another program's SQLite file is refused and left byte for byte */
	{
		sqlite3 *db;
		char *before, *after;
		size_t nb = 0, na = 0;

		unlink(dbfile);
		CHECK_INT(sqlite3_open(dbfile, &db), SQLITE_OK);
		CHECK_INT(sqlite3_exec(db,
							   "CREATE TABLE cookies (k TEXT, v TEXT);"
							   "INSERT INTO cookies VALUES ('a', 'b');",
							   NULL, NULL, NULL),
				  SQLITE_OK);
		sqlite3_close(db);
		before = file_read_all(dbfile, &nb, &err);
		CHECK(before != NULL);
		error_clear(&err);
		st = store_open(dbfile, &err);
		CHECK(st == NULL);
		CHECK_INT(err.kind, PGC_ERR_STORE);
		CHECK(strstr(err.message, "is not a pgcliff store") != NULL);
		after = file_read_all(dbfile, &na, &err);
		CHECK(after != NULL && na == nb && memcmp(before, after, nb) == 0);
		free(before);
		free(after);
		unlink(dbfile);
	}

	/* a store from a newer pgcliff is refused, not damaged */
	{
		sqlite3 *db;

		CHECK_INT(sqlite3_open(dbfile, &db), SQLITE_OK);
		CHECK_INT(
			sqlite3_exec(db, "PRAGMA user_version = 99", NULL, NULL, NULL),
			SQLITE_OK);
		sqlite3_close(db);
		st = store_open(dbfile, &err);
		CHECK(st == NULL);
		CHECK_INT(err.kind, PGC_ERR_STORE);
		CHECK(strstr(err.message, "newer") != NULL);
	}
	test_dead_runs(dbfile);
	CHECK_INT(dir_remove_tree(path), 0);
	TEST_MAIN_END("test_store");
}
