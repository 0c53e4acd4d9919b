/*
 * fuzz_recipe.c - fuzz target for the YAML recipe loader (and, through
 * it, the script parser): any input must load or fail with a positioned
 * error, never crash, leak or hang.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "recipe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct pgc_error err;
	struct recipe *r;

	memcpy(text, data, size);
	text[size] = '\0';
	error_clear(&err);
	r = recipe_load_text("fuzz.yaml", text, &err);
	if (r == NULL && (err.kind == PGC_ERR_NONE || err.message[0] == '\0'))
		abort(); /* a failure must say why */
	recipe_free(r);
	free(text);
	return 0;
}
