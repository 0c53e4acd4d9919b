/*
 * target.c - one variant's servers, managed or external, primary with an
 * optional hot standby; what they are (provenance); the SQL run on them
 * outside the load engine; and the one mapping from a libpq failure to
 * pgc_error.  See cluster.h.  Knows nothing of recipes or the store.
 */
#include "cluster.h"
#include "cluster_int.h"

#include "pjson.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TARGET_MAX_PARAMS 32

struct target_node
{
	struct cluster *cluster; /* managed, or NULL */
	PQconninfoOption *opts;  /* external: owns the values below */
	const char *kw[TARGET_MAX_PARAMS];
	const char *val[TARGET_MAX_PARAMS];
};

struct target
{
	struct target_node node[2]; /* TARGET_PRIMARY, TARGET_STANDBY */
	bool has_standby;
	char *redacted; /* the external primary's conninfo, no password */
};

/* ------------------------------------------------------- libpq errors */

/* Byte offset of the 1-based character POS in TEXT (UTF-8). */
static size_t
char_to_byte(const char *text, long pos)
{
	size_t i = 0;
	long chars = 0;

	while (text[i] && chars < pos - 1)
	{
		i++;
		while (((unsigned char) text[i] & 0xC0) == 0x80)
			i++;
		chars++;
	}
	return i;
}

/* The first line of libpq's connection message, copied at once. */
static void
first_line(char *out, size_t size, const char *msg)
{
	snprintf(out, size, "%s", msg ? msg : "");
	out[strcspn(out, "\n")] = '\0';
}

void
cluster_pg_error(struct pgc_error *err, struct pg_conn *conn,
				 const struct pg_result *res, const char *sql,
				 const char *what, size_t *pos)
{
	const char *f;
	char msg[400];

	if (pos)
		*pos = (size_t) -1;
	if (res == NULL)
	{
		first_line(msg, sizeof(msg), PQerrorMessage(conn));
		error_set(err, PGC_ERR_UNAVAILABLE, "%s%s%s", what ? what : "",
				  what ? " failed: " : "", msg);
		return;
	}
	f = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);
	first_line(msg, sizeof(msg), f ? f : PQresultErrorMessage(res));
	error_set(err, PGC_ERR_SQL, "%s%s%s", what ? what : "",
			  what ? " failed: " : "", msg);
	if ((f = PQresultErrorField(res, PG_DIAG_SQLSTATE)) != NULL)
		snprintf(err->sqlstate, sizeof(err->sqlstate), "%s", f);
	if ((f = PQresultErrorField(res, PG_DIAG_MESSAGE_DETAIL)) != NULL)
		error_detail(err, "%s", f);
	if ((f = PQresultErrorField(res, PG_DIAG_MESSAGE_HINT)) != NULL)
		error_hint(err, "%s", f);
	if (pos && sql &&
		(f = PQresultErrorField(res, PG_DIAG_STATEMENT_POSITION)) != NULL)
		*pos = char_to_byte(sql, strtol(f, NULL, 10));
	/* a lost server is not the recipe's fault */
	if (conn && PQstatus(conn) != CONNECTION_OK)
		err->kind = PGC_ERR_UNAVAILABLE;
}

/* The one connect: EXPAND takes a conninfo or URI in dbname whole. */
static struct pg_conn *
connect_params(const char *const *kw, const char *const *val, int expand,
			   const char *what, struct pgc_error *err)
{
	PGconn *conn = PQconnectdbParams(kw, val, expand);
	char msg[400];

	if (PQstatus(conn) == CONNECTION_OK)
		return conn;
	first_line(msg, sizeof(msg), PQerrorMessage(conn));
	error_set(err, PGC_ERR_UNAVAILABLE, "could not connect to the %s: %s",
			  what, msg);
	PQfinish(conn);
	return NULL;
}

struct pg_conn *
cluster_connect(const char *const *kw, const char *const *val,
				const char *what, struct pgc_error *err)
{
	return connect_params(kw, val, 0, what, err);
}

struct pg_conn *
cluster_connect_conninfo(const char *conninfo, struct pgc_error *err)
{
	const char *kw[] = {"dbname", NULL};
	const char *val[] = {conninfo, NULL};

	return connect_params(kw, val, 1, "server", err);
}

