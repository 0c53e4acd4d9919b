/*
 * test_wire.c - the documents of a point spread over several drivers:
 * a spec split into shares (clients, jobs, rates; no password passes),
 * results of three shares merged exactly (counts, histograms, per-second
 * series on the common clock, error classes, events, samples), and
 * documents this pgcliff cannot read refused; who may post work: a key
 * file's checks, a spec's signature (the bytes Python's hmac makes of the
 * same message) and its verification, the hosts a worker allows.  No
 * server: the store's side is tested by it_workers.sh.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wire.h"
#include "hist.h"
#include "script.h"
#include "test.h"

static const char *const kw[] = {"host", "port", "password", "dbname", NULL};
static const char *const vals[] = {"/tmp/sock", "5432", "s3cret", "bench",
								   NULL};

static struct script *
parse(const char *text, int index, const struct script *prev)
{
	struct script_origin o = {"r.yaml", 7, 12, 6};
	struct pgc_error err;
	struct script *s = script_parse_next(prev, index, "w", text, &o, &err);

	if (s == NULL)
		fprintf(stderr, "parse: %s\n", err.message);
	return s;
}

/* A spec of two workloads: 7 clients / 3 jobs at 300 tps, and 2 / 1. */
static char *
make_spec(struct script **keep)
{
	struct load_workload wl[2];
	struct load_point lp;
	struct load_node node = {"primary", kw, vals};
	static const struct script_define defs[] = {{"aid", "5"}};
	static const struct load_rule rules[] = {{"23505", LOAD_CONTINUE}};
	static const struct load_policy pol = {3,
										   LOAD_RETRY,
										   LOAD_RETRY,
										   LOAD_CONTINUE,
										   LOAD_CONTINUE,
										   LOAD_ABORT_CLIENT,
										   rules,
										   1};
	static const int weights[2] = {3, 1};
	const struct script *s1[2], *s2[1];
	char *spec;

	keep[0] = parse("\\set x random(1, :aid)\nSELECT :x;\n", 0, NULL);
	keep[1] = parse("SELECT 2;\n", 1, keep[0]);
	keep[2] = parse("SELECT 3;\n", 0, NULL);
	s1[0] = keep[0];
	s1[1] = keep[1];
	s2[0] = keep[2];
	memset(wl, 0, sizeof(wl));
	memset(&lp, 0, sizeof(lp));
	wl[0].name = "a";
	wl[0].scripts = s1;
	wl[0].weights = weights;
	wl[0].nscripts = 2;
	wl[0].protocol = LOAD_PROTO_PREPARED;
	wl[0].conn_keywords = kw;
	wl[0].conn_values = vals;
	wl[0].clients = 7;
	wl[0].jobs = 3;
	wl[0].rate = 300;
	wl[0].policy = &pol;
	wl[0].defines = defs;
	wl[0].ndefines = 1;
	wl[1] = wl[0];
	wl[1].name = "b";
	wl[1].scripts = s2;
	wl[1].weights = NULL;
	wl[1].nscripts = 1;
	wl[1].clients = 2;
	wl[1].jobs = 1;
	wl[1].rate = 0;
	wl[1].policy = NULL;
	lp.workloads = wl;
	lp.nworkloads = 2;
	lp.duration_ns = 3000000000LL;
	lp.warmup_ns = 1000000000LL;
	lp.seed = 42;
	lp.scale = 10;
	lp.nodes = &node;
	lp.nnodes = 1;
	spec = wire_spec(&lp, 3, 5000000000LL, 120.0, 15.0);
	return spec;
}

