/*
 * opt.c - the option tables of opt.h made into getopt_long()'s arrays, a
 * command's --help, its man page and the shell completions.  Everything
 * a user reads about an option comes from its one entry.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd.h"
#include "opt.h"

/* the column where an option's help starts in --help */
#define HELP_COL 26

static bool
is_option(const struct cmd_opt *o)
{
	return o->kind == CMD_OPTION && o->name != NULL;
}

static bool
has_short(const struct cmd_opt *o)
{
	return o->id > 0 && o->id < 128 && isalnum(o->id);
}

/* --- parsing */

static const struct cmd *parsed_cmd;
static char **parsed_argv;
static struct option *longopts; /* reachable to the end: not a leak */
static char optstring[128];

static void
build_getopt(const struct cmd *c)
{
	size_t n = 0, k = 0, s = 0;

	if (c->opts)
		for (const struct cmd_opt *o = c->opts; o->id != 0; o++)
			n++;
	free(longopts);
	longopts = xcalloc(n + 1, sizeof(*longopts));
	optstring[s++] = ':'; /* ':' for a missing value, '?' for unknown */
	if (c->opts)
		for (const struct cmd_opt *o = c->opts; o->id != 0; o++)
		{
			if (!is_option(o))
				continue;
			longopts[k].name = o->name;
			longopts[k].has_arg = o->arg ? required_argument : no_argument;
			longopts[k].val = o->id;
			k++;
			if (has_short(o) && s + 3 < sizeof(optstring))
			{
				optstring[s++] = (char) o->id;
				if (o->arg)
					optstring[s++] = ':';
			}
		}
	optstring[s] = '\0';
}

int
cmd_getopt(const struct cmd *c, int argc, char **argv)
{
	if (c != parsed_cmd || argv != parsed_argv)
	{
		build_getopt(c);
		parsed_cmd = c;
		parsed_argv = argv;
		optind = 1;
		opterr = 0;
	}
	return getopt_long(argc, argv, optstring, longopts, NULL);
}

const struct cmd_opt *
cmd_find_opt(const struct cmd *c, int id)
{
	if (c->opts)
		for (const struct cmd_opt *o = c->opts; o->id != 0; o++)
			if (is_option(o) && o->id == id)
				return o;
	return NULL;
}

/* --- --help */

/* "  -c, --clients LIST" */
static void
option_left(const struct cmd_opt *o, struct strbuf *sb)
{
	if (has_short(o))
		strbuf_addf(sb, "  -%c, --%s", o->id, o->name);
	else
		strbuf_addf(sb, "      --%s", o->name);
	if (o->arg)
		strbuf_addf(sb, " %s", o->arg);
}

/* TEXT's lines, the first after what is on the line, the rest at COL */
static void
print_lines(FILE *f, const char *text, int col)
{
	const char *p = text;

	if (*p == '\0')
		fputc('\n', f); /* no text: the line still ends */
	while (*p)
	{
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t) (nl - p) : strlen(p);

		if (p != text)
			fprintf(f, "%*s", col, "");
		fprintf(f, "%.*s\n", (int) len, p);
		p += len;
		if (*p == '\n')
			p++;
	}
}

static void
print_option(FILE *f, const char *left, const char *help)
{
	int len = (int) strlen(left);

	if (len < HELP_COL)
		fprintf(f, "%s%*s", left, HELP_COL - len, "");
	else
		fprintf(f, "%s\n%*s", left, HELP_COL, "");
	print_lines(f, help, HELP_COL);
}