void
cluster_disconnect(struct pg_conn *conn)
{
	PQfinish(conn);
}

/* KEY='VALUE' with ' and \ escaped, as libpq reads a conninfo. */
static void
add_keyword(struct strbuf *sb, const char *key, const char *val)
{
	strbuf_addf(sb, "%s%s='", sb->len ? " " : "", key);
	for (const char *p = val; *p; p++)
	{
		if (*p == '\'' || *p == '\\')
			strbuf_addch(sb, '\\');
		strbuf_addch(sb, *p);
	}
	strbuf_addch(sb, '\'');
}

char *
cluster_conninfo_merge(const char *db, const char *host, const char *port,
					   const char *user, struct pgc_error *err)
{
	const char *over[][2] = {{"host", host}, {"port", port}, {"user", user}};
	struct strbuf sb = STRBUF_INIT;
	bool is_conninfo = db && (strchr(db, '=') != NULL ||
							  strncmp(db, "postgresql://", 13) == 0 ||
							  strncmp(db, "postgres://", 11) == 0);

	if (is_conninfo)
	{
		char *errmsg = NULL;
		PQconninfoOption *opts = PQconninfoParse(db, &errmsg);

		if (opts == NULL)
		{
			error_set(err, PGC_ERR_USAGE, "invalid conninfo: %s",
					  errmsg ? errmsg : "out of memory");
			PQfreemem(errmsg);
			return NULL;
		}
		for (PQconninfoOption *o = opts; o->keyword; o++)
		{
			bool overridden = false;

			for (size_t i = 0; i < lengthof(over); i++)
				overridden |=
					over[i][1] && strcmp(o->keyword, over[i][0]) == 0;
			if (o->val && !overridden)
				add_keyword(&sb, o->keyword, o->val);
		}
		PQconninfoFree(opts);
	}
	else if (db && db[0])
		add_keyword(&sb, "dbname", db);
	for (size_t i = 0; i < lengthof(over); i++)
		if (over[i][1])
			add_keyword(&sb, over[i][0], over[i][1]);
	return strbuf_detach(&sb);
}

char *
cluster_redact_conninfo(const char *conninfo)
{
	char *errmsg = NULL;
	PQconninfoOption *opts = PQconninfoParse(conninfo, &errmsg);
	struct strbuf sb = STRBUF_INIT;

	if (opts == NULL)
	{
		PQfreemem(errmsg);
		return xstrdup("(unparsable conninfo)");
	}
	for (PQconninfoOption *o = opts; o->keyword; o++)
	{
		if (o->val == NULL || strcmp(o->keyword, "password") == 0)
			continue;
		add_keyword(&sb, o->keyword, o->val);
	}
	PQconninfoFree(opts);
	return strbuf_detach(&sb);
}

/* ------------------------------------------------------------ targets */

/* libpq keywords/values of CONNINFO into N; N->opts keeps them. */
static int
parse_conninfo(struct target_node *n, const char *conninfo, const char *what,
			   struct pgc_error *err)
{
	char *errmsg = NULL;
	int k = 0;

	n->opts = PQconninfoParse(conninfo, &errmsg);
	if (n->opts == NULL)
	{
		error_set(err, PGC_ERR_USAGE, "invalid conninfo of %s: %s", what,
				  errmsg ? errmsg : "out of memory");
		err->message[strcspn(err->message, "\n")] = '\0';
		PQfreemem(errmsg);
		return -1;
	}
	for (PQconninfoOption *o = n->opts;
		 o->keyword && k < TARGET_MAX_PARAMS - 2; o++)
		if (o->val && o->val[0])
		{
			n->kw[k] = o->keyword;
			n->val[k++] = o->val;
		}
	n->kw[k] = NULL;
	n->val[k] = NULL;
	return 0;
}

char *
cluster_query_one(const char *const *kw, const char *const *val,
				  const char *sql, const char *what, struct pgc_error *err)
{
	PGconn *conn = cluster_connect(kw, val, what, err);
	PGresult *res;
	char *out = NULL;

	if (conn == NULL)
		return NULL;
	res = PQexec(conn, sql);
	if (PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1)
		out = xstrdup(PQgetisnull(res, 0, 0) ? "" : PQgetvalue(res, 0, 0));
	else
	{
		char msg[sizeof(err->message)];

		cluster_pg_error(err, conn, res, NULL, NULL, NULL);
		snprintf(msg, sizeof(msg), "%s", err->message);
		error_set(err, PGC_ERR_UNAVAILABLE, "could not query the %s: %s", what,
				  msg);
	}
	PQclear(res);
	PQfinish(conn);
	return out;
}

