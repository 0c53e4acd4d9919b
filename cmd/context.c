/*
 * context.c - what every command shares between parsing its options and
 * printing its outcome: the store, opened through one function, and one
 * way to end (print the error, if any, close, and map it to an exit
 * code).  See cmd.h.
 */
#include <string.h>
#include <sys/stat.h>

#include "cmd.h"
#include "store.h"

void
cmd_ctx_init(struct cmd_ctx *ctx, const struct cmd *c, const char *db)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->cmd = c;
	ctx->db = db;
	error_clear(&ctx->err);
}

struct store *
cmd_open_store(struct cmd_ctx *ctx, bool write)
{
	struct stat st;

	if (ctx->store)
		return ctx->store;
	if (ctx->db && ctx->db[0] == '\0')
	{
		error_set(&ctx->err, PGC_ERR_USAGE, "--db is empty");
		error_hint(&ctx->err, "give a file, or leave --db out for the default "
							  "store");
		return NULL;
	}
	store_resolve_path(ctx->db, ctx->db_path, sizeof(ctx->db_path));
	/* reading makes nothing: a typo in --db is not a new, empty store */
	if (!write && strcmp(ctx->db_path, ":memory:") != 0 &&
		stat(ctx->db_path, &st) != 0)
	{
		error_set(&ctx->err, PGC_ERR_USAGE, "no store at \"%s\"",
				  ctx->db_path);
		error_hint(&ctx->err, "pgcliff run makes it; --db or PGCLIFF_DB name "
							  "another");
		return NULL;
	}
	ctx->store = write ? store_open(ctx->db_path, &ctx->err)
					   : store_open_read(ctx->db_path, &ctx->err);
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
