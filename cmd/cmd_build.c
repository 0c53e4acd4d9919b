/*
 * cmd_build.c - `pgcliff build`: PostgreSQL from a source tree, with
 * #define overrides and patches, into the build cache (drivers/pgbuild).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "cmd.h"

static int build_fn(int argc, char **argv);

enum
{
	OPT_CONFIGURE_OPT = 256,
	OPT_CACHE,
	OPT_JSON,
	OPT_OVER
};

static const struct cmd_opt build_opts[] = {
	CMD_OPT('s', "source", "DIR", "<dir>", "the source tree (required)"),
	CMD_OPT('D', "define", "NAME=VALUE", NULL,
			"rewrite the one `#define NAME value` of the\n"
			"tree's .c and .h files (repeatable); an\n"
			"error names every place when NAME is\n"
			"defined nowhere or more than once"),
	CMD_OPT('p', "patch", "FILE", "<file>",
			"apply FILE with patch -p1, in order\n"
			"(repeatable); an error names the hunk that\n"
			"does not apply"),
	CMD_OPT(OPT_CONFIGURE_OPT, "configure-opt", "OPT", NULL,
			"pass OPT to configure (repeatable); pgcliff\n"
			"adds --enable-depend and chooses --prefix"),
	CMD_OPT('r', "revision", "REV", NULL,
			"build commit REV of the git checkout DIR\n"
			"(keyed by its tree), not its work tree"),
	CMD_OPT(OPT_OVER, "over", "BASE", NULL,
			"with --revision: start from the build of\n"
			"commit BASE (built first if need be) and\n"
			"replace the files that differ, so make\n"
			"recompiles only what they touch"),
	CMD_OPT('n', "name", "NAME", NULL,
			"a name for the build: progress lines and\n"
			"CACHE/names/NAME, a link to it"),
	CMD_OPT(OPT_CACHE, "cache", "DIR", "<dir>",
			"the build cache (default\n"
			"$PGCLIFF_BUILD_CACHE, else\n"
			"/var/cache/pgcliff/builds for root, else\n"
			"$XDG_CACHE_HOME or ~/.cache + /pgcliff/builds)"),
	CMD_OPT('j', "jobs", "N", NULL, "make -jN (default: the online CPUs)"),
	CMD_OPT(OPT_JSON, "json", NULL, NULL,
			"print the build's provenance (JSON)"),
	CMD_OPT_END};

const struct cmd cmd_build = {
	.name = "build",
	.summary = "build PostgreSQL from source, with #define overrides and "
			   "patches",
	.synopsis = "--source DIR [OPTIONS]",
	.about =
		"Builds the PostgreSQL source tree DIR (a git checkout or an unpacked\n"
		"release, such as `apt-get source postgresql-15`) into the build cache\n"
		"and prints where it is installed.  The build's key hashes the tree\n"
		"(git commit and uncommitted changes, or version and contents), the\n"
		"defines, the patches and the configure options: asking again is\n"
		"instant.  A variant with defines or patches starts from a copy of\n"
		"the plain build's tree, so make recompiles only what changed.\n"
		"Progress goes to stderr, one line per step; every step's output to\n"
		"the build's log.\n",
	.opts = build_opts,
	.exits =
		"exit codes: 0 built or found built, 64 usage, 65 a define not found\n"
		"exactly once or a patch that does not apply, 69 configure or make\n"
		"failed (the log's last lines are shown), 70 cache I/O, 75\n"
		"interrupted.\n",
	.fn = build_fn,
};

/* Split "NAME=VALUE" into a new define; false when malformed. */
static bool
parse_define(const char *arg, struct build_define *d)
{
	const char *eq = strchr(arg, '=');

	if (eq == NULL || eq == arg)
		return false;
	d->name = xstrndup(arg, (size_t) (eq - arg));
	d->value = xstrdup(eq + 1);
	return true;
}

