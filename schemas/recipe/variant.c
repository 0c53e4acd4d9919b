/*
 * variant.c - editing a recipe's variants: setting a variant's GUCs and
 * defines, copying it, and resolving a run's variants (the recipe's, then
 * --variant NAME:KEY=VALUE over them, then the recipe's server: under
 * each); see recipe.h.  The one place a variant is applied to a recipe.
 */
#include "recipe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ------------------------------------------------------ one variant */

void
variant_set_guc(struct variant *v, const char *name, const char *value,
				const char *file, struct recipe_pos pos, bool from_variant)
{
	struct variant_guc *g = NULL;

	for (int i = 0; i < v->ngucs; i++)
		if (strcasecmp(v->gucs[i].name, name) == 0)
			g = &v->gucs[i];
	if (g == NULL)
	{
		v->gucs = xrealloc(v->gucs, (size_t) (v->ngucs + 1) * sizeof(*g));
		g = &v->gucs[v->ngucs++];
		g->name = xstrdup(name);
	}
	else
		free(g->value);
	g->value = xstrdup(value);
	g->origin_file = file;
	g->pos = pos;
	g->from_variant = from_variant;
}

void
variant_set_define(struct variant *v, const char *name, const char *value)
{
	struct build_spec *b = &v->spec;
	struct build_define *d = NULL;

	for (int i = 0; i < b->ndefines; i++)
		if (strcmp(b->defines[i].name, name) == 0)
			d = &b->defines[i];
	if (d == NULL)
	{
		b->defines =
			xrealloc(b->defines, (size_t) (b->ndefines + 1) * sizeof(*d));
		d = &b->defines[b->ndefines++];
		d->name = xstrdup(name);
	}
	else
		free(d->value);
	d->value = xstrdup(value);
	v->build = true;
}

static char **
copy_strings(char *const *src, int n)
{
	char **out = xcalloc((size_t) n + 1, sizeof(char *));

	for (int i = 0; i < n; i++)
		out[i] = xstrdup(src[i]);
	return out;
}

void
variant_copy(struct variant *dst, const struct variant *src)
{
	memset(dst, 0, sizeof(*dst));
	dst->name = xstrdup(src->name);
	dst->pos = src->pos;
	dst->bindir = src->bindir ? xstrdup(src->bindir) : NULL;
	dst->target = src->target ? xstrdup(src->target) : NULL;
	for (int i = 0; i < src->ngucs; i++)
		variant_set_guc(dst, src->gucs[i].name, src->gucs[i].value,
						src->gucs[i].origin_file, src->gucs[i].pos,
						src->gucs[i].from_variant);
	dst->build = src->build;
	for (int i = 0; i < src->spec.ndefines; i++)
		variant_set_define(dst, src->spec.defines[i].name,
						   src->spec.defines[i].value);
	dst->spec.patches = copy_strings(src->spec.patches, src->spec.npatches);
	dst->spec.npatches = src->spec.npatches;
	dst->spec.configure =
		copy_strings(src->spec.configure, src->spec.nconfigure);
	dst->spec.nconfigure = src->spec.nconfigure;
	dst->spec.revision =
		src->spec.revision ? xstrdup(src->spec.revision) : NULL;
	dst->build_json = src->build_json ? xstrdup(src->build_json) : NULL;
	dst->profile_hz = src->profile_hz;
}

void
variant_release(struct variant *v)
{
	for (int g = 0; g < v->ngucs; g++)
	{
		free(v->gucs[g].name);
		free(v->gucs[g].value);
	}
	free(v->gucs);
	free(v->name);
	free(v->bindir);
	free(v->target);
	for (int d = 0; d < v->spec.ndefines; d++)
	{
		free(v->spec.defines[d].name);
		free(v->spec.defines[d].value);
	}
	free(v->spec.defines);
	for (int p = 0; p < v->spec.npatches; p++)
		free(v->spec.patches[p]);
	free(v->spec.patches);
	for (int c = 0; c < v->spec.nconfigure; c++)
		free(v->spec.configure[c]);
	free(v->spec.configure);
	free(v->spec.revision);
	free(v->build_json);
	memset(v, 0, sizeof(*v));
}

static struct variant *
find_or_add(struct variant **v, int *n, const char *name, size_t len)
{
	for (int i = 0; i < *n; i++)
		if (strlen((*v)[i].name) == len &&
			strncmp((*v)[i].name, name, len) == 0)
			return &(*v)[i];
	*v = xrealloc(*v, (size_t) (*n + 1) * sizeof(**v));
	memset(&(*v)[*n], 0, sizeof(**v));
	(*v)[*n].name = xstrndup(name, len);
	return &(*v)[(*n)++];
}

static void
add_string(char ***list, int *n, const char *s)
{
	*list = xrealloc(*list, (size_t) (*n + 1) * sizeof(**list));
	(*list)[(*n)++] = xstrdup(s);
}

/* The first LEN bytes of S as a name, by the recipe's rule. */
static bool
variant_name_ok(const char *s, size_t len)
{
	char *name = xstrndup(s, len);
	bool ok = recipe_is_name(name);

	free(name);
	return ok;
}

