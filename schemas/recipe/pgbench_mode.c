/*
 * pgbench_mode.c - a recipe made from pgbench's own words (-f FILE[@W],
 * -b NAME[@W]), and its text for the store; see recipe.h.
 */
#include "recipe_int.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "profile.h"

/* ------------------------------------------------------- pgbench mode */

static int
emit_write(void *data, unsigned char *buffer, size_t size)
{
	strbuf_add(data, buffer, size);
	return 1;
}

static void
emit_scalar(yaml_emitter_t *e, const char *text)
{
	yaml_event_t ev;

	if (text == NULL)
		text = "";
	yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *) text,
								 (int) strlen(text), 1, 1,
								 YAML_ANY_SCALAR_STYLE);
	yaml_emitter_emit(e, &ev);
}

static void
emit_pair(yaml_emitter_t *e, const char *key, const char *value)
{
	emit_scalar(e, key);
	emit_scalar(e, value);
}

static void
emit_mapping(yaml_emitter_t *e, bool start, bool flow)
{
	yaml_event_t ev;

	if (start)
		yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1,
											flow ? YAML_FLOW_MAPPING_STYLE
												 : YAML_BLOCK_MAPPING_STYLE);
	else
		yaml_mapping_end_event_initialize(&ev);
	yaml_emitter_emit(e, &ev);
}

/*
 * R as the YAML recipe it is equivalent to, written by libyaml's emitter
 * (its quoting, not ours), for the store and for people.
 */
static char *
scripts_recipe_text(const struct recipe *r)
{
	const struct recipe_workload *w = &r->workloads[0];
	yaml_emitter_t e;
	yaml_event_t ev;
	struct strbuf sb = STRBUF_INIT;
	char num[32];

	yaml_emitter_initialize(&e);
	yaml_emitter_set_output(&e, emit_write, &sb);
	yaml_emitter_set_unicode(&e, 1);
	yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
	yaml_emitter_emit(&e, &ev);
	yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1);
	yaml_emitter_emit(&e, &ev);
	emit_mapping(&e, true, false);
	emit_pair(&e, "recipe", r->name);
	emit_pair(&e, "description", r->description);
	if (r->duration_ns)
	{
		snprintf(num, sizeof(num), "%" PRId64 "us", r->duration_ns / 1000);
		emit_pair(&e, "duration", num);
	}
	if (r->has_init)
	{
		emit_scalar(&e, "init");
		emit_mapping(&e, true, true);
		emit_scalar(&e, "pgbench");
		emit_mapping(&e, true, true);
		snprintf(num, sizeof(num), "%d", r->init.scale);
		emit_pair(&e, "scale", num);
		emit_mapping(&e, false, true);
		emit_mapping(&e, false, true);
	}
	emit_pair(&e, "placement", "free");
	emit_scalar(&e, "workloads");
	emit_mapping(&e, true, false);
	emit_scalar(&e, w->name);
	emit_mapping(&e, true, false);
	emit_scalar(&e, "scripts");
	yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
										 YAML_BLOCK_SEQUENCE_STYLE);
	yaml_emitter_emit(&e, &ev);
	for (int k = 0; k < w->nscripts; k++)
	{
		emit_mapping(&e, true, true);
		if (w->scripts[k].builtin)
			emit_pair(&e, "builtin", w->scripts[k].builtin);
		else
			emit_pair(&e, "file", w->scripts[k].file);
		snprintf(num, sizeof(num), "%d", w->scripts[k].weight);
		emit_pair(&e, "weight", num);
		emit_mapping(&e, false, true);
	}
	yaml_sequence_end_event_initialize(&ev);
	yaml_emitter_emit(&e, &ev);
	if (w->transactions)
	{
		snprintf(num, sizeof(num), "%" PRId64, w->transactions);
		emit_pair(&e, "transactions", num);
	}
	emit_mapping(&e, false, false); /* the workload */
	emit_mapping(&e, false, false); /* workloads */
	emit_scalar(&e, "sweep");
	emit_mapping(&e, true, true);
	emit_scalar(&e, "clients");
	yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
										 YAML_FLOW_SEQUENCE_STYLE);
	yaml_emitter_emit(&e, &ev);
	emit_scalar(&e, "1");
	yaml_sequence_end_event_initialize(&ev);
	yaml_emitter_emit(&e, &ev);
	emit_pair(&e, "jobs", "1");
	emit_mapping(&e, false, true);
	emit_mapping(&e, false, false); /* the root */
	yaml_document_end_event_initialize(&ev, 1);
	yaml_emitter_emit(&e, &ev);
	yaml_stream_end_event_initialize(&ev);
	yaml_emitter_emit(&e, &ev);
	yaml_emitter_delete(&e);
	return strbuf_detach(&sb);
}