/*
 * An external standby: it must be in recovery, streaming, and a copy of
 * the primary (the same system identifier); else a clear refusal.
 */
static int
check_external_standby(struct target *t, struct pgc_error *err)
{
	char *state, *pid = NULL;
	int rc = -1;

	state = cluster_query_one(
		t->node[TARGET_STANDBY].kw, t->node[TARGET_STANDBY].val,
		"SELECT pg_is_in_recovery()::text || ' ' ||"
		" coalesce((SELECT status FROM pg_stat_wal_receiver),"
		" 'none') || ' ' || system_identifier"
		" FROM pg_control_system()",
		"standby", err);
	if (state)
		pid = cluster_query_one(
			t->node[TARGET_PRIMARY].kw, t->node[TARGET_PRIMARY].val,
			"SELECT system_identifier FROM pg_control_system()", "primary",
			err);
	if (state && pid)
	{
		char rec[8] = "", status[32] = "", sysid[32] = "";

		sscanf(state, "%7s %31s %31s", rec, status, sysid);
		if (strcmp(rec, "true") != 0)
			error_set(err, PGC_ERR_UNAVAILABLE,
					  "the --target standby= server is not in recovery: it is "
					  "no standby");
		else if (strcmp(sysid, pid) != 0)
			error_set(err, PGC_ERR_UNAVAILABLE,
					  "the --target standby= server is not a copy of the "
					  "primary (system identifiers %s and %s)",
					  sysid, pid);
		else if (strcmp(status, "streaming") != 0)
			error_set(err, PGC_ERR_UNAVAILABLE,
					  "the --target standby= server does not stream from the "
					  "primary (WAL receiver: %s)",
					  status);
		else
			rc = 0;
	}
	free(state);
	free(pid);
	return rc;
}

static int
open_external(struct target *t, const struct target_spec *s,
			  struct pgc_error *err)
{
	char what[200];

	snprintf(what, sizeof(what), "the target of %s", s->name);
	if (parse_conninfo(&t->node[TARGET_PRIMARY], s->conninfo, what, err) < 0)
		return -1;
	t->redacted = cluster_redact_conninfo(s->conninfo);
	if (!s->standby)
		return 0;
	t->has_standby = true;
	if (s->standby_conninfo == NULL)
	{
		error_set(err, PGC_ERR_USAGE,
				  "topology primary+standby on an external primary needs "
				  "--target standby=CONNINFO");
		return -1;
	}
	if (parse_conninfo(&t->node[TARGET_STANDBY], s->standby_conninfo,
					   "the standby", err) < 0)
		return -1;
	return check_external_standby(t, err);
}

/* GUCS then MORE into one array for cluster_opts; caller frees. */
static struct cluster_guc *
join_gucs(const struct cluster_guc *gucs, int n,
		  const struct cluster_guc *more, int nmore)
{
	struct cluster_guc *all = xcalloc((size_t) (n + nmore) + 1, sizeof(*all));

	if (n)
		memcpy(all, gucs, (size_t) n * sizeof(*all));
	if (nmore)
		memcpy(all + n, more, (size_t) nmore * sizeof(*all));
	return all;
}

static int
open_managed(struct target *t, const struct target_spec *s,
			 struct pgc_error *err)
{
	char bindir[1024];
	char short_name[17], sb_name[24];
	struct cluster_opts co;
	struct cluster_guc *gucs;
	struct target_node *p = &t->node[TARGET_PRIMARY];
	struct target_node *sb = &t->node[TARGET_STANDBY];

