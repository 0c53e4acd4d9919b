/*
 * context.c - what every command shares between parsing its options and
 * printing its outcome: the store, opened through one function, and one
 * way to end (print the error, if any, close, and map it to an exit
 * code).  See cmd.h.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "cmd.h"
#include "recipe.h"
#include "run.h"
#include "store.h"

uint64_t
cmd_draw_seed(void)
{
	uint64_t seed;

	if (getrandom(&seed, sizeof(seed), 0) != (ssize_t) sizeof(seed))
		seed = (uint64_t) clock_now_ns();
	/* a drawn seed stays positive in SQLite; a given one is kept whole
	 * (pgbench's --random-seed is 64 bits), stored as its bit pattern */
	return seed & INT64_MAX;
}

int
cmd_parse_count_txns(const struct cmd *c, const char *arg, int64_t *out)
{
	int n;

	if (!cmd_parse_count(arg, 10000000, &n))
		return cmd_usage_error(c,
							   "invalid --count \"%s\" (transactions per "
							   "client, 1 to 10000000)",
							   arg);
	*out = n;
	return 0;
}

int
cmd_parse_until(const struct cmd *c, int id, const char *arg,
				struct run_until *u)
{
	enum cmp_metric metric;
	char why[120];

	switch (id)
	{
		case CMD_OPT_BUDGET:
			if ((u->budget_ns = recipe_parse_duration_ns(arg)) <= 0)
				return cmd_usage_error(
					c, "invalid budget \"%s\" (want e.g. 20min)", arg);
			break;
		case CMD_OPT_MAX_REPEATS:
			if (!cmd_parse_count(arg, 1000, &u->max_repeats) ||
				u->max_repeats < 2)
				return cmd_usage_error(
					c, "invalid --max-repeats \"%s\" (2 or more)", arg);
			break;
		case CMD_OPT_ON:
			if (strcmp(arg, "geomean") != 0 && strcmp(arg, "points") != 0)
				return cmd_usage_error(
					c, "invalid --on \"%s\" (points or geomean)", arg);
			u->on_geomean = strcmp(arg, "geomean") == 0;
			break;
		case CMD_OPT_RULE:
			if (cmp_rule_parse(arg, &u->rule) < 0)
				return cmd_usage_error(
					c, "invalid --rule \"%s\" (estimate or strict)", arg);
			break;
		case CMD_OPT_ADJUST:
			if (cmp_adjust_parse(arg, &u->adjust) < 0)
				return cmd_usage_error(
					c, "invalid --adjust \"%s\" (steal or none)", arg);
			break;
		case CMD_OPT_METRIC:
			if (cmp_metric_parse_full(arg, &metric, u->metric_full, why) < 0)
				return cmd_usage_error(c, "unknown metric \"%s\"%s%s%s", arg,
									   why[0] ? " (" : "", why,
									   why[0] ? ")" : "");
			u->metric = (int) metric;
			break;
		case CMD_OPT_MAX_REGRESSION:
			if (!cmd_parse_fraction(arg, &u->margin) ||
				!(u->margin > 0 && u->margin < 1))
				return cmd_usage_error(
					c,
					"invalid margin \"%s\" (want e.g. 3%% or "
					"0.03)",
					arg);
			break;
		default:
			return 1;
	}
	return 0;
}

void
cmd_ctx_init(struct cmd_ctx *ctx, const struct cmd *c, const char *db)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->cmd = c;
	ctx->db = db;
	error_clear(&ctx->err);
}

int
cmd_store_timeout(struct pgc_error *err, int64_t *ns)
{
	const char *v = getenv("PGCLIFF_STORE_TIMEOUT");

	*ns = 0;
	if (v == NULL || v[0] == '\0')
		return 0;
	*ns = recipe_parse_duration_ns(v);
	if (*ns <= 0)
	{
		error_set(err, PGC_ERR_USAGE, "invalid PGCLIFF_STORE_TIMEOUT \"%s\"",
				  v);
		error_hint(err, "a duration, such as 30s or 2min");
		return -1;
	}
	return 0;
}

struct store *
cmd_open_store(struct cmd_ctx *ctx, bool write)
{
	struct stat st;
	int64_t timeout_ns;

	if (ctx->store)
		return ctx->store;
	if (ctx->db && ctx->db[0] == '\0')
	{
		error_set(&ctx->err, PGC_ERR_USAGE, "--db is empty");
		error_hint(
			&ctx->err,
			"give a file or a postgresql:// URI, or leave --db out for the default "
			"store");
		return NULL;
	}
	store_resolve_path(ctx->db, ctx->db_path, sizeof(ctx->db_path));
	/* reading makes nothing: a typo in --db is not a new, empty store */
	if (!write && strcmp(ctx->db_path, ":memory:") != 0 &&
		!store_is_shared(ctx->db_path) && stat(ctx->db_path, &st) != 0)
	{
		error_set(&ctx->err, PGC_ERR_NOT_FOUND, "no store at \"%s\"",
				  ctx->db_path);
		error_hint(&ctx->err, "pgcliff run makes it; --db or PGCLIFF_DB name "
							  "another");
		return NULL;
	}
	if (cmd_store_timeout(&ctx->err, &timeout_ns) != 0)
		return NULL;
	ctx->store = write ? store_open(ctx->db_path, &ctx->err)
					   : store_open_read(ctx->db_path, &ctx->err);
	if (ctx->store)
		store_set_busy_timeout(ctx->store, timeout_ns);
	/* what is printed names the store without its password */
	if (ctx->store && store_is_shared(ctx->db_path))
		snprintf(ctx->db_path, sizeof(ctx->db_path), "%s",
				 store_name(ctx->store));
	return ctx->store;
}

int
cmd_ctx_finish(struct cmd_ctx *ctx)
{
	int rc = ctx->exit_code;

	fflush(stdout);
	if (ctx->err.kind != PGC_ERR_NONE)
	{
		cmd_print_error(&ctx->err);
		rc = cmd_exit_code(&ctx->err);
	}
	store_close(ctx->store);
	ctx->store = NULL;
	return rc;
}

int
cmd_write_output(const char *path, const struct strbuf *out,
				 struct pgc_error *err)
{
	const char *text = out->buf ? out->buf : "";

	if (path)
	{
		/* a file is read in a terminal too: the same escaping as stdout */
		struct visible v;
		struct strbuf safe = STRBUF_INIT;
		int rc;

		memset(&v, 0, sizeof(v));
		visible_add(&v, &safe, text, out->len);
		visible_finish(&v, &safe);
		rc = file_write_replace(path, safe.buf ? safe.buf : "", safe.len, 0644,
								err);
		strbuf_release(&safe);
		return rc;
	}
	fputs(text, stdout);
	fflush(stdout);
	return 0;
}

void
cmd_json_for_stdout(struct strbuf *out)
{
	json_t *doc;
	char *text;

	if (isatty(STDOUT_FILENO) || out->buf == NULL ||
		(doc = json_loads(out->buf, JSON_DECODE_ANY, NULL)) == NULL)
		return;
	text = json_dumps(doc, JSON_COMPACT | JSON_REAL_PRECISION(15));
	json_decref(doc);
	if (text == NULL)
		return;
	strbuf_reset(out);
	strbuf_addstr(out, text);
	strbuf_addch(out, '\n');
	free(text);
}

const char *
cmd_key_file(const char *given)
{
	const char *env = getenv("PGCLIFF_KEY_FILE");

	if (given)
		return given;
	return env && env[0] ? env : NULL;
}