/* A recipe name from a script's file name: letters, digits, _ and -. */
static char *
name_of_script(const char *arg)
{
	const char *base = strrchr(arg, '/') ? strrchr(arg, '/') + 1 : arg;
	struct strbuf sb = STRBUF_INIT;

	if (!isalpha((unsigned char) base[0]) && base[0] != '_')
		strbuf_addstr(&sb, "s_");
	for (; *base && *base != '.' && sb.len < 63; base++)
		strbuf_addch(
			&sb, isalnum((unsigned char) *base) || *base == '-' ? *base : '_');
	if (sb.len == 0 || strcmp(sb.buf, "s_") == 0)
	{
		strbuf_release(&sb);
		return xstrdup("script");
	}
	return strbuf_detach(&sb);
}

/* Script K of W from ARG: a builtin by name, or a file read whole. */
static int
script_of_arg(struct recipe_workload *w, int k,
			  const struct recipe_script_arg *arg, struct pgc_error *err)
{
	struct recipe_script *rs = &w->scripts[k];
	struct script_origin origin;
	char *text = NULL;
	const char *src;

	memset(&origin, 0, sizeof(origin));
	origin.first_line = 1;
	rs->weight = arg->weight;
	if (arg->builtin)
	{
		int nfound;
		const struct script_builtin *b =
			script_builtin_find(arg->builtin, &nfound);

		if (b == NULL)
		{
			if (nfound)
				error_set(err, PGC_ERR_USAGE,
						  "ambiguous builtin name: %d builtin scripts found "
						  "for prefix \"%s\"",
						  nfound, arg->builtin);
			else
				error_set(err, PGC_ERR_USAGE,
						  "no builtin script found for name \"%s\"",
						  arg->builtin);
			error_hint(err, "the builtins: tpcb-like, simple-update, "
							"select-only");
			return -1;
		}
		rs->builtin = xstrdup(b->name);
		rs->label = xstrdup(b->desc);
		origin.file = b->desc;
		src = b->text;
	}
	else
	{
		if ((rs->file = realpath(arg->file, NULL)) == NULL)
		{
			error_set(err, PGC_ERR_RECIPE, "could not open script \"%s\": %s",
					  arg->file, strerror(errno));
			return -1;
		}
		if ((text = read_script_file(rs->file, arg->file, err)) == NULL)
		{
			err->kind = PGC_ERR_RECIPE;
			return -1;
		}
		rs->label = xstrdup(rs->file);
		origin.file = rs->file;
		/* a UTF-8 byte order mark is no SQL: pgbench would send it */
		src = strncmp(text, "\xEF\xBB\xBF", 3) == 0 ? text + 3 : text;
	}
	rs->script = script_parse_next(k ? w->scripts[k - 1].script : NULL, k,
								   w->name, src, &origin, err);
	free(text);
	return rs->script ? 0 : -1;
}

struct recipe *
recipe_from_scripts(const struct recipe_script_arg *args, int n,
					int64_t duration_ns, int64_t transactions, int init_scale,
					struct pgc_error *err)
{
	struct recipe *r = xcalloc(1, sizeof(*r));
	struct recipe_workload *w;

	r->name = name_of_script(args[0].file ? args[0].file : args[0].builtin);
	r->description = xstrdup("pgcliff run -f/-b");
	r->topology = RECIPE_TOPO_PRIMARY;
	r->repeat = 1;
	r->restart_per_block = true;
	/* pgbench's habit: the scheduler places the processes */
	r->has_placement = true;
	r->placement.mode = PLACEMENT_FREE;
	r->duration_ns = duration_ns;
	if (init_scale > 0)
	{
		r->has_init = true;
		r->init.pgbench = true;
		r->init.scale = init_scale;
		r->init.partition_method = xstrdup("range");
	}
	r->workloads = w = xcalloc(1, sizeof(*w));
	r->nworkloads = 1;
	w->name = xstrdup(r->name);
	w->target = xstrdup("primary");
	w->protocol = RECIPE_PROTO_SIMPLE;
	w->clients = 1;
	w->jobs = 1;
	w->swept = true;
	/* pgbench's default: 10 transactions per client without -T */
	w->transactions = duration_ns ? 0 : (transactions ? transactions : 10);
	w->scripts = xcalloc((size_t) n, sizeof(*w->scripts));
	for (int k = 0; k < n; k++, w->nscripts++)
		if (script_of_arg(w, k, &args[k], err) < 0)
		{
			w->nscripts++; /* freed with the rest */
			recipe_free(r);
			return NULL;
		}
	/* pgbench's defaults: one client on one thread; -c and -j apply */
	r->sweep_clients = xcalloc(1, sizeof(int));
	r->sweep_clients[0] = 1;
	r->nsweep_clients = 1;
	r->sweep_jobs = 1;
	r->measure_workload = xstrdup(w->name);
	r->measure_metric = xstrdup("tps");
	/* the last file names the recipe in errors and the store, as before */
	for (int k = 0; k < n; k++)
		if (w->scripts[k].file)
		{
			free(r->path);
			r->path = xstrdup(w->scripts[k].file);
		}
	if (r->path == NULL)
		r->path = xstrdup("(pgcliff run -b)");
	r->text = scripts_recipe_text(r);
	return r;
}