static int
apply_arg(struct variant **vs, int *n, const char *arg, struct pgc_error *err)
{
	const char *colon = strchr(arg, ':');
	const char *eq;
	struct variant *v;
	struct recipe_pos nopos = {0, 0};

	if (colon == NULL && variant_name_ok(arg, strlen(arg)))
	{
		/* NAME alone: the recipe as it is, under that name */
		find_or_add(vs, n, arg, strlen(arg));
		return 0;
	}
	if (colon == NULL || !variant_name_ok(arg, (size_t) (colon - arg)) ||
		(eq = strchr(colon + 1, '=')) == NULL)
	{
		error_set(err, PGC_ERR_USAGE, "invalid --variant \"%s\"", arg);
		error_hint(err, "want NAME (the recipe as it is), NAME:bindir=DIR, "
						"NAME:target=CONNINFO or NAME:server.SETTING=VALUE");
		return -1;
	}
	v = find_or_add(vs, n, arg, (size_t) (colon - arg));
	if (strncmp(colon + 1, "bindir=", 7) == 0 && eq == colon + 7)
	{
		free(v->bindir);
		v->bindir = xstrdup(eq + 1);
	}
	else if (strncmp(colon + 1, "target=", 7) == 0 && eq == colon + 7)
	{
		free(v->target);
		v->target = xstrdup(eq + 1);
	}
	else if (strncmp(colon + 1, "server.", 7) == 0)
	{
		char *name = xstrndup(colon + 8, (size_t) (eq - colon - 8));

		if (!recipe_guc_name_ok(name))
		{
			error_set(err, PGC_ERR_USAGE,
					  "invalid server setting name \"%s\" in --variant \"%s\"",
					  name, arg);
			free(name);
			return -1;
		}
		if (strpbrk(eq + 1, "\r\n") != NULL)
		{
			error_set(err, PGC_ERR_USAGE,
					  "the value of server setting '%s' in --variant holds a "
					  "line break",
					  name);
			free(name);
			return -1;
		}
		variant_set_guc(v, name, eq + 1, NULL, nopos, true);
		free(name);
	}
	else if (strncmp(colon + 1, "define.", 7) == 0)
	{
		char *name = xstrndup(colon + 8, (size_t) (eq - colon - 8));

		if (!is_c_identifier(name) || eq[1] == '\0')
		{
			error_set(err, PGC_ERR_USAGE,
					  "invalid #define in --variant \"%s\": want "
					  "NAME:define.MACRO=VALUE",
					  arg);
			free(name);
			return -1;
		}
		variant_set_define(v, name, eq + 1);
		free(name);
	}
	else if (strncmp(colon + 1, "patch=", 6) == 0 && eq == colon + 6)
	{
		add_string(&v->spec.patches, &v->spec.npatches, eq + 1);
		v->build = true;
	}
	else if (strncmp(colon + 1, "configure=", 10) == 0 && eq == colon + 10)
	{
		add_string(&v->spec.configure, &v->spec.nconfigure, eq + 1);
		v->build = true;
	}
	else if (strcmp(colon + 1, "build=source") == 0)
		v->build = true;
	else if (strncmp(colon + 1, "revision=", 9) == 0 && eq == colon + 9)
	{
		if (eq[1] == '\0' || eq[1] == '-' || strpbrk(eq + 1, " \t\r\n"))
		{
			error_set(err, PGC_ERR_USAGE,
					  "invalid revision in --variant \"%s\": want a commit, "
					  "a tag or a branch of --source's git checkout",
					  arg);
			return -1;
		}
		free(v->spec.revision);
		v->spec.revision = xstrdup(eq + 1);
		v->build = true;
	}
	else if (strncmp(colon + 1, "profile=", 8) == 0 && eq == colon + 8)
	{
		int hz = recipe_profile_parse(eq + 1);

		if (hz < 0)
		{
			error_set(err, PGC_ERR_USAGE,
					  "invalid profile in --variant \"%s\": want on, off or "
					  "a rate in Hz (1 to 10000)",
					  arg);
			return -1;
		}
		v->profile_hz = hz > 0 ? hz : -1;
	}
	else
	{
		error_set(err, PGC_ERR_USAGE,
				  "unknown variant key in --variant \"%s\"", arg);
		error_hint(err, "keys: bindir, target, server.SETTING, define.MACRO, "
						"patch, configure, build=source, revision, profile");
		return -1;
	}
	if ((v->bindir != NULL) + (v->target != NULL) + v->build > 1)
	{
		error_set(err, PGC_ERR_USAGE,
				  "variant '%s' has more than one of a bindir, a target and "
				  "a build",
				  v->name);
		return -1;
	}
	return 0;
}

int
variants_resolve(const struct recipe *r, char *const *args, int nargs,
				 const char *bindir, const char *target, struct variant **out,
				 struct pgc_error *err)
{
	struct variant *vs = NULL;
	int n = 0;