static void
test_split(void)
{
	struct script *keep[3];
	char *spec = make_spec(keep);
	struct pgc_error err;
	int want_a[3] = {3, 2, 2}, want_b[3] = {1, 1, 0},
		want_jobs_a[3] = {1, 1, 1};

	CHECK(strstr(spec, "s3cret") == NULL); /* no password in the store */
	CHECK(strstr(spec, "/tmp/sock") != NULL);
	for (int k = 0; k < 3; k++)
	{
		struct wire_share *s = wire_share_new(spec, k, &err);
		struct load_point *lp;

		CHECK(s != NULL);
		if (s == NULL)
			continue;
		lp = wire_share_point(s);
		CHECK_INT(lp->nworkloads, want_b[k] ? 2 : 1);
		CHECK_INT(lp->workloads[0].clients, want_a[k]);
		CHECK_INT(lp->workloads[0].jobs, want_jobs_a[k]);
		/* the rate is the workload's: each share takes its clients' part */
		CHECK_NEAR(lp->workloads[0].rate, 300.0 * want_a[k] / 7, 1e-9);
		CHECK_INT(lp->workloads[0].nscripts, 2);
		CHECK_INT(lp->workloads[0].weights[0], 3);
		CHECK_STR(lp->workloads[0].scripts[1]->text, "SELECT 2;\n");
		CHECK_STR(lp->workloads[0].defines[0].value, "5");
		CHECK_INT(lp->workloads[0].policy->max_tries, 3);
		CHECK_STR(lp->workloads[0].policy->rules[0].sqlstate, "23505");
		CHECK_INT(lp->workloads[0].protocol, LOAD_PROTO_PREPARED);
		CHECK_STR(lp->workloads[0].conn_keywords[2], "dbname");
		CHECK(lp->workloads[0].conn_keywords[3] == NULL);
		if (want_b[k])
		{
			CHECK_INT(lp->workloads[1].clients, want_b[k]);
			CHECK(lp->workloads[1].policy == NULL);
		}
		/* the first share samples the servers, the others do not */
		CHECK_INT(lp->nnodes, k == 0 ? 1 : 0);
		CHECK_INT(lp->duration_ns, 3000000000LL);
		CHECK_INT(lp->warmup_ns, 1000000000LL);
		CHECK_INT(lp->scale, 10);
		CHECK(k == 0 || lp->seed != 42); /* streams of their own */
		CHECK_INT(wire_share_clients(s), want_a[k] + want_b[k]);
		wire_share_free(s);
	}
	CHECK(wire_share_new(spec, 3, &err) == NULL);
	CHECK(wire_share_new("{\"version\": 99}", 0, &err) == NULL);
	CHECK(strstr(err.message, "cannot read") != NULL);
	CHECK(wire_share_new("not json", 0, &err) == NULL);
	free(spec);
	for (int i = 0; i < 3; i++)
		script_free(keep[i]);
}

/* One share's result: K scales everything, so that sums are known. */
static char *
share_result(const struct wire_share *s, int k)
{
	struct load_result r;
	struct load_workload_result *w;
	char *doc;

	memset(&r, 0, sizeof(r));
	r.nworkloads = wire_share_point((struct wire_share *) s)->nworkloads;
	r.w = calloc((size_t) r.nworkloads, sizeof(*r.w));
	r.conn_ms = 10.0 * (k + 1);
	r.prepare_ms = 1.0 * (k + 1);
	r.window_ns = 3000000000LL;
	r.warmup_ns = 1000000000LL;
	r.steal_pct = k == 1 ? 12.5 : k == 2 ? -1.0 : 3.0;
	for (int i = 0; i < r.nworkloads; i++)
	{
		w = &r.w[i];
		w->txns = (uint64_t) 100 * (uint64_t) (k + 1);
		w->failures = (unsigned) k;
		w->nseconds = 3;
		w->sec_txns = calloc(3, sizeof(uint64_t));
		w->sec_failures = calloc(3, sizeof(uint64_t));
		w->sec_lat_sum_ns = calloc(3, sizeof(double));
		w->sec_lat_max_ns = calloc(3, sizeof(uint64_t));
		for (int sec = 0; sec < 3; sec++)
		{
			w->sec_txns[sec] =
				(uint64_t) 10 * (uint64_t) (k + 1) + (uint64_t) sec;
			w->sec_lat_sum_ns[sec] = 1000.0 * (k + 1);
			w->sec_lat_max_ns[sec] =
				(uint64_t) 500 * (uint64_t) (k + 1) + (uint64_t) sec;
		}
		w->latency = malloc(sizeof(struct hist));
		hist_reset(w->latency);
		for (unsigned t = 0; t < w->txns; t++)
			hist_record(w->latency, 1000u * (unsigned) (k + 1) + t);
		w->classes = calloc(1, sizeof(*w->classes));
		snprintf(w->classes[0].sqlclass, sizeof(w->classes[0].sqlclass), "40");
		w->classes[0].count = (uint64_t) k;
		w->nclasses = 1;
		w->errors = calloc(1, sizeof(*w->errors));
		w->errors[0].second = k % 2;
		snprintf(w->errors[0].sqlclass, sizeof(w->errors[0].sqlclass), "40");
		w->errors[0].count = 1;
		w->nerrors = 1;
		w->events = calloc(1, sizeof(*w->events));
		w->events[0].seq = 0;
		w->events[0].planned_ns = 500000000LL;
		w->events[0].actual_ns = 500000000LL + 1000LL * (3 - k);
		w->nevents = 1;
		w->jobs = 1;
		w->aborted_clients = k == 2;
		if (k == 2)
			snprintf(w->first_error, sizeof(w->first_error), "lost");
	}
	if (k == 0)
	{
		r.samples = calloc(2, sizeof(*r.samples));
		r.nsamples = 2;
		for (int i = 0; i < 2; i++)
		{
			r.samples[i].second = i;
			r.samples[i].ok = true;
			r.samples[i].commits = 7 + i;
			r.samples[i].conflicts[1] = 2;
			r.samples[i].waits = strdup("{\"LWLock:WALInsert\": 3}");
		}
	}
	doc = wire_result(s, &r);
	load_result_release(&r);
	return doc;
}

