/*
 * cmd_init.c - `pgcliff init`: pgbench -i, with its options, on a server
 * given by conninfo (libpq's environment variables apply, as in pgbench).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster.h"
#include "cmd.h"
#include "pginit.h"

static int init_fn(int argc, char **argv);

enum
{
	OPT_FOREIGN_KEYS = 256,
	OPT_PARTITIONS,
	OPT_PARTITION_METHOD,
	OPT_UNLOGGED_TABLES,
	OPT_TABLESPACE,
	OPT_INDEX_TABLESPACE
};

static const struct cmd_opt init_opts[] = {
	CMD_OPT('s', "scale", "N", NULL,
			"scale factor: N x 100000 accounts (default 1)"),
	CMD_OPT('F', "fillfactor", "N", NULL,
			"fillfactor of the tables, 10..100 (default\n"
			"100)"),
	CMD_OPT('I', "init-steps", "STEPS", NULL,
			"steps to run, from \"dtgGvpf\" (default\n"
			"\"dtgvp\"): d drop, t create, g generate\n"
			"client-side, G generate server-side, v\n"
			"vacuum, p primary keys, f foreign keys"),
	CMD_OPT('n', "no-vacuum", NULL, NULL, "leave out the vacuum step"),
	CMD_OPT(OPT_FOREIGN_KEYS, "foreign-keys", NULL, NULL,
			"add the foreign keys step"),
	CMD_OPT(OPT_PARTITIONS, "partitions", "N", NULL,
			"partition pgbench_accounts into N parts"),
	CMD_OPT(OPT_PARTITION_METHOD, "partition-method", "range|hash",
			"range hash", "how (default range)"),
	CMD_OPT(OPT_UNLOGGED_TABLES, "unlogged-tables", NULL, NULL,
			"create unlogged tables"),
	CMD_OPT(OPT_TABLESPACE, "tablespace", "T", NULL,
			"tablespace of the tables"),
	CMD_OPT(OPT_INDEX_TABLESPACE, "index-tablespace", "T", NULL,
			"tablespace of the primary keys"),
	CMD_OPT('q', "quiet", NULL, NULL,
			"progress every 5 s instead of every 100k rows"),
	CMD_OPT('h', "host", "HOST", "<dir>",
			"the server's host or socket directory"),
	CMD_OPT('p', "port", "PORT", NULL, "its port"),
	CMD_OPT('U', "username", "USER", "<user>", "the user to connect as"),
	CMD_OPT(CMD_OPT_TARGET, "target", "primary=CONNINFO",
			"primary=", "the server, as for run"),
	CMD_OPT_END};

const struct cmd cmd_init = {
	.name = "init",
	.summary = "create and fill pgbench's tables (pgbench -i)",
	.synopsis = "[OPTIONS] [DBNAME | CONNINFO]",
	.about =
		"Creates and fills pgbench_accounts, pgbench_branches, pgbench_tellers\n"
		"and pgbench_history exactly as pgbench -i does, on the server given by\n"
		"-h, -p, -U and DBNAME (or a conninfo string or URI) as pgbench takes\n"
		"them; PGHOST, PGPORT, PGUSER, PGDATABASE... apply to what they leave\n"
		"out.  Progress goes to stderr.\n",
	.opts = init_opts,
	.exits =
		"exit codes: 0 ok, 64 usage, 65 the server rejected a step, 69 server\n"
		"unavailable, 75 interrupted.\n",
	.fn = init_fn,
};

/* Build the steps from -I, -n and --foreign-keys, as pgbench does. */
static void
final_steps(char *out, size_t size, const char *given, bool no_vacuum,
			bool fkeys)
{
	size_t n = 0;

	for (const char *s = given ? given : PGINIT_STEPS_DEFAULT;
		 *s && n + 2 < size; s++)
		if (!(no_vacuum && *s == 'v'))
			out[n++] = *s;
	if (fkeys && strchr(out, 'f') == NULL && n + 1 < size)
		out[n++] = 'f';
	out[n] = '\0';
}

