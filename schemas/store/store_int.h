/*
 * store_int.h - the store handle, shared by the files of schemas/store
 * (store.c: runs and their rows; work.c: work for several drivers).
 * Internal: no other module sees it.
 */
#ifndef PGCLIFF_STORE_INT_H
#define PGCLIFF_STORE_INT_H

#include "base.h"
#include "store.h"

struct sql;

struct store
{
	struct sql *db;
	char *path; /* what messages name: never a password */
};

/* ERR: "WHAT: the store's last error", the store named in its detail. */
int db_fail(struct store *st, struct pgc_error *err, const char *what);

#endif /* PGCLIFF_STORE_INT_H */