static void
test_merge(void)
{
	struct script *keep[3];
	char *spec = make_spec(keep);
	char *docs[3];
	struct load_result out;
	struct pgc_error err;
	struct hist want;

	for (int k = 0; k < 3; k++)
	{
		struct wire_share *s = wire_share_new(spec, k, &err);

		docs[k] = share_result(s, k);
		wire_share_free(s);
	}
	CHECK_INT(wire_merge((const char *const *) docs, 3, 2, &out, &err), 0);
	/* workload a ran on three shares, b on two (share 3 had no client) */
	CHECK_INT(out.w[0].txns, 100 + 200 + 300);
	CHECK_INT(out.w[1].txns, 100 + 200);
	CHECK_INT(out.w[0].failures, 0 + 1 + 2);
	CHECK_INT(out.w[0].jobs, 3);
	CHECK_INT(out.w[1].jobs, 2);
	CHECK_INT(out.w[0].nseconds, 3);
	CHECK_INT(out.w[0].sec_txns[0], 10 + 20 + 30);
	CHECK_INT(out.w[0].sec_txns[2], 12 + 22 + 32);
	CHECK_INT(out.w[1].sec_txns[1], 11 + 21);
	CHECK_NEAR(out.w[0].sec_lat_sum_ns[1], 6000.0, 1e-12);
	CHECK_INT(out.w[0].sec_lat_max_ns[2], 1502); /* the slowest of them */
	CHECK_INT(out.w[0].aborted_clients, 1);
	CHECK_STR(out.w[0].first_error, "lost");
	/* the histogram is the sum of the shares', bucket for bucket */
	hist_reset(&want);
	for (int k = 0; k < 3; k++)
		for (unsigned t = 0; t < 100u * (unsigned) (k + 1); t++)
			hist_record(&want, 1000u * (unsigned) (k + 1) + t);
	CHECK_INT(out.w[0].latency->count, want.count);
	CHECK_INT(out.w[0].latency->min_ns, want.min_ns);
	CHECK_INT(out.w[0].latency->max_ns, want.max_ns);
	CHECK(memcmp(out.w[0].latency->buckets, want.buckets,
				 sizeof(want.buckets)) == 0);
	CHECK_INT(hist_quantile(out.w[0].latency, 0.99),
			  hist_quantile(&want, 0.99));
	/* classes add up; errors are per second and class, in order */
	CHECK_INT(out.w[0].nclasses, 1);
	CHECK_INT(out.w[0].classes[0].count, 3);
	CHECK_INT(out.w[0].nerrors, 2);
	CHECK_INT(out.w[0].errors[0].second, 0);
	CHECK_INT(out.w[0].errors[0].count, 2); /* shares 1 and 3 */
	CHECK_INT(out.w[0].errors[1].count, 1);
	/* an event started when its first client did */
	CHECK_INT(out.w[0].nevents, 1);
	CHECK_INT(out.w[0].events[0].actual_ns, 500000000LL + 1000);
	/* the point's phases end with the slowest driver's */
	CHECK_NEAR(out.conn_ms, 30.0, 1e-12);
	CHECK_NEAR(out.prepare_ms, 3.0, 1e-12);
	CHECK_INT(out.window_ns, 3000000000LL);
	CHECK_NEAR(out.steal_pct, 12.5, 1e-12); /* the worst known */
	CHECK_INT(out.nsamples, 2);
	CHECK_INT(out.samples[1].commits, 8);
	CHECK_INT(out.samples[1].conflicts[1], 2);
	CHECK_STR(out.samples[0].waits, "{\"LWLock:WALInsert\": 3}");
	load_result_release(&out);
	/* a result of another version, or of a workload the point lacks */
	{
		const char *bad[1] = {"{\"version\": 99}"};
		const char *alien[1] = {
			"{\"version\": 2, \"workloads\": [{\"index\": 5}]}"};

		CHECK_INT(wire_merge(bad, 1, 2, &out, &err), -1);
		CHECK(strstr(err.message, "cannot read") != NULL);
		CHECK_INT(wire_merge(alien, 1, 2, &out, &err), -1);
	}
	for (int k = 0; k < 3; k++)
		free(docs[k]);
	free(spec);
	for (int i = 0; i < 3; i++)
		script_free(keep[i]);
}

