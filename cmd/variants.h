/*
 * variants.h - the server variants of one run: the recipe's `variants:`
 * amended by `--variant NAME:KEY=VALUE` options, each resolved to a
 * managed server (bindir + GUCs) or an external conninfo.  Shared by
 * `run` (which starts them) and `recipe explain` (which prints them).
 */
#ifndef PGCLIFF_VARIANTS_H
#define PGCLIFF_VARIANTS_H

#include "base.h"
#include "build.h"
#include "recipe.h"

/* One GUC of a variant: the recipe's, or the variant's over it. */
struct variant_guc
{
	char *name;
	char *value;
	const char *origin_file; /* recipe path, or NULL: the command line */
	struct recipe_pos pos;
	bool from_variant; /* set by the variant, not the recipe's server: */
};

struct variant
{
	char *name;
	char *bindir; /* managed: requested bindir, or NULL for the default */
	char *target; /* external conninfo, or NULL: managed */
	struct variant_guc *gucs;
	int ngucs;
	/* built from source: the recipe's build: and --variant's over it */
	bool build;
	struct build_define *defines;
	int ndefines;
	char **patches;
	int npatches;
	char **configure;
	int nconfigure;
	char *build_json; /* provenance, once built (variants_build) */
};

/*
 * Resolve the variants of a run.  ARGS are the --variant values
 * ("NAME:bindir=DIR", "NAME:target=CONNINFO", "NAME:server.GUC=VALUE",
 * "NAME:define.MACRO=VALUE", "NAME:patch=FILE", "NAME:configure=OPT",
 * "NAME:build=source", or "NAME" alone for the recipe as it is; several
 * may name one variant);
 * they amend the recipe's variant of that name or add one.  With no variants
 * at all there is one, "default". BINDIR and TARGET are --bindir and --target:
 * the defaults of variants that give neither.  Returns the count, or -1
 * (PGC_ERR_USAGE) with ERR.
 */
int variants_resolve(const struct recipe *r, char *const *args, int nargs,
					 const char *bindir, const char *target,
					 struct variant **out, struct pgc_error *err);
void variants_free(struct variant *v, int n);

/*
 * Build (or find built) every variant with a build from SOURCE, and point
 * its bindir at the install.  Progress through O.  -1 with ERR.
 */
int variants_build(struct variant *vs, int n, const char *source,
				   const struct build_options *o, struct pgc_error *err);

/* Whether some variant builds from source. */
bool variants_need_source(const struct variant *vs, int n);

/* The build of V for people: "NUM_XLOGINSERT_LOCKS=64, patch fix.patch". */
void variant_describe_build(const struct variant *v, struct strbuf *out);

/* The GUCs set by the variant itself, "a=1, b=2" (empty when none). */
void variant_describe_gucs(const struct variant *v, struct strbuf *out);

#endif /* PGCLIFF_VARIANTS_H */
