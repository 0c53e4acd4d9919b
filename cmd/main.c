/*
 * main.c - pgcliff's entry point: one sorted command table, exact-match
 * lookup, "did you mean" on a miss, and `help` generated from the table.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "describe.h"
#include "store.h"

static int help_fn(int argc, char **argv);

enum
{
	OPT_MAN = 256,
	OPT_COMPLETION
};

static const struct cmd_opt help_opts[] = {
	CMD_OPT(OPT_MAN, "man", "DIR", "<dir>",
			"write the man pages into DIR: pgcliff.1 and\n"
			"pgcliff-COMMAND.1 for each command"),
	CMD_OPT(OPT_COMPLETION, "completion", "SHELL", "bash zsh",
			"print the completion script of bash or zsh:\n"
			"source <(pgcliff help --completion bash)"),
	CMD_OPT_END};

static const struct cmd cmd_help = {
	.name = "help",
	.summary = "show the commands, or one command's options",
	.synopsis = "[COMMAND]\n--man DIR | --completion bash|zsh",
	.about = "Without COMMAND, the commands, the store and the exit codes;\n"
			 "with one, its options (as COMMAND --help prints them).  The\n"
			 "man pages and the completions are made from the same tables.\n",
	.opts = help_opts,
	.exits = "exit codes: 0 ok, 64 usage (an unknown command or shell),\n"
			 "70 a man page that cannot be written.\n",
	.fn = help_fn,
};

/* sorted by name; `help` lists them in this order */
static const struct cmd *const commands[] = {
	&cmd_bisect,         &cmd_build,  &cmd_compare, &cmd_export,
	&cmd_gate,           &cmd_help,   &cmd_history, &cmd_init,
	&cmd_list,           &cmd_pull,   &cmd_push,    &cmd_recipe_check,
	&cmd_recipe_explain, &cmd_report, &cmd_run,     &cmd_show,
	&cmd_worker,
};

static const char exit_codes[] =
	"exit codes:\n"
	"  0   success (gate: no regression)\n"
	"  1   gate (or compare --check): regression\n"
	"  2   gate (or compare --check): inconclusive\n"
	"  64  usage error (bad command line)\n"
	"  65  invalid recipe or script, the server rejected the recipe's SQL,\n"
	"      or no such store, run, variant or stored points\n"
	"  69  PostgreSQL or the managed cluster unavailable\n"
	"  70  internal error or store failure\n"
	"  75  run aborted or interrupted (partial results stored)\n";

/* what the overview says after the commands; the man page's too */
static const char store_text[] =
	"store: the commands that keep or read runs take --db STORE (else "
	"$PGCLIFF_DB): an SQLite file\n"
	"(default ~/.local/share/pgcliff/pgcliff.db), or a PostgreSQL database "
	"shared\n"
	"by several machines, as a postgresql:// URI or a conninfo "
	"(\"host=H dbname=D\").\n"
	"A locked SQLite store is waited for 30 s ($PGCLIFF_STORE_TIMEOUT).\n";

static void
print_overview(FILE *f)
{
	fprintf(
		f,
		"pgcliff %s - run PostgreSQL benchmark recipes, keep every result\n\n",
		PGCLIFF_VERSION);
	fprintf(f, "usage: pgcliff COMMAND [OPTIONS]\n\ncommands:\n");
	for (size_t i = 0; i < lengthof(commands); i++)
		fprintf(f, "  %-14s %s\n", commands[i]->name, commands[i]->summary);
	fprintf(f,
			"\n'pgcliff COMMAND --help' shows a command's options.\n\n%s\n%s",
			store_text, exit_codes);
}

static const struct cmd *
find_command(const char *name)
{
	for (size_t i = 0; i < lengthof(commands); i++)
		if (strcmp(commands[i]->name, name) == 0)
			return commands[i];
	return NULL;
}

static void
suggest(const char *name)
{
	const char *names[lengthof(commands) + 1];
	const char *near;

	for (size_t i = 0; i < lengthof(commands); i++)
		names[i] = commands[i]->name;
	names[lengthof(commands)] = NULL;
	near = nearest_word(name, names);
	fprintf(stderr, "pgcliff: unknown command '%s'\n", name);
	if (near)
		fprintf(stderr, "hint: did you mean '%s'?\n", near);
	else
		fprintf(stderr, "hint: 'pgcliff help' lists the commands\n");
}

