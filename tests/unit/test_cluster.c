/*
 * test_cluster.c - what of drivers/cluster needs no running server: the
 * password left out of conninfos, refused conninfos, connections that
 * fail with the one message, external targets' checks, and the libpq
 * parameters a target hands out.
 */
#include <stdlib.h>
#include <string.h>

#include "cluster.h"
#include "test.h"

int
main(void)
{
	struct pgc_error err;
	struct target *t = NULL;
	struct target_spec spec;
	char *r;

	/* passwords never leave, in a conninfo or a URI */
	r = cluster_redact_conninfo("host=db1 password=s3cret user=bench");
	CHECK(strstr(r, "s3cret") == NULL);
	CHECK(strstr(r, "host='db1'") != NULL);
	CHECK(strstr(r, "user='bench'") != NULL);
	free(r);
	r = cluster_redact_conninfo("postgresql://bench:s3cret@db1:5433/x");
	CHECK(strstr(r, "s3cret") == NULL);
	CHECK(strstr(r, "port='5433'") != NULL);
	free(r);
	r = cluster_redact_conninfo("host='it''s");
	CHECK_STR(r, "(unparsable conninfo)");
	free(r);

	/* a socket directory with no server: the one message, kind 69's */
	{
		const char *kw[] = {"host", "port", NULL};
		const char *val[] = {"/nonexistent-pgcliff-dir", "1", NULL};

		error_clear(&err);
		CHECK(cluster_connect(kw, val, "primary", &err) == NULL);
		CHECK_INT(err.kind, PGC_ERR_UNAVAILABLE);
		CHECK(strncmp(err.message, "could not connect to the primary: ", 34) ==
			  0);
		error_clear(&err);
		CHECK(cluster_connect_conninfo("host=/nonexistent-pgcliff-dir port=1",
									   &err) == NULL);
		CHECK(strncmp(err.message, "could not connect to the server: ", 33) ==
			  0);
	}

	/* an external target: a bad conninfo is a usage error; a primary alone
	 * is taken as given (connecting is the run's first query); a standby
	 * needs its own conninfo */
	memset(&spec, 0, sizeof(spec));
	spec.name = "ext";
	spec.conninfo = "host='unterminated";
	error_clear(&err);
	CHECK_INT(target_open(&spec, &t, &err), -1);
	CHECK_INT(err.kind, PGC_ERR_USAGE);
	CHECK(strstr(err.message, "invalid conninfo of the target of ext") !=
		  NULL);
	target_close(t, false);

	spec.conninfo = "host=/nonexistent-pgcliff-dir port=1 password=pw";
	error_clear(&err);
	CHECK_INT(target_open(&spec, &t, &err), 0);
	CHECK(!target_managed(t));
	CHECK(!target_has_standby(t));
	CHECK(target_log_path(t, TARGET_PRIMARY) == NULL);
	CHECK(strstr(target_redacted_conninfo(t), "pw") == NULL);
	{
		const char *const *kw = target_keywords(t, TARGET_PRIMARY);
		const char *const *val = target_values(t, TARGET_PRIMARY);
		int n = 0;

		for (; kw[n]; n++)
			if (strcmp(kw[n], "port") == 0)
				CHECK_STR(val[n], "1");
		CHECK(n >= 3);
		CHECK(target_keywords(t, TARGET_STANDBY)[0] == NULL);
	}
	/* no server there: SQL on it fails as unavailable, with no position */
	{
		size_t pos = 0;

		error_clear(&err);
		CHECK_INT(target_exec(t, "SELECT 1", "setup", &pos, &err), -1);
		CHECK_INT(err.kind, PGC_ERR_UNAVAILABLE);
		CHECK(pos == (size_t) -1);
	}
	CHECK_INT(target_wait_replay(t, 1, &err), 0); /* no standby: nothing */
	CHECK_INT(target_stop(t, &err), 0);           /* external: nothing */
	target_close(t, false);

	spec.standby = true;
	error_clear(&err);
	CHECK_INT(target_open(&spec, &t, &err), -1);
	CHECK_INT(err.kind, PGC_ERR_USAGE);
	CHECK(strstr(err.message, "--target standby=CONNINFO") != NULL);
	target_close(t, false);

	/* a bindir with no PostgreSQL in it is refused before anything runs */
	memset(&spec, 0, sizeof(spec));
	spec.name = "managed";
	spec.bindir = "/nonexistent-pgcliff-bindir";
	error_clear(&err);
	CHECK_INT(target_open(&spec, &t, &err), -1);
	CHECK(err.kind != PGC_ERR_NONE);
	target_close(t, false);
	TEST_MAIN_END("test_cluster");
}