void
cmd_print_usage(const struct cmd *c, FILE *f)
{
	const char *p = c->synopsis ? c->synopsis : "";
	bool first = true, help_shown = false;

	/* usage: pgcliff NAME SYNOPSIS, one line per form */
	do
	{
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t) (nl - p) : strlen(p);

		fprintf(f, "%s pgcliff %s%s%.*s\n", first ? "usage:" : "      ",
				c->name, len ? " " : "", (int) len, p);
		first = false;
		p = nl ? nl + 1 : p + len;
	} while (*p);
	if (c->about)
		fprintf(f, "\n%s", c->about);
	if (c->opts == NULL || c->opts[0].kind != CMD_HEADING)
		fprintf(f, "\noptions:\n");
	for (const struct cmd_opt *o = c->opts; o && o->id != 0; o++)
	{
		struct strbuf left = STRBUF_INIT;

		switch (o->kind)
		{
			case CMD_HEADING:
				/* the first group ends with --help */
				if (o != c->opts && !help_shown)
				{
					print_option(f, "  -?, --help", "this text");
					help_shown = true;
				}
				fprintf(f, "\n%s\n", o->help);
				break;
			case CMD_TEXT:
				print_lines(f, o->help, 0);
				break;
			case CMD_OPTION:
				option_left(o, &left);
				print_option(f, left.buf, o->help);
				strbuf_release(&left);
				break;
		}
	}
	if (!help_shown)
		print_option(f, "  -?, --help", "this text");
	if (c->exits)
		fprintf(f, "\n%s", c->exits);
}

/* --- man pages */

/*
 * TEXT as troff text: backslashes escaped, a line never starting with a
 * control character, hyphens of options as minus signs.
 */
static void
troff_text(FILE *f, const char *text, size_t len)
{
	bool bol = true;

	for (size_t i = 0; i < len; i++)
	{
		char ch = text[i];

		if (bol && (ch == '.' || ch == '\''))
			fputs("\\&", f);
		bol = false;
		if (ch == '\\')
			fputs("\\e", f);
		else if (ch == '-')
			fputs("\\-", f);
		else
			fputc(ch, f);
		if (ch == '\n')
			bol = true;
	}
}

static void
troff_line(FILE *f, const char *text)
{
	troff_text(f, text, strlen(text));
	fputc('\n', f);
}

/*
 * Paragraphs of TEXT: a blank line starts a new one, lines that start
 * with a space keep their layout (tables, examples), the rest is filled.
 */
static void
troff_paragraphs(FILE *f, const char *text)
{
	const char *p = text;
	bool nofill = false;

	while (*p)
	{
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t) (nl - p) : strlen(p);
		bool indented = len > 0 && p[0] == ' ';

		if (len == 0)
		{
			if (nofill)
				fputs(".fi\n", f);
			nofill = false;
			fputs(".PP\n", f);
		}
		else
		{
			if (indented && !nofill)
				fputs(".nf\n", f);
			else if (!indented && nofill)
				fputs(".fi\n", f);
			nofill = indented;
			troff_text(f, p, len);
			fputc('\n', f);
		}
		p += len;
		if (*p == '\n')
			p++;
	}
	if (nofill)
		fputs(".fi\n", f);
}

static void
troff_option(FILE *f, const struct cmd_opt *o)
{
	fputs(".TP\n", f);
	if (has_short(o))
		fprintf(f, "\\fB\\-%c\\fR, ", o->id);
	fputs("\\fB\\-\\-", f);
	troff_text(f, o->name, strlen(o->name));
	fputs("\\fR", f);
	if (o->arg)
	{
		fputs(" \\fI", f);
		troff_text(f, o->arg, strlen(o->arg));
		fputs("\\fR", f);
	}
	fputc('\n', f);
	troff_paragraphs(f, o->help);
}

/* "recipe check" -> "pgcliff-recipe-check" */
static void
page_name(const struct cmd *c, char *buf, size_t size)
{
	snprintf(buf, size, "pgcliff-%s", c->name);
	for (char *q = buf; *q; q++)
		if (*q == ' ')
			*q = '-';
}

static void
troff_header(FILE *f, const char *name, const char *version)
{
	char upper[128];
	size_t i;

	for (i = 0; name[i] && i + 1 < sizeof(upper); i++)
		upper[i] = (char) toupper((unsigned char) name[i]);
	upper[i] = '\0';
	fputs(".\\\" generated by pgcliff help --man from its option tables\n", f);
	fprintf(f, ".TH \"");
	troff_text(f, upper, strlen(upper));
	fprintf(f, "\" 1 \"\" \"pgcliff %s\" \"pgcliff manual\"\n", version);
	/* ragged right, no hyphens: option names stay whole */
	fputs(".ad l\n.nh\n", f);
}

