/*
 * context.c - what every command shares between parsing its options and
 * printing its outcome: the store, opened through one function, and one
 * way to end (print the error, if any, close, and map it to an exit
 * code).  See cmd.h.
 */
#include <string.h>

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
	(void) write; /* every store is opened as a writer would, for now */
	if (ctx->store)
		return ctx->store;
	store_resolve_path(ctx->db, ctx->db_path, sizeof(ctx->db_path));
	ctx->store = store_open(ctx->db_path, &ctx->err);
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
