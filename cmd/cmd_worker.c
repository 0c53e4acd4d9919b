/*
 * cmd_worker.c - `pgcliff worker`: a driver of its share of clients for
 * a `run --workers N` on this or another host, fed through a shared
 * PostgreSQL store (cmd/conductor/fleet).  It parses options and prints what
 * the worker does; claiming, measuring and reporting are fleet_serve()'s.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "fleet.h"
#include "recipe.h"
#include "store.h"

static int worker_fn(int argc, char **argv);

enum
{
	OPT_NAME = 256,
	OPT_IDLE,
	OPT_SHARES,
	OPT_ALLOW_SHELL,
	OPT_ALLOW_HOST
};

/* --allow-host, at most this many */
#define MAX_ALLOW_HOSTS 64

static const struct cmd_opt worker_opts[] = {
	CMD_OPT_DB_ENTRY,
	CMD_OPT(OPT_NAME, "name", "NAME", NULL,
			"how the store names this worker (default\n"
			"HOST.PID)"),
	CMD_OPT(OPT_IDLE, "idle", "DUR", NULL,
			"stop after this long without work (default\n"
			"10min; 0: never)"),
	CMD_OPT(OPT_SHARES, "shares", "N", NULL, "stop after N shares"),
	CMD_OPT_KEY_FILE_ENTRY,
	CMD_OPT(OPT_ALLOW_HOST, "allow-host", "HOST", "<host>",
			"a host the run's servers may be on (a name,\n"
			"an address, or a socket directory and those\n"
			"below it; again for more).  The store's host\n"
			"is allowed; a share that names another is\n"
			"refused before it connects anywhere"),
	CMD_OPT(OPT_ALLOW_SHELL, "allow-shell", NULL, NULL,
			"run \\shell and \\setshell of the scripts;\n"
			"without it a share that has one is\n"
			"refused (whoever can write to the store\n"
			"writes the scripts)"),
	CMD_OPT_END};

const struct cmd cmd_worker = {
	.name = "worker",
	.summary = "drive a share of the clients of a run --workers N",
	.synopsis = "--db STORE --key-file FILE [OPTIONS]",
	.about =
		"Waits for work in a shared PostgreSQL store, where `pgcliff run\n"
		"--workers N --db STORE` posts each point in N shares.  Each worker\n"
		"claims one share (FOR UPDATE SKIP LOCKED), connects its part of\n"
		"every workload's clients to the run's servers, reports ready with\n"
		"its clock's offset, starts at the instant the run names, and\n"
		"writes its per-second series and histograms back; the run merges\n"
		"them into one point.  Start one worker per share on the client\n"
		"hosts with your own tooling (ssh, a Kubernetes Indexed Job,\n"
		"systemd); a worker serves points one after another until idle.\n"
		"The servers must be reachable from every worker: managed servers\n"
		"listen on a unix socket of the run's host, so workers on other\n"
		"hosts need --target servers.  Passwords are not passed through\n"
		"the store: a worker connects with its own PGPASSWORD or .pgpass.\n"
		"\n"
		"Whoever can write to the store can post work, so a worker runs\n"
		"only what a run signed with the key file both were given\n"
		"(HMAC-SHA256 of the spec, its run and its step; a spec posted\n"
		"over 10 minutes before it is read is refused too), connects only\n"
		"to the store's host and the --allow-host ones (so that its\n"
		"password goes nowhere else), and runs a script's \\shell only\n"
		"with --allow-shell.  A refused share fails its point with the\n"
		"reason; nothing of it runs.\n"
		"\n"
		"When its store session is cut, a worker opens a new one every\n"
		"second for as long as --idle (forever without it); a share it\n"
		"held then lost its claim, and is written failed, never counted.\n",
	.opts = worker_opts,
	.exits =
		"exit codes: 0 idle or done, 64 usage, 69 store unavailable, 70 store\n"
		"error, 75 interrupted.  A share that fails is reported to the run\n"
		"(which fails its point) and the worker goes on.\n",
	.fn = worker_fn,
};

static void
on_worker_event(void *arg, const struct fleet_worker_info *i)
{
	const char *name = arg;

	switch (i->kind)
	{
		case FLEET_EV_CLAIMED:
			printf("%s: run %" PRId64 " point %d: share %d of %d, %d "
				   "client%s\n",
				   name, i->run_id, i->order + 1, i->share + 1, i->nshares,
				   i->clients, i->clients == 1 ? "" : "s");
			break;
		case FLEET_EV_READY:
			printf("%s: run %" PRId64 " point %d: ready, clock %+.3f ms from "
				   "the run's\n",
				   name, i->run_id, i->order + 1, i->offset_ms);
			break;
		case FLEET_EV_DONE:
			printf("%s: run %" PRId64 " point %d: done, %" PRIu64
				   " transactions\n",
				   name, i->run_id, i->order + 1, i->txns);
			break;
		case FLEET_EV_FAILED:
			printf("%s: run %" PRId64 " point %d: failed: %s\n", name,
				   i->run_id, i->order + 1, i->err->message);
			break;
		case FLEET_EV_STORE_LOST:
			printf("%s: the store's session is gone (%s): trying again "
				   "every second\n",
				   name, i->err->message);
			break;
		case FLEET_EV_STORE_BACK:
			printf("%s: the store is back after %.0f s\n", name, i->waited_s);
			break;
	}
	fflush(stdout);
}