	if (cluster_find_bindir(s->bindir, bindir, sizeof(bindir), err) < 0)
		return -1;
	memset(&co, 0, sizeof(co));
	co.bindir = bindir;
	co.os_user =
		s->os_user ? s->os_user : (geteuid() == 0 ? "postgres" : NULL);
	/* the name goes into the socket's path: keep it short */
	snprintf(short_name, sizeof(short_name), "%.16s", s->name);
	co.name = short_name;
	/* the node's own settings come after the shared ones, and win */
	gucs = join_gucs(s->gucs, s->ngucs, s->primary_gucs, s->nprimary_gucs);
	co.gucs = gucs;
	co.ngucs = s->ngucs + s->nprimary_gucs;
	co.valgrind = s->valgrind;
	p->cluster = cluster_create(&co, err);
	if (p->cluster == NULL || cluster_start(p->cluster, err) < 0)
	{
		free(gucs);
		return -1;
	}
	free(gucs);
	cluster_conn_params(p->cluster, p->kw, p->val, TARGET_MAX_PARAMS);
	if (!s->standby)
		return 0;
	t->has_standby = true;
	gucs = join_gucs(s->gucs, s->ngucs, s->standby_gucs, s->nstandby_gucs);
	co.gucs = gucs;
	co.ngucs = s->ngucs + s->nstandby_gucs;
	co.valgrind = NULL; /* the primary's work is what is counted */
	snprintf(sb_name, sizeof(sb_name), "%.13s-sb", s->name);
	co.name = sb_name;
	sb->cluster = cluster_create_standby(p->cluster, &co, err);
	if (sb->cluster == NULL || cluster_start(sb->cluster, err) < 0)
	{
		free(gucs);
		return -1;
	}
	free(gucs);
	cluster_conn_params(sb->cluster, sb->kw, sb->val, TARGET_MAX_PARAMS);
	return 0;
}

int
target_open(const struct target_spec *s, struct target **out,
			struct pgc_error *err)
{
	struct target *t = xcalloc(1, sizeof(*t));

	/* set on failure too: the caller names the logs of what did not start */
	*out = t;
	return s->conninfo ? open_external(t, s, err) : open_managed(t, s, err);
}

void
target_close(struct target *t, bool keep_logs)
{
	if (t == NULL)
		return;
	for (int i = TARGET_STANDBY; i >= TARGET_PRIMARY; i--)
	{
		cluster_destroy(t->node[i].cluster, keep_logs);
		if (t->node[i].opts)
			PQconninfoFree(t->node[i].opts);
	}
	free(t->redacted);
	free(t);
}

int
target_keep_logs(const struct target *t, const char *dest,
				 struct pgc_error *err)
{
	for (int i = TARGET_PRIMARY; i <= TARGET_STANDBY; i++)
	{
		char *dir;
		int rc;

		if (t->node[i].cluster == NULL)
			continue;
		dir = xasprintf("%s/%s", dest,
						i == TARGET_PRIMARY ? "primary" : "standby");
		rc = cluster_keep_logs(t->node[i].cluster, dir, err);
		free(dir);
		if (rc < 0)
			return -1;
	}
	return 0;
}

int
target_set_cpus(struct target *t, const struct cpu_mask *m,
				struct pgc_error *err)
{
	for (int i = TARGET_PRIMARY; i <= TARGET_STANDBY; i++)
		if (t->node[i].cluster &&
			cluster_set_cpus(t->node[i].cluster, m, err) < 0)
			return -1;
	return 0;
}

int
target_start(struct target *t, struct pgc_error *err)
{
	for (int i = TARGET_PRIMARY; i <= TARGET_STANDBY; i++)
		if (t->node[i].cluster && cluster_start(t->node[i].cluster, err) < 0)
			return -1;
	return 0;
}

int
target_stop(struct target *t, struct pgc_error *err)
{
	for (int i = TARGET_STANDBY; i >= TARGET_PRIMARY; i--)
		if (t->node[i].cluster && cluster_stop(t->node[i].cluster, err) < 0)
			return -1;
	return 0;
}

pid_t
target_pid(const struct target *t, enum target_node_id node)
{
	return t->node[node].cluster ? cluster_pid(t->node[node].cluster) : 0;
}

bool
target_managed(const struct target *t)
{
	return t->node[TARGET_PRIMARY].cluster != NULL;
}

bool
target_has_standby(const struct target *t)
{
	return t->has_standby;
}

const char *const *
target_keywords(const struct target *t, enum target_node_id node)
{
	return t->node[node].kw;
}

