/*
 * provenance.c - what a run row records besides the recipe: the host, the
 * recipe's hash and the command line with its passwords left out.
 */
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cluster.h"
#include "run.h"
#include "run_int.h"

void
host_facts(struct host_facts *h)
{
	FILE *f;
	char line[512];
	struct utsname u;

	memset(h, 0, sizeof(*h));
	gethostname(h->name, sizeof(h->name) - 1);
	h->cores = (int) sysconf(_SC_NPROCESSORS_ONLN);
	if (uname(&u) == 0)
		snprintf(h->kernel, sizeof(h->kernel), "%s %s", u.sysname, u.release);
	if ((f = fopen("/proc/cpuinfo", "r")) != NULL)
	{
		while (fgets(line, sizeof(line), f))
			if (strncmp(line, "model name", 10) == 0 && strchr(line, ':'))
			{
				char *v = strchr(line, ':') + 1;

				while (*v == ' ')
					v++;
				v[strcspn(v, "\n")] = '\0';
				snprintf(h->cpu, sizeof(h->cpu), "%s", v);
				break;
			}
		fclose(f);
	}
	if ((f = fopen("/proc/meminfo", "r")) != NULL)
	{
		long long kb;

		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "MemTotal: %lld kB", &kb) == 1)
				h->mem_bytes = kb * 1024;
		fclose(f);
	}
}

char *
sha256_hex(const char *text)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int len = 0;
	struct strbuf sb = STRBUF_INIT;

	EVP_Digest(text, strlen(text), md, &len, EVP_sha256(), NULL);
	for (unsigned int i = 0; i < len; i++)
		strbuf_addf(&sb, "%02x", md[i]);
	return strbuf_detach(&sb);
}

/* A conninfo inside an argument, redacted: "PREFIX<conninfo>". */
static char *
redact_after(const char *arg, size_t prefix)
{
	char *r = cluster_redact_conninfo(arg + prefix);
	char *out = xasprintf("%.*s%s", (int) prefix, arg, r);

	free(r);
	return out;
}

char *
run_command_line(int argc, char **argv)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "pgcliff");
	for (int i = 0; i < argc; i++)
	{
		const char *a = argv[i];
		const char *prev = i > 0 ? argv[i - 1] : "";
		char *red = NULL;

		/* both nodes' conninfos: the standby's was once stored whole */
		if (strncmp(a, "--target=primary=", 17) == 0 ||
			strncmp(a, "--target=standby=", 17) == 0)
			a = red = redact_after(a, 17);
		else if ((strncmp(a, "primary=", 8) == 0 ||
				  strncmp(a, "standby=", 8) == 0) &&
				 strcmp(prev, "--target") == 0)
			a = red = redact_after(a, 8);
		/* a PostgreSQL store's conninfo (a file's path stays as it is) */
		else if (strncmp(a, "--db=", 5) == 0 && store_is_shared(a + 5))
			a = red = redact_after(a, 5);
		else if (strcmp(prev, "--db") == 0 && store_is_shared(a))
			a = red = redact_after(a, 0);
		else if (strstr(a, ":target=") != NULL &&
				 (strncmp(a, "--variant=", 10) == 0 ||
				  strcmp(prev, "--variant") == 0))
			a = red =
				redact_after(a, (size_t) (strstr(a, ":target=") + 8 - a));
		strbuf_addch(&sb, ' ');
		if (strpbrk(a, " '\"\\$") || a[0] == '\0')
		{
			strbuf_addch(&sb, '\'');
			for (const char *p = a; *p; p++)
			{
				if (*p == '\'')
					strbuf_addstr(&sb, "'\\''");
				else
					strbuf_addch(&sb, *p);
			}
			strbuf_addch(&sb, '\'');
		}
		else
			strbuf_addstr(&sb, a);
		free(red);
	}
	return strbuf_detach(&sb);
}