static int
worker_fn(int argc, char **argv)
{
	const char *db = NULL, *key_file = NULL;
	const char *allow[MAX_ALLOW_HOSTS + 2];
	int nallow = 0;
	struct wire_key key;
	char name[300];
	struct fleet_worker_config wc;
	struct cmd_ctx ctx;
	int ch, shares = 0;

	if (cmd_wants_help(&cmd_worker, argc, argv))
		return EXIT_OK;
	memset(&wc, 0, sizeof(wc));
	wc.idle_ns = 600 * 1000000000LL;
	name[0] = '\0';
	while ((ch = cmd_getopt(&cmd_worker, argc, argv)) != -1)
	{
		switch (ch)
		{
			case OPT_NAME:
				if (optarg[0] == '\0' || strlen(optarg) >= sizeof(name))
					return cmd_usage_error(&cmd_worker,
										   "a worker's name is 1 to %zu "
										   "characters",
										   sizeof(name) - 1);
				snprintf(name, sizeof(name), "%s", optarg);
				break;
			case OPT_IDLE:
				if (strcmp(optarg, "0") == 0)
					wc.idle_ns = 0;
				else if ((wc.idle_ns = recipe_parse_duration_ns(optarg)) <= 0)
					return cmd_usage_error(
						&cmd_worker,
						"invalid duration \"%s\" (want e.g. 30s, 10min, 0)",
						optarg);
				break;
			case OPT_SHARES:
				if (!cmd_parse_count(optarg, 1000000, &wc.max_shares))
					return cmd_usage_error(&cmd_worker,
										   "invalid number of shares \"%s\"",
										   optarg);
				break;
			case OPT_ALLOW_SHELL:
				wc.allow_shell = true;
				break;
			case OPT_ALLOW_HOST:
				if (optarg[0] == '\0' || strchr(optarg, ',') != NULL)
					return cmd_usage_error(&cmd_worker,
										   "--allow-host takes one host, "
										   "not \"%s\"",
										   optarg);
				if (nallow == MAX_ALLOW_HOSTS)
					return cmd_usage_error(&cmd_worker,
										   "at most %d --allow-host",
										   MAX_ALLOW_HOSTS);
				allow[nallow++] = optarg;
				break;
			case CMD_OPT_KEY_FILE:
				key_file = optarg;
				break;
			case CMD_OPT_DB:
				db = optarg;
				break;
			default:
				return cmd_option_error(&cmd_worker, ch, argv);
		}
	}
	if (optind < argc)
		return cmd_usage_error(&cmd_worker, "unexpected argument \"%s\"",
							   argv[optind]);
	if ((key_file = cmd_key_file(key_file)) == NULL)
		return cmd_usage_error(&cmd_worker,
							   "a worker needs --key-file (or "
							   "PGCLIFF_KEY_FILE): it runs only work signed "
							   "with the secret it shares with the run");
	if (name[0] == '\0')
	{
		char host[256];

		if (gethostname(host, sizeof(host)) != 0)
			snprintf(host, sizeof(host), "%s", "localhost");
		host[sizeof(host) - 1] = '\0';
		snprintf(name, sizeof(name), "%s.%ld", host, (long) getpid());
	}
	cmd_install_signals();
	cmd_ctx_init(&ctx, &cmd_worker, db);
	if (wire_key_load(key_file, &key, &ctx.err) < 0 ||
		(wc.store = cmd_open_store(&ctx, true)) == NULL)
		return cmd_ctx_finish(&ctx);
	if (!store_can_coordinate(wc.store))
	{
		error_set(&ctx.err, PGC_ERR_USAGE,
				  "a worker needs a PostgreSQL store, not %s",
				  store_name(wc.store));
		error_hint(&ctx.err, "give the --db postgresql://... of the run");
		return cmd_ctx_finish(&ctx);
	}
	/* the store's own host, as its connection reached it */
	if (store_host(wc.store))
		allow[nallow++] = store_host(wc.store);
	if (store_hostaddr(wc.store))
		allow[nallow++] = store_hostaddr(wc.store);
	wc.key = &key;
	wc.allow.host = allow;
	wc.allow.n = nallow;
	wc.name = name;
	wc.interrupt = &cmd_interrupted;
	wc.on_event = on_worker_event;
	wc.event_arg = name;
	printf("%s: waiting for work in %s\n", name, store_name(wc.store));
	fflush(stdout);
	if (fleet_serve(&wc, &shares, &ctx.err) == 0)
		printf("%s: %d share%s measured, %s\n", name, shares,
			   shares == 1 ? "" : "s",
			   wc.max_shares && shares >= wc.max_shares ? "done" : "idle");
	return cmd_ctx_finish(&ctx);
}