const char *const *
target_values(const struct target *t, enum target_node_id node)
{
	return t->node[node].val;
}

const char *
target_count_dir(const struct target *t)
{
	return t->node[TARGET_PRIMARY].cluster
			   ? cluster_count_dir(t->node[TARGET_PRIMARY].cluster)
			   : NULL;
}

const char *
target_log_path(const struct target *t, enum target_node_id node)
{
	return t->node[node].cluster ? cluster_log_path(t->node[node].cluster)
								 : NULL;
}

const char *
target_bindir(const struct target *t)
{
	return t->node[TARGET_PRIMARY].cluster
			   ? cluster_bindir(t->node[TARGET_PRIMARY].cluster)
			   : NULL;
}

const char *
target_redacted_conninfo(const struct target *t)
{
	return t->redacted;
}

struct pg_conn *
target_connect(const struct target *t, enum target_node_id node,
			   struct pgc_error *err)
{
	return cluster_connect(t->node[node].kw, t->node[node].val,
						   node == TARGET_PRIMARY ? "primary" : "standby",
						   err);
}

int
target_exec(const struct target *t, const char *sql, const char *what,
			size_t *pos, struct pgc_error *err)
{
	PGconn *conn = target_connect(t, TARGET_PRIMARY, err);
	PGresult *res;
	ExecStatusType st;
	int rc = 0;

	if (pos)
		*pos = (size_t) -1;
	if (conn == NULL)
		return -1;
	res = PQexec(conn, sql);
	st = res ? PQresultStatus(res) : PGRES_FATAL_ERROR;
	if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK &&
		st != PGRES_EMPTY_QUERY)
	{
		cluster_pg_error(err, conn, res, sql, what, pos);
		rc = -1;
	}
	PQclear(res);
	PQfinish(conn);
	return rc;
}

int
target_wait_replay(const struct target *t, int timeout_s,
				   struct pgc_error *err)
{
	if (!t->has_standby)
		return 0;
	return cluster_wait_replay_params(
		t->node[TARGET_PRIMARY].kw, t->node[TARGET_PRIMARY].val,
		t->node[TARGET_STANDBY].kw, t->node[TARGET_STANDBY].val, timeout_s,
		err);
}

/* A two-column result as a JSON object text, or NULL when it failed. */
static char *
json_object_of(PGconn *conn, const char *sql)
{
	PGresult *res = PQexec(conn, sql);
	json_t *obj;
	char *text;

	if (PQresultStatus(res) != PGRES_TUPLES_OK)
	{
		PQclear(res);
		return NULL;
	}
	obj = json_object();
	for (int i = 0; i < PQntuples(res); i++)
		json_object_set_new(obj, PQgetvalue(res, i, 0),
							pjson_str(PQgetvalue(res, i, 1)));
	PQclear(res);
	text = pjson_text(obj, JSON_PRESERVE_ORDER);
	return text;
}

int
target_provenance(const struct target *t, struct target_provenance *p,
				  struct pgc_error *err)
{
	PGconn *conn = target_connect(t, TARGET_PRIMARY, err);
	PGresult *res;

	memset(p, 0, sizeof(*p));
	if (conn == NULL)
		return -1;
	res = PQexec(conn, "SELECT current_setting('server_version'),"
					   " current_setting('server_version_num')::int");
	if (PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1)
	{
		p->server_version = xstrdup(PQgetvalue(res, 0, 0));
		p->server_version_num = atoi(PQgetvalue(res, 0, 1));
	}
	PQclear(res);
	/* as SHOW prints them, with their units: "128MB", not "16384" */
	p->settings =
		json_object_of(conn, "SELECT name, current_setting(name) FROM "
							 "pg_settings WHERE source NOT IN ('default', "
							 "'override') ORDER BY name");
	if (p->settings == NULL)
		p->settings = xstrdup("{}");
	/* the view needs a superuser: NULL otherwise */
	p->pg_config = json_object_of(conn, "SELECT name, setting FROM pg_config"
										" ORDER BY name");
	PQfinish(conn);
	return 0;
}

void
target_provenance_release(struct target_provenance *p)
{
	free(p->server_version);
	free(p->settings);
	free(p->pg_config);
	memset(p, 0, sizeof(*p));
}
