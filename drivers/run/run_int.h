/*
 * run_int.h - private to drivers/run: the provenance a run row records
 * (host facts, the recipe's hash) and the one way run/ turns a jansson
 * value into stored text.
 */
#ifndef PGCLIFF_RUN_INT_H
#define PGCLIFF_RUN_INT_H

#include "pjson.h"
#include <stdint.h>

struct host_facts
{
	char name[256];
	char cpu[256];
	int cores;
	int64_t mem_bytes;
	char kernel[256];
};

/* The machine: host name, CPU model, online cores, memory, kernel. */
void host_facts(struct host_facts *h);

/* SHA-256 of TEXT as 64 hex digits; caller frees. */
char *sha256_hex(const char *text);

/* J as one line of JSON ({"a": 1, "b": [2]}), released; caller frees. */
#define json_text(j) pjson_text((j), JSON_REAL_PRECISION(15))

#endif /* PGCLIFF_RUN_INT_H */