/* pgcliff help --man DIR, --completion SHELL */
static int
help_generate(int argc, char **argv)
{
	int ch;

	while ((ch = cmd_getopt(&cmd_help, argc, argv)) != -1)
	{
		switch (ch)
		{
			case OPT_MAN:
			{
				if (cmd_write_man(optarg, commands, lengthof(commands),
								  PGCLIFF_VERSION, store_text, exit_codes) < 0)
				{
					fprintf(stderr,
							"pgcliff help: cannot write the man pages "
							"into %s: %s\n",
							optarg, strerror(errno));
					return EXIT_SOFTWARE;
				}
				return EXIT_OK;
			}
			case OPT_COMPLETION:
				if (cmd_write_completion(stdout, optarg, commands,
										 lengthof(commands)) < 0)
					return cmd_usage_error(&cmd_help,
										   "no completion for \"%s\" (bash "
										   "or zsh)",
										   optarg);
				return fflush(stdout) == 0 ? EXIT_OK : EXIT_SOFTWARE;
			default:
				return cmd_option_error(&cmd_help, ch, argv);
		}
	}
	return -1;
}

static int
help_fn(int argc, char **argv)
{
	const struct cmd *c;
	char name[128];
	int rc;

	if (argc >= 2 && argv[1][0] == '-')
	{
		if (cmd_wants_help(&cmd_help, argc, argv))
			return EXIT_OK;
		if ((rc = help_generate(argc, argv)) >= 0)
			return rc;
		return cmd_usage_error(&cmd_help, "--man DIR or --completion SHELL");
	}
	if (argc < 2)
	{
		print_overview(stdout);
		return EXIT_OK;
	}
	if (argc >= 3)
		snprintf(name, sizeof(name), "%s %s", argv[1], argv[2]);
	else
		snprintf(name, sizeof(name), "%s", argv[1]);
	c = find_command(name);
	if (c == NULL && argc >= 3)
		c = find_command(argv[1]);
	if (c == NULL)
	{
		suggest(argv[1]);
		return EXIT_USAGE;
	}
	cmd_print_usage(c, stdout);
	return EXIT_OK;
}

/*
 * The arguments for the command, copied; then every password in the
 * process's own arguments is overwritten, so that ps and /proc/PID/cmdline
 * no longer show one given in a conninfo or URI.  The copy lives as long
 * as the process.
 */
static char **arg_copy; /* reachable to the end: not a leak */

static char **
hide_passwords(int argc, char **argv)
{
	arg_copy = xcalloc((size_t) argc + 1, sizeof(char *));
	for (int i = 0; i < argc; i++)
	{
		arg_copy[i] = xstrdup(argv[i]);
		conninfo_mask_passwords(argv[i]);
	}
	return arg_copy;
}

int
main(int argc, char **argv)
{
	const struct cmd *c;
	char name[128];
	int shift = 1;

	cmd_filter_output();
	if (argc < 2)
	{
		print_overview(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0)
	{
		struct strbuf sb = STRBUF_INIT;

		store_versions(&sb);
		printf("pgcliff %s (%s)\n%s\n", PGCLIFF_VERSION, PGCLIFF_GIT_DESCRIBE,
			   sb.buf);
		strbuf_release(&sb);
		return EXIT_OK;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
		strcmp(argv[1], "-?") == 0)
	{
		print_overview(stdout);
		return EXIT_OK;
	}
	/* two-word commands: "recipe check" */
	c = NULL;
	if (argc >= 3)
	{
		snprintf(name, sizeof(name), "%s %s", argv[1], argv[2]);
		c = find_command(name);
		if (c)
			shift = 2;
	}
	if (c == NULL)
		c = find_command(argv[1]);
	if (c == NULL)
	{
		size_t len = strlen(argv[1]);
		struct strbuf subs = STRBUF_INIT;

		/* a group's name alone ("recipe"): its subcommands, from the table */
		for (size_t i = 0; i < lengthof(commands); i++)
			if (strncmp(commands[i]->name, argv[1], len) == 0 &&
				commands[i]->name[len] == ' ')
				strbuf_addf(&subs, "%s%s", subs.len ? ", " : "",
							commands[i]->name + len + 1);
		if (subs.len)
		{
			fprintf(stderr, "pgcliff %s: expected a subcommand: %s\n", argv[1],
					subs.buf);
			strbuf_release(&subs);
			return EXIT_USAGE;
		}
		suggest(argv[1]);
		return EXIT_USAGE;
	}
	/* the command sees argv[0] = its name, like a program of its own */
	return c->fn(argc - shift, hide_passwords(argc, argv) + shift);
}