/* a key file of MODE holding TEXT, in DIR */
static char *
key_file(const char *dir, const char *name, const char *text, mode_t mode)
{
	char *path = xasprintf("%s/%s", dir, name);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	CHECK(fd >= 0 && write(fd, text, strlen(text)) == (ssize_t) strlen(text));
	close(fd);
	CHECK_INT(chmod(path, mode), 0);
	return path;
}

static void
test_sign(void)
{
	char dir[] = "/tmp/test_wire.XXXXXX";
	struct wire_key key, other;
	struct pgc_error err;
	char sig[WIRE_SIGNATURE_LEN + 1], *path;
	/* signed bytes: the document is not read */
	const char *spec =
		"{\"posted_us\": 1000000000, \"ready_timeout_ns\": 60000000000}";
	CHECK(mkdtemp(dir) != NULL);
	/* the key: its owner's alone, 16 bytes or more, trailing newlines not
	 * counted */
	path = key_file(dir, "k", "0123456789abcdef0123456789abcdef\n", 0600);
	CHECK_INT(wire_key_load(path, &key, &err), 0);
	CHECK_INT(key.len, 32);
	CHECK_INT(chmod(path, 0640), 0);
	CHECK_INT(wire_key_load(path, &other, &err), -1);
	CHECK_INT(err.kind, PGC_ERR_USAGE);
	CHECK(strstr(err.message, "may be read or written by others (mode 0640") !=
		  NULL);
	CHECK(strstr(err.hint, "chmod 600") != NULL);
	unlink(path);
	free(path);
	path = key_file(dir, "short", "0123456789abcde\r\n", 0400);
	CHECK_INT(wire_key_load(path, &other, &err), -1);
	CHECK(strstr(err.message, "holds 15 bytes: a key is 16 to 4096") != NULL);
	unlink(path);
	free(path);
	CHECK_INT(wire_key_load("/dev/null", &other, &err), -1);
	CHECK(strstr(err.message, "not a regular file") != NULL);
	path = xasprintf("%s/none", dir);
	CHECK_INT(wire_key_load(path, &other, &err), -1);
	CHECK(strstr(err.message, "could not read the key file") != NULL);
	free(path);
	rmdir(dir);

	/* HMAC-SHA256 of "pgcliff spec 1", the uid, the order and the spec,
	 * each NUL-ended: Python's hmac.new(key, msg, sha256) of them */
	wire_sign(&key, "u1", 3, spec, sig);
	CHECK_STR(
		sig,
		"f88fb9e511b209c7222aec463008631d4f29cdf63975d2f9a126af28685bc54b");
	CHECK_INT(wire_verify(&key, "u1", 3, spec, sig, &err), 0);
	/* not signed, signed otherwise, another run, another step */
	CHECK_INT(wire_verify(&key, "u1", 3, spec, NULL, &err), -1);
	CHECK(strstr(err.message, "is not signed (") != NULL);
	sig[0] = sig[0] == 'f' ? 'e' : 'f';
	CHECK_INT(wire_verify(&key, "u1", 3, spec, sig, &err), -1);
	CHECK(strstr(err.message, "not signed with this worker's key") != NULL);
	CHECK_INT(err.kind, PGC_ERR_UNAVAILABLE);
	wire_sign(&key, "u1", 3, spec, sig);
	CHECK_INT(wire_verify(&key, "u2", 3, spec, sig, &err), -1);
	CHECK_INT(wire_verify(&key, "u1", 4, spec, sig, &err), -1);
	/* a key one byte shorter signs otherwise */
	other = key;
	other.len--;
	CHECK_INT(wire_verify(&other, "u1", 3, spec, sig, &err), -1);
}

