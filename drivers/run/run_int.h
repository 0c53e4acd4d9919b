/*
 * run_int.h - private to drivers/run: the provenance a run row records
 * (host facts, the recipe's hash) and the one way run/ turns a jansson
 * value into stored text.
 */
#ifndef PGCLIFF_RUN_INT_H
#define PGCLIFF_RUN_INT_H

#include <jansson.h>
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

/*
 * J as compact one-line JSON text ({"a": 1, "b": [2]}, keys in insertion
 * order), and J released; caller frees the text.
 */
char *json_text(json_t *j);

#endif /* PGCLIFF_RUN_INT_H */