static int
init_fn(int argc, char **argv)
{
	struct pginit_opts o;
	const char *steps = NULL, *conninfo = "", *target = NULL;
	const char *host = NULL, *port = NULL, *user = NULL;
	char *merged;
	bool no_vacuum = false, fkeys = false, method_given = false;
	char final[64], summary[512];
	struct pgc_error err;
	struct pg_conn *conn;
	struct cmd_ctx ctx;
	int ch, rc;

	if (cmd_wants_help(&cmd_init, argc, argv))
		return EXIT_OK;
	memset(&o, 0, sizeof(o));
	o.scale = 1;
	o.method = PGINIT_PART_RANGE;
	while ((ch = cmd_getopt(&cmd_init, argc, argv)) != -1)
	{
		switch (ch)
		{
			case 'h':
				host = optarg;
				break;
			case 'p':
				port = optarg;
				break;
			case 'U':
				user = optarg;
				break;
			case 's':
				if (!cmd_parse_count(optarg, 1000000000, &o.scale))
					return cmd_usage_error(
						&cmd_init, "invalid scale factor \"%s\"", optarg);
				break;
			case 'F':
				if (!cmd_parse_count(optarg, 100, &o.fillfactor) ||
					o.fillfactor < 10)
					return cmd_usage_error(
						&cmd_init, "invalid fillfactor \"%s\" (10..100)",
						optarg);
				break;
			case 'I':
				steps = optarg;
				break;
			case 'n':
				no_vacuum = true;
				break;
			case 'q':
				o.quiet = true;
				break;
			case OPT_FOREIGN_KEYS:
				fkeys = true;
				break;
			case OPT_PARTITIONS:
				if (!cmd_parse_count(optarg, 1000000, &o.partitions))
					return cmd_usage_error(
						&cmd_init, "invalid number of partitions \"%s\"",
						optarg);
				break;
			case OPT_PARTITION_METHOD:
				method_given = true;
				if (strcmp(optarg, "range") == 0)
					o.method = PGINIT_PART_RANGE;
				else if (strcmp(optarg, "hash") == 0)
					o.method = PGINIT_PART_HASH;
				else
					return cmd_usage_error(
						&cmd_init,
						"invalid partition method \"%s\" (range or hash)",
						optarg);
				break;
			case OPT_UNLOGGED_TABLES:
				o.unlogged = true;
				break;
			case OPT_TABLESPACE:
				o.tablespace = optarg;
				break;
			case OPT_INDEX_TABLESPACE:
				o.index_tablespace = optarg;
				break;
			case CMD_OPT_TARGET:
				if (strncmp(optarg, "primary=", 8) != 0)
					return cmd_usage_error(
						&cmd_init,
						"--target wants primary=CONNINFO, not \"%s\"", optarg);
				target = optarg + 8;
				break;
			default:
				return cmd_option_error(&cmd_init, ch, argv);
		}
	}
	if (optind < argc)
		conninfo = argv[optind++];
	if (optind < argc)
		return cmd_usage_error(&cmd_init, "unexpected argument '%s'",
							   argv[optind]);
	if (target && (conninfo[0] || host || port || user))
		return cmd_usage_error(&cmd_init, "give --target or -h/-p/-U/DBNAME, "
										  "not both");
	if (method_given && o.partitions == 0)
		return cmd_usage_error(
			&cmd_init,
			"--partition-method requires greater than zero --partitions");
	final_steps(final, sizeof(final), steps, no_vacuum, fkeys);
	o.steps = final;
	error_clear(&err);
	if (pginit_check_steps(final, &err) < 0)
		return cmd_usage_error(&cmd_init, "%s", err.message);
	o.progress = cmd_progress_line;
	cmd_install_signals();
	o.interrupt = &cmd_interrupted;

	cmd_ctx_init(&ctx, &cmd_init, NULL);
	merged = target ? xstrdup(target)
					: cluster_conninfo_merge(conninfo, host, port, user, &err);
	if (merged == NULL)
		return cmd_usage_error(&cmd_init, "%s", err.message);
	conn = cluster_connect_conninfo(merged, &ctx.err);
	free(merged);
	if (conn == NULL)
		return cmd_ctx_finish(&ctx);
	rc = pginit_run(conn, &o, summary, sizeof(summary), &ctx.err);
	cluster_disconnect(conn);
	if (rc == 0)
		fprintf(stderr, "%s\n", summary);
	return cmd_ctx_finish(&ctx);
}