/*
 * A spec's age, read by the share's codec: up to its ready timeout and 10
 * minutes, either way, by the worker's clock.
 */
static void
test_fresh(void)
{
	struct pgc_error err;
	struct script *keep[3];
	char *spec = make_spec(keep); /* posted now, a 5 s ready timeout */
	struct wire_share *sh = wire_share_new(spec, 0, &err);
	int64_t now = clock_wall_us();
	const int64_t s = 1000000;

	CHECK(sh != NULL);
	CHECK_INT(wire_share_fresh(sh, now, &err), 0);
	CHECK_INT(wire_share_fresh(sh, now + 600 * s, &err), 0);
	CHECK_INT(wire_share_fresh(sh, now + 606 * s, &err), -1);
	CHECK_INT(err.kind, PGC_ERR_UNAVAILABLE);
	CHECK(strstr(err.message, "ago by this worker's clock (at most 605 s)") !=
		  NULL);
	CHECK_INT(wire_share_fresh(sh, now - 606 * s, &err), -1);
	CHECK(strstr(err.message, " s ahead by this worker's clock") != NULL);
	wire_share_free(sh);
	free(spec);
	for (int i = 0; i < 3; i++)
		script_free(keep[i]);
}

static void
test_hosts(void)
{
	const char *hosts[] = {"db.lab", "10.0.0.7", "/run/pg", "/tmp/x/"};
	struct wire_hosts allow = {hosts, 4};
	struct wire_hosts none = {NULL, 0};

	CHECK(wire_host_allowed(&allow, "db.lab"));
	CHECK(wire_host_allowed(&allow, "DB.Lab"));
	CHECK(!wire_host_allowed(&allow, "db.lab.evil"));
	CHECK(!wire_host_allowed(&allow, "lab"));
	CHECK(wire_host_allowed(&allow, "10.0.0.7"));
	CHECK(!wire_host_allowed(&allow, "10.0.0.70"));
	/* socket directories: the one allowed and those below it */
	CHECK(wire_host_allowed(&allow, "/run/pg"));
	CHECK(wire_host_allowed(&allow, "/run/pg/a"));
	CHECK(!wire_host_allowed(&allow, "/run/pgx"));
	CHECK(!wire_host_allowed(&allow, "/run"));
	CHECK(!wire_host_allowed(&allow, "/run/pg/../other"));
	CHECK(!wire_host_allowed(&allow, "/run/pg/.."));
	CHECK(wire_host_allowed(&allow, "/run/pg/.s"));
	CHECK(wire_host_allowed(&allow, "/tmp/x"));
	CHECK(wire_host_allowed(&allow, "/tmp/x/y"));
	/* a path is not a name, nor a name a path */
	CHECK(!wire_host_allowed(&allow, "run/pg"));
	/* none named: the worker's own default */
	CHECK(wire_host_allowed(&none, ""));
	CHECK(wire_host_allowed(&none, NULL));
	CHECK(!wire_host_allowed(&none, "db.lab"));
}

int
main(void)
{
	test_split();
	test_merge();
	test_sign();
	test_fresh();
	test_hosts();
	TEST_MAIN_END("test_wire");
}
