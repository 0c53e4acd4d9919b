/*
 * variants.h - the server variants of one run: the recipe's `variants:`
 * amended by `--variant NAME:KEY=VALUE` options, each resolved to a
 * managed server (bindir + GUCs) or an external conninfo.  Shared by
 * `run` (which starts them) and `recipe explain` (which prints them).
 */
#ifndef PGCLIFF_VARIANTS_H
#define PGCLIFF_VARIANTS_H

#include "base.h"
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
};

/*
 * Resolve the variants of a run.  ARGS are the --variant values
 * ("NAME:bindir=DIR", "NAME:target=CONNINFO", "NAME:server.GUC=VALUE", or
 * "NAME" alone for the recipe as it is; several may name one variant);
 * they amend the recipe's variant of that name or add one.  With no variants
 * at all there is one, "default". BINDIR and TARGET are --bindir and --target:
 * the defaults of variants that give neither.  Returns the count, or -1
 * (PGC_ERR_USAGE) with ERR.
 */
int variants_resolve(const struct recipe *r, char *const *args, int nargs,
					 const char *bindir, const char *target,
					 struct variant **out, struct pgc_error *err);
void variants_free(struct variant *v, int n);

/* The GUCs set by the variant itself, "a=1, b=2" (empty when none). */
void variant_describe_gucs(const struct variant *v, struct strbuf *out);

#endif /* PGCLIFF_VARIANTS_H */