	/* the recipe's variants first, in their order: --variant amends them */
	if (r->nvariants > 0)
		vs = xcalloc((size_t) r->nvariants, sizeof(*vs));
	for (; n < r->nvariants; n++)
		variant_copy(&vs[n], &r->variants[n]);
	for (int i = 0; i < nargs; i++)
		if (apply_arg(&vs, &n, args[i], err) < 0)
		{
			variants_free(vs, n);
			return -1;
		}
	if (n == 0)
		find_or_add(&vs, &n, "default", 7);

	for (int i = 0; i < n; i++)
	{
		struct variant *v = &vs[i];
		struct variant_guc *own = v->gucs;
		int nown = v->ngucs;

		if (v->bindir == NULL && v->target == NULL && !v->build)
		{
			v->bindir = bindir ? xstrdup(bindir) : NULL;
			v->target = target ? xstrdup(target) : NULL;
		}
		if (v->target && nown > 0)
		{
			error_set(err, PGC_ERR_USAGE,
					  "variant '%s' sets server settings (%s) but runs on an "
					  "external target",
					  v->name, own[0].name);
			error_hint(err, "server settings apply to managed servers only");
			variants_free(vs, n);
			return -1;
		}
		/* the recipe's server: first, the variant's own settings over it */
		v->gucs = NULL;
		v->ngucs = 0;
		for (int g = 0; g < r->ngucs; g++)
			variant_set_guc(v, r->gucs[g].name, r->gucs[g].value, r->path,
							r->gucs[g].pos, false);
		for (int g = 0; g < nown; g++)
		{
			variant_set_guc(v, own[g].name, own[g].value, own[g].origin_file,
							own[g].pos, true);
			free(own[g].name);
			free(own[g].value);
		}
		free(own);
	}
	*out = vs;
	return n;
}

void
variants_free(struct variant *v, int n)
{
	for (int i = 0; i < n; i++)
		variant_release(&v[i]);
	free(v);
}

bool
variants_need_source(const struct variant *vs, int n)
{
	for (int i = 0; i < n; i++)
		if (vs[i].build)
			return true;
	return false;
}

int
variants_check_source(const struct variant *vs, int n, const char *source,
					  struct pgc_error *err)
{
	if (source != NULL)
		return 0;
	for (int i = 0; i < n; i++)
		if (vs[i].build)
		{
			error_set(err, PGC_ERR_USAGE,
					  "variant '%s' is built from source, but no source tree "
					  "is given",
					  vs[i].name);
			error_hint(err, "give --source DIR, or source: in the recipe");
			return -1;
		}
	return 0;
}

int
variants_build(struct variant *vs, int n, const char *source,
			   const struct build_options *o, struct pgc_error *err)
{
	const char *first_revision = NULL;

	for (int i = 0; i < n && first_revision == NULL; i++)
		if (vs[i].build)
			first_revision = vs[i].spec.revision;
	for (int i = 0; i < n; i++)
	{
		struct variant *v = &vs[i];
		struct build_result res;

		if (!v->build)
			continue;
		/* the variant's own spec: what is built is what is stored */
		v->spec.source = source;
		v->spec.name = v->name;
		/* other commits are built over the first's tree: make recompiles
		 * only what differs */
		v->spec.base_revision = v->spec.revision ? first_revision : NULL;
		if (build_ensure(&v->spec, o, &res, err) < 0)
		{
			char msg[sizeof(err->message)];

			snprintf(msg, sizeof(msg), "%s", err->message);
			snprintf(err->message, sizeof(err->message),
					 "variant '%.60s': %.420s", v->name, msg);
			return -1;
		}
		free(v->bindir);
		v->bindir = xstrdup(res.bindir);
		free(v->build_json);
		v->build_json = res.provenance;
		res.provenance = NULL;
		if (o->progress && res.cached)
		{
			char *line = xasprintf("build %s: %s, cached (%s)", v->name,
								   res.key, res.identity);

			o->progress(o->progress_arg, line);
			free(line);
		}
		build_result_free(&res);
	}
	return 0;
}

void
variant_describe_build(const struct variant *v, struct strbuf *out)
{
	const char *sep = "";

	if (!v->build)
		return;
	for (int d = 0; d < v->spec.ndefines; d++, sep = ", ")
		strbuf_addf(out, "%s%s=%s", sep, v->spec.defines[d].name,
					v->spec.defines[d].value);
	for (int p = 0; p < v->spec.npatches; p++, sep = ", ")
		strbuf_addf(out, "%spatch %s", sep, v->spec.patches[p]);
	for (int c = 0; c < v->spec.nconfigure; c++, sep = ", ")
		strbuf_addf(out, "%sconfigure %s", sep, v->spec.configure[c]);
	if (v->spec.revision)
	{
		strbuf_addf(out, "%srevision %s", sep, v->spec.revision);
		sep = ", ";
	}
	if (sep[0] == '\0')
		strbuf_addstr(out, "the source as it is");
}

void
variant_describe_gucs(const struct variant *v, struct strbuf *out)
{
	bool first = true;

	for (int g = 0; g < v->ngucs; g++)
		if (v->gucs[g].from_variant)
		{
			strbuf_addf(out, "%s%s=%s", first ? "" : ", ", v->gucs[g].name,
						v->gucs[g].value);
			first = false;
		}
}