static int
write_page(const char *dir, const struct cmd *c, const char *version)
{
	char name[128], path[4096];
	FILE *f;
	const char *p;

	page_name(c, name, sizeof(name));
	snprintf(path, sizeof(path), "%s/%s.1", dir, name);
	if ((f = fopen(path, "w")) == NULL)
		return -1;
	troff_header(f, name, version);
	fputs(".SH NAME\n", f);
	troff_text(f, name, strlen(name));
	fputs(" \\- ", f);
	troff_line(f, c->summary);
	fputs(".SH SYNOPSIS\n.nf\n", f);
	p = c->synopsis ? c->synopsis : "";
	do
	{
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t) (nl - p) : strlen(p);

		fprintf(f, "\\fBpgcliff %s\\fR ", c->name);
		troff_text(f, p, len);
		fputc('\n', f);
		p = nl ? nl + 1 : p + len;
	} while (*p);
	fputs(".fi\n", f);
	if (c->about)
	{
		fputs(".SH DESCRIPTION\n", f);
		troff_paragraphs(f, c->about);
	}
	fputs(".SH OPTIONS\n", f);
	{
		for (const struct cmd_opt *o = c->opts; o && o->id != 0; o++)
		{
			if (o->kind == CMD_HEADING)
			{
				fputs(".SS \"", f);
				troff_text(f, o->help, strlen(o->help));
				fputs("\"\n", f);
			}
			else if (o->kind == CMD_TEXT)
			{
				fputs(".PP\n", f);
				troff_paragraphs(f, o->help);
			}
			else
				troff_option(f, o);
		}
		fputs(".TP\n\\fB\\-?\\fR, \\fB\\-\\-help\\fR\nthis text\n", f);
	}
	if (c->exits)
	{
		fputs(".SH \"EXIT STATUS\"\n", f);
		troff_paragraphs(f, c->exits);
	}
	fputs(".SH \"SEE ALSO\"\n\\fBpgcliff\\fR(1)\n", f);
	if (fclose(f) != 0)
		return -1;
	return 0;
}