static int
build_fn(int argc, char **argv)
{
	struct build_spec spec;
	struct build_options o;
	struct build_result res;
	struct build_define *defs = NULL;
	char **patches = NULL, **conf = NULL;
	int ndefs = 0, npatches = 0, nconf = 0;
	bool json = false;
	struct cmd_ctx ctx;
	int ch, rc = EXIT_OK;

	if (cmd_wants_help(&cmd_build, argc, argv))
		return EXIT_OK;
	memset(&spec, 0, sizeof(spec));
	memset(&o, 0, sizeof(o));
	while ((ch = cmd_getopt(&cmd_build, argc, argv)) != -1)
	{
		switch (ch)
		{
			case 's':
				spec.source = optarg;
				break;
			case 'D':
				defs = xrealloc(defs, (size_t) (ndefs + 1) * sizeof(*defs));
				if (!parse_define(optarg, &defs[ndefs]))
				{
					rc = cmd_usage_error(&cmd_build,
										 "invalid --define \"%s\": want "
										 "NAME=VALUE",
										 optarg);
					goto out;
				}
				ndefs++;
				break;
			case 'p':
				patches = xrealloc(patches,
								   (size_t) (npatches + 1) * sizeof(*patches));
				patches[npatches++] = optarg;
				break;
			case OPT_CONFIGURE_OPT:
				conf = xrealloc(conf, (size_t) (nconf + 1) * sizeof(*conf));
				conf[nconf++] = optarg;
				break;
			case 'n':
				spec.name = optarg;
				break;
			case OPT_CACHE:
				o.cache_dir = optarg;
				break;
			case 'j':
				if (!cmd_parse_count(optarg, 1024, &o.jobs))
				{
					rc = cmd_usage_error(&cmd_build, "invalid --jobs \"%s\"",
										 optarg);
					goto out;
				}
				break;
			case OPT_JSON:
				json = true;
				break;
			case 'r':
				spec.revision = optarg;
				break;
			case OPT_OVER:
				spec.base_revision = optarg;
				break;
			default:
				rc = cmd_option_error(&cmd_build, ch, argv);
				goto out;
		}
	}
	if (optind < argc)
	{
		rc = cmd_usage_error(&cmd_build, "unexpected argument \"%s\"",
							 argv[optind]);
		goto out;
	}
	if (spec.source == NULL)
	{
		rc = cmd_usage_error(&cmd_build, "--source DIR is required");
		goto out;
	}
	if (spec.base_revision && spec.revision == NULL)
	{
		rc = cmd_usage_error(&cmd_build, "--over goes with --revision");
		goto out;
	}
	spec.defines = defs;
	spec.ndefines = ndefs;
	spec.patches = patches;
	spec.npatches = npatches;
	spec.configure = conf;
	spec.nconfigure = nconf;
	o.progress = cmd_progress_line;
	o.interrupted = &cmd_interrupted;
	cmd_install_signals();
	cmd_ctx_init(&ctx, &cmd_build, NULL);
	if (build_ensure(&spec, &o, &res, &ctx.err) < 0)
	{
		rc = cmd_ctx_finish(&ctx);
		goto out;
	}
	if (json)
		fputs(res.provenance, stdout);
	else
	{
		printf("build %s%s%s\n", res.key, spec.name ? " " : "",
			   spec.name ? spec.name : "");
		if (res.cached)
			printf("  status:  cached\n");
		else
			printf("  status:  built in %.1f s%s\n", res.seconds,
				   res.incremental ? " (incremental, from the plain build's "
									 "tree)"
								   : "");
		printf("  source:  %s\n", res.identity);
		for (int i = 0; i < ndefs; i++)
			printf("  define:  %s=%s\n", defs[i].name, defs[i].value);
		for (int i = 0; i < npatches; i++)
			printf("  patch:   %s\n", patches[i]);
		printf("  bindir:  %s\n", res.bindir);
		printf("  log:     %s\n", res.log_path);
	}
	build_result_free(&res);
out:
	for (int i = 0; i < ndefs; i++)
	{
		free(defs[i].name);
		free(defs[i].value);
	}
	free(defs);
	free(patches);
	free(conf);
	return rc;
}
