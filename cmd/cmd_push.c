/*
 * cmd_push.c - `pgcliff push` and `pgcliff pull`: copy runs from one
 * store to another (store_copy_run()), by the run's identity, so that
 * doing it twice copies nothing.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "store.h"

static int push_fn(int argc, char **argv);
static int pull_fn(int argc, char **argv);

#define MOVE_HELP                                                              \
	"A run keeps its identity (a uid) in every store: one copied before is\n"  \
	"not copied again, and one whose copy there has other contents (status,\n" \
	"end, points or recipe) is a conflict: nothing is overwritten, the\n"      \
	"command stops with exit 70.  Each run is copied whole, in one\n"          \
	"transaction, under a new id; its host facts come with it.  A run still\n" \
	"running is left for later (named: an error).  Without RUN, every run.\n"

/* the other store: --to of push, --from of pull */
enum
{
	OPT_OTHER = 256
};

static const struct cmd_opt push_opts[] = {
	CMD_OPT(OPT_OTHER, "to", "STORE", "<file>",
			"where the runs go: an SQLite file or a\n"
			"PostgreSQL URI or conninfo"),
	CMD_OPT_DB_ENTRY, CMD_OPT_END};

static const struct cmd_opt pull_opts[] = {
	CMD_OPT(OPT_OTHER, "from", "STORE", "<file>", "where the runs come from"),
	CMD_OPT_DB_ENTRY, CMD_OPT_END};

const struct cmd cmd_push = {
	.name = "push",
	.summary = "copy runs to another store (a shared PostgreSQL one)",
	.synopsis = "--to STORE [RUN...] [--db STORE]",
	.about =
		"Copies runs of the store (--db) into the store --to names,\n"
		"typically from this machine's SQLite file to a team's PostgreSQL\n"
		"database, so that compare, gate and history see them with the\n"
		"runs of other machines.\n"
		"\n" MOVE_HELP,
	.opts = push_opts,
	.exits = "exit codes: 0 copied (or nothing to copy), 64 usage, 70 a\n"
			 "conflict or a store error.\n",
	.fn = push_fn,
};

const struct cmd cmd_pull = {
	.name = "pull",
	.summary = "copy runs from another store into this one",
	.synopsis = "--from STORE [RUN...] [--db STORE]",
	.about =
		"Copies runs of the store --from names (RUN: its ids there) into\n"
		"the store (--db).\n"
		"\n" MOVE_HELP,
	.opts = pull_opts,
	.exits = "exit codes: 0 copied (or nothing to copy), 64 usage, 70 a\n"
			 "conflict or a store error.\n",
	.fn = pull_fn,
};

/* Copy RUNS (NULL: every run) of FROM into TO, saying what happened. */
static int
move_runs(struct cmd_ctx *ctx, struct store *from, struct store *to,
		  const int64_t *runs, int nruns)
{
	struct store_run_row *all = NULL;
	int n = nruns, copied = 0, there = 0, left = 0;
	int64_t *ids = NULL;

	if (runs == NULL)
	{
		if (store_list_runs(from, NULL, NULL, 0, &all, &n, &ctx->err) < 0)
			return -1;
		ids = xcalloc((size_t) n + 1, sizeof(*ids));
		/* oldest first: their order in TO is the order they were run */
		for (int i = 0; i < n; i++)
			ids[i] = all[n - 1 - i].id;
	}
	for (int i = 0; i < n; i++)
	{
		int64_t id = runs ? runs[i] : ids[i];
		struct store_copy c;

		if (!runs && strcmp(all[n - 1 - i].status, "running") == 0 &&
			!all[n - 1 - i].dead)
		{
			printf("run %" PRId64 ": still running, left for later\n", id);
			left++;
			continue;
		}
		if (store_copy_run(from, id, to, &c, &ctx->err) < 0)
			break;
		if (c.copied)
			printf("run %" PRId64 " -> run %" PRId64 ": copied (%d point%s)\n",
				   id, c.id, c.points, c.points == 1 ? "" : "s");
		else
			printf("run %" PRId64 ": there already, as run %" PRId64 "\n", id,
				   c.id);
		copied += c.copied;
		there += !c.copied;
	}
	printf("%d run%s copied from %s to %s, %d there already%s\n", copied,
		   copied == 1 ? "" : "s", store_name(from), store_name(to), there,
		   left ? ", some left for later" : "");
	store_runs_free(all, runs ? 0 : n);
	free(ids);
	return ctx->err.kind == PGC_ERR_NONE ? 0 : -1;
}

/* push (PUSH) or pull: --to/--from OTHER, RUN..., --db. */
static int
move_fn(const struct cmd *c, bool push, int argc, char **argv)
{
	const char *db = NULL, *other = NULL;
	int64_t *runs = NULL;
	int nruns = 0, ch;
	struct cmd_ctx ctx;
	struct store *here, *there;
	char path[1024];
	int64_t timeout_ns = 0;

	if (cmd_wants_help(c, argc, argv))
		return EXIT_OK;
	while ((ch = cmd_getopt(c, argc, argv)) != -1)
	{
		switch (ch)
		{
			case OPT_OTHER:
				other = optarg;
				break;
			case CMD_OPT_DB:
				db = optarg;
				break;
			default:
				return cmd_option_error(c, ch, argv);
		}
	}
	if (other == NULL || other[0] == '\0')
		return cmd_usage_error(c, "%s needs --%s STORE", c->name,
							   push ? "to" : "from");
	runs = xcalloc((size_t) (argc - optind) + 1, sizeof(*runs));
	for (; optind < argc; optind++)
		if (!cmd_parse_run_id(argv[optind], &runs[nruns++]))
		{
			free(runs);
			return cmd_usage_error(c, "invalid run id \"%s\"", argv[optind]);
		}
	cmd_ctx_init(&ctx, c, db);
	/* the store this command names with --db: read by push, written by
	 * pull; the other store the other way */
	if ((here = cmd_open_store(&ctx, !push)) == NULL)
		goto out;
	store_resolve_path(other, path, sizeof(path));
	there =
		push ? store_open(path, &ctx.err) : store_open_read(path, &ctx.err);
	if (there == NULL)
		goto out;
	/* valid: cmd_open_store() read it first */
	(void) cmd_store_timeout(&ctx.err, &timeout_ns);
	store_set_busy_timeout(there, timeout_ns);
	move_runs(&ctx, push ? here : there, push ? there : here,
			  nruns ? runs : NULL, nruns);
	store_close(there);
out:
	free(runs);
	return cmd_ctx_finish(&ctx);
}

static int
push_fn(int argc, char **argv)
{
	return move_fn(&cmd_push, true, argc, argv);
}

static int
pull_fn(int argc, char **argv)
{
	return move_fn(&cmd_pull, false, argc, argv);
}