int
cmd_write_man(const char *dir, const struct cmd *const *commands, size_t n,
			  const char *version, const char *store, const char *exits)
{
	char path[4096];
	FILE *f;

	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		return -1;
	snprintf(path, sizeof(path), "%s/pgcliff.1", dir);
	if ((f = fopen(path, "w")) == NULL)
		return -1;
	troff_header(f, "pgcliff", version);
	fputs(".SH NAME\npgcliff \\- run PostgreSQL benchmark recipes, keep "
		  "every result\n",
		  f);
	fputs(".SH SYNOPSIS\n\\fBpgcliff\\fR \\fICOMMAND\\fR [\\fIOPTIONS\\fR]\n"
		  ".br\n\\fBpgcliff help\\fR [\\fICOMMAND\\fR]\n",
		  f);
	fputs(".SH DESCRIPTION\n"
		  "pgcliff runs benchmark recipes (YAML) against PostgreSQL servers "
		  "it starts or is given, primaries and their standbys, keeps every "
		  "run in a store, compares stored runs point by point with "
		  "intervals and verdicts, and gates CI on regressions between "
		  "server variants: settings, builds with other #defines or "
		  "patches, revisions.\n",
		  f);
	fputs(".SH COMMANDS\n", f);
	for (size_t i = 0; i < n; i++)
	{
		char name[128];

		page_name(commands[i], name, sizeof(name));
		fprintf(f, ".TP\n\\fB%s\\fR\n", commands[i]->name);
		troff_text(f, commands[i]->summary, strlen(commands[i]->summary));
		if (strcmp(commands[i]->name, "help") != 0)
		{
			fputs("; see \\fB", f);
			troff_text(f, name, strlen(name));
			fputs("\\fR(1)", f);
		}
		fputc('\n', f);
	}
	fputs(".SH STORE\n", f);
	troff_paragraphs(f, store);
	fputs(".SH \"EXIT STATUS\"\n", f);
	troff_paragraphs(f, exits);
	fputs(".SH ENVIRONMENT\n"
		  ".TP\n\\fBPGCLIFF_DB\\fR\nthe store when --db is not given\n"
		  ".TP\n\\fBPGCLIFF_STORE_TIMEOUT\\fR\nhow long a locked SQLite "
		  "store is waited for (default 30s)\n"
		  ".TP\n\\fBPGCLIFF_BUILD_CACHE\\fR\nthe build cache of "
		  "\\fBpgcliff build\\fR and of variants built from source\n"
		  ".TP\n\\fBPGHOST\\fR, \\fBPGPORT\\fR, \\fBPGUSER\\fR, "
		  "\\fBPGDATABASE\\fR, \\fBPGPASSWORD\\fR\nas libpq reads them, "
		  "for the servers pgcliff is given (not for managed ones)\n",
		  f);
	fputs(".SH \"SEE ALSO\"\n", f);
	for (size_t i = 0; i < n; i++)
	{
		char name[128];

		if (strcmp(commands[i]->name, "help") == 0)
			continue;
		page_name(commands[i], name, sizeof(name));
		fputs("\\fB", f);
		troff_text(f, name, strlen(name));
		fprintf(f, "\\fR(1)%s\n", i + 1 < n ? "," : "");
	}
	if (fclose(f) != 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (strcmp(commands[i]->name, "help") != 0 &&
			write_page(dir, commands[i], version) < 0)
			return -1;
	return 0;
}

/* --- completions */

/*
 * HELP as a completion's one-line description: its first clause (up to
 * ';', ':' or the end of a sentence) without what is in parentheses, at
 * most 60 characters, cut at a word.
 */
static void
short_help(const char *help, char *buf, size_t size)
{
	size_t k = 0;
	int depth = 0;

	for (const char *p = help; *p && k + 1 < size; p++)
	{
		char ch = *p == '\n' ? ' ' : *p;

		if (ch == '(')
			depth++;
		else if (ch == ')' && depth > 0)
			depth--;
		else if (depth > 0)
			continue;
		else if (ch == ';' || ch == ':' || (ch == '.' && p[1] == ' '))
			break;
		else if ((ch == ' ' || ch == ',') && k > 0 && buf[k - 1] == ' ')
			buf[k - 1] = ch; /* "dip (...)," -> "dip," */
		else
			buf[k++] = ch;
	}
	while (k > 0 && (buf[k - 1] == ' ' || buf[k - 1] == ','))
		k--;
	if (k > 60)
	{
		k = 60;
		while (k > 0 && buf[k] != ' ')
			k--;
		while (k > 0 && buf[k - 1] == ',')
			k--;
	}
	buf[k] = '\0';
}

/* the first word of a command: "recipe check" -> "recipe" */
static size_t
first_word(const char *name)
{
	const char *sp = strchr(name, ' ');

	return sp ? (size_t) (sp - name) : strlen(name);
}

/* whether COMMANDS[I] shares its first word with the one before it: a
 * later command of a group such as "recipe check", "recipe explain" */
static bool
same_group(const struct cmd *const *commands, size_t i)
{
	size_t len = first_word(commands[i]->name);

	return i > 0 && first_word(commands[i - 1]->name) == len &&
		   strncmp(commands[i - 1]->name, commands[i]->name, len) == 0;
}

/* a bash compgen for VALUE (opt.h's forms) into COMPREPLY */
static void
bash_compgen(FILE *f, const char *value)
{
	if (strcmp(value, "<file>") == 0)
		fputs("COMPREPLY=($(compgen -f -- \"$cur\"))", f);
	else if (strcmp(value, "<dir>") == 0)
		fputs("COMPREPLY=($(compgen -d -- \"$cur\"))", f);
	else if (strcmp(value, "<yaml>") == 0)
		fputs("COMPREPLY=($(compgen -f -X '!*.y*ml' -- \"$cur\") "
			  "$(compgen -d -- \"$cur\"))",
			  f);
	else if (strcmp(value, "<user>") == 0)
		fputs("COMPREPLY=($(compgen -u -- \"$cur\"))", f);
	else
		fprintf(f, "COMPREPLY=($(compgen -W '%s' -- \"$cur\"))", value);
}

static void
write_bash(FILE *f, const struct cmd *const *commands, size_t n)
{
	fputs("# bash completion for pgcliff\n"
		  "# generated by `pgcliff help --completion bash` from the option "
		  "tables\n"
		  "_pgcliff()\n{\n"
		  "\tlocal cur=${COMP_WORDS[COMP_CWORD]} "
		  "prev=${COMP_WORDS[COMP_CWORD-1]} verb\n"
		  "\tCOMPREPLY=()\n"
		  "\tif ((COMP_CWORD == 1)); then\n"
		  "\t\tCOMPREPLY=($(compgen -W '",
		  f);
	for (size_t i = 0; i < n; i++)
	{
		size_t len = first_word(commands[i]->name);

		/* a two-word command's first word once */
		if (same_group(commands, i))
			continue;
		fprintf(f, "%s%.*s", i ? " " : "", (int) len, commands[i]->name);
	}
	fputs("' -- \"$cur\"))\n\t\treturn\n\tfi\n"
		  "\tverb=${COMP_WORDS[1]}\n"
		  "\tcase $verb in\n",
		  f);
	/* the groups of two-word commands: their second word */
	for (size_t i = 0; i < n; i++)
	{
		size_t len = first_word(commands[i]->name);

		if (commands[i]->name[len] != ' ' || same_group(commands, i))
			continue;
		fprintf(f,
				"\t%.*s)\n\t\tif ((COMP_CWORD == 2)); then\n"
				"\t\t\tCOMPREPLY=($(compgen -W '",
				(int) len, commands[i]->name);
		for (size_t j = i; j < n && strncmp(commands[j]->name,
											commands[i]->name, len + 1) == 0;
			 j++)
			fprintf(f, "%s%s", j > i ? " " : "", commands[j]->name + len + 1);
		fputs("' -- \"$cur\"))\n\t\t\treturn\n\t\tfi\n"
			  "\t\tverb=\"$verb ${COMP_WORDS[2]}\" ;;\n",
			  f);
	}
	fputs("\tesac\n\tcase $verb in\n", f);
	for (size_t i = 0; i < n; i++)
	{
		const struct cmd *c = commands[i];
		bool any = false;

		fprintf(f, "\t'%s')\n\t\tcase $prev in\n", c->name);
		if (c->opts)
			for (const struct cmd_opt *o = c->opts; o->id != 0; o++)
			{
				if (!is_option(o) || o->arg == NULL)
					continue;
				fputs("\t\t", f);
				if (has_short(o))
					fprintf(f, "-%c|", o->id);
				fprintf(f, "--%s) ", o->name);
				if (o->value)
				{
					bash_compgen(f, o->value);
					fputs("; ", f);
				}
				fputs("return ;;\n", f);
			}
		fputs("\t\tesac\n\t\tif [[ $cur == -* ]]; then\n"
			  "\t\t\tCOMPREPLY=($(compgen -W '",
			  f);
		if (c->opts)
			for (const struct cmd_opt *o = c->opts; o->id != 0; o++)
			{
				if (!is_option(o))
					continue;
				fprintf(f, "%s--%s", any ? " " : "", o->name);
				if (has_short(o))
					fprintf(f, " -%c", o->id);
				any = true;
			}
		fprintf(f, "%s--help' -- \"$cur\"))\n\t\t\treturn\n\t\tfi\n",
				any ? " " : "");
		if (c->operand)
		{
			fputs("\t\t", f);
			bash_compgen(f, c->operand);
			fputc('\n', f);
		}
		fputs("\t\t;;\n", f);
	}
	fputs("\tesac\n}\ncomplete -F _pgcliff pgcliff\n", f);
}

/* TEXT inside a zsh _arguments spec in single quotes: [ ] : \ and '
 * escaped */
static void
zsh_escape(FILE *f, const char *text)
{
	for (const char *p = text; *p; p++)
	{
		if (*p == '\'')
			fputs("'\\''", f);
		else if (*p == '[' || *p == ']' || *p == ':' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else
			fputc(*p, f);
	}
}

static void
zsh_action(FILE *f, const char *value)
{
	if (value == NULL)
		fputs(" ", f);
	else if (strcmp(value, "<file>") == 0)
		fputs("_files", f);
	else if (strcmp(value, "<dir>") == 0)
		fputs("_files -/", f);
	else if (strcmp(value, "<yaml>") == 0)
		fputs("_files -g \"*.y(a|)ml\"", f);
	else if (strcmp(value, "<user>") == 0)
		fputs("_users", f);
	else
		fprintf(f, "(%s)", value);
}

static void
write_zsh(FILE *f, const struct cmd *const *commands, size_t n)
{
	fputs("#compdef pgcliff\n"
		  "# zsh completion for pgcliff\n"
		  "# generated by `pgcliff help --completion zsh` from the option "
		  "tables\n"
		  "_pgcliff() {\n"
		  "\tlocal -a verbs\n"
		  "\tlocal verb\n"
		  "\tverbs=(\n",
		  f);
	for (size_t i = 0; i < n; i++)
	{
		size_t len = first_word(commands[i]->name);

		if (commands[i]->name[len] == ' ')
		{
			if (same_group(commands, i))
				continue;
			fprintf(f, "\t\t'%.*s:%.*s commands'\n", (int) len,
					commands[i]->name, (int) len, commands[i]->name);
			continue;
		}
		fprintf(f, "\t\t'%s:", commands[i]->name);
		zsh_escape(f, commands[i]->summary);
		fputs("'\n", f);
	}
	fputs("\t)\n"
		  "\tif ((CURRENT == 2)); then\n"
		  "\t\t_describe -t commands 'pgcliff command' verbs\n"
		  "\t\treturn\n\tfi\n"
		  "\tverb=$words[2]\n"
		  "\tshift words\n\t((CURRENT--))\n"
		  "\tcase $verb in\n",
		  f);
	/* two-word commands: the second word, then its own arguments */
	for (size_t i = 0; i < n; i++)
	{
		size_t len = first_word(commands[i]->name);

		if (commands[i]->name[len] != ' ' || same_group(commands, i))
			continue;
		fprintf(f,
				"\t%.*s)\n\t\tif ((CURRENT == 2)); then\n"
				"\t\t\t_values 'subcommand'",
				(int) len, commands[i]->name);
		for (size_t j = i; j < n && strncmp(commands[j]->name,
											commands[i]->name, len + 1) == 0;
			 j++)
			fprintf(f, " %s", commands[j]->name + len + 1);
		fputs("\n\t\t\treturn\n\t\tfi\n"
			  "\t\tverb=\"$verb $words[2]\"\n"
			  "\t\tshift words\n\t\t((CURRENT--)) ;;\n",
			  f);
	}
	fputs("\tesac\n\tcase $verb in\n", f);
	for (size_t i = 0; i < n; i++)
	{
		const struct cmd *c = commands[i];

		fprintf(f, "\t'%s')\n\t\t_arguments -s -S \\\n", c->name);
		if (c->opts)
			for (const struct cmd_opt *o = c->opts; o->id != 0; o++)
			{
				char desc[128];

				if (!is_option(o))
					continue;
				short_help(o->help, desc, sizeof(desc));
				if (has_short(o))
					fprintf(f, "\t\t\t'*'{-%c,--%s}'", o->id, o->name);
				else
					fprintf(f, "\t\t\t'*--%s", o->name);
				fputc('[', f);
				zsh_escape(f, desc);
				fputc(']', f);
				if (o->arg)
				{
					fputc(':', f);
					zsh_escape(f, o->arg);
					fputc(':', f);
					zsh_action(f, o->value);
				}
				fputs("' \\\n", f);
			}
		fputs("\t\t\t'(- *)--help[this text]'", f);
		if (c->operand)
		{
			fputs(" \\\n\t\t\t'*:operand:", f);
			zsh_action(f, c->operand);
			fputc('\'', f);
		}
		fputs(" ;;\n", f);
	}
	fputs("\tesac\n}\n_pgcliff \"$@\"\n", f);
}

int
cmd_write_completion(FILE *f, const char *shell,
					 const struct cmd *const *commands, size_t n)
{
	if (strcmp(shell, "bash") == 0)
		write_bash(f, commands, n);
	else if (strcmp(shell, "zsh") == 0)
		write_zsh(f, commands, n);
	else
		return -1;
	return 0;
}
