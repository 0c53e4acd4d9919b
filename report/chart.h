/*
 * chart.h - charts as SVG: lines with markers and interval whiskers, a
 * log2 or linear x axis, shaded bands and spans, event lines and notes.
 * The one owner of pgcliff's SVG; the HTML report and `--format svg`
 * both draw through it.  Every text is escaped, every mark carries a
 * class ("mark", "whisker", "line", "span", "band", "event") so that a
 * test can count what was drawn, and a line with more points than the
 * plot has pixels is decimated for drawing only (the minimum and maximum
 * of each pixel column are kept, so spikes stay visible).  Pure: renders
 * into a strbuf.
 */
#ifndef PGCLIFF_CHART_H
#define PGCLIFF_CHART_H

#include <stdbool.h>

#include "base.h"

enum chart_scale
{
	CHART_LINEAR = 0,
	CHART_LOG2, /* x: client counts */
	CHART_LOG10 /* y: latencies */
};

struct chart_point
{
	double x, y;
	double lo, hi;     /* the interval drawn as a whisker; NAN: none */
	const char *color; /* the marker's colour; NULL: the line's */
	const char *tip;   /* a tooltip (SVG <title>); NULL: none */
};

struct chart_line
{
	const char *name; /* in the legend; NULL: not listed */
	int color;        /* index into the palette */
	const struct chart_point *pts;
	int n;
	bool markers; /* a circle at every point (and its whisker) */
	bool dashed;
	bool faint; /* drawn lighter: a repeat behind the first */
};

/* A horizontal band from Y0 to Y1 (the margin), or a shaded x SPAN. */
struct chart_range
{
	double from, to;
	const char *label;
};

/* A vertical line at X (a timed event) or a labelled note at (X, Y). */
struct chart_mark
{
	double x, y;
	const char *label;
};

struct chart
{
	const char *id; /* data-chart attribute: what a test looks for */
	const char *title;
	const char *xlabel, *ylabel;
	enum chart_scale xscale, yscale;
	double ymin, ymax; /* NAN: from the data (linear from 0) */
	double yref;       /* a reference line (1 for ratios); NAN: none */
	const struct chart_line *lines;
	int nlines;
	const struct chart_range *bands; /* horizontal, in y */
	int nbands;
	const struct chart_range *spans; /* vertical, in x */
	int nspans;
	const struct chart_mark *events; /* vertical lines */
	int nevents;
	const struct chart_mark *notes; /* labelled circles: peak, cliff */
	int nnotes;
	int width, height; /* 0: 640 x 300 */
};

/* The palette's colours (colour-blind safe); I wraps. */
const char *chart_color(int i);

/*
 * C as an <svg> element into OUT.  STANDALONE: with the XML namespace and
 * declaration, a file of its own (an attachment); else inline in HTML.
 */
void chart_svg(struct strbuf *out, const struct chart *c, bool standalone);

/*
 * S escaped for XML and HTML text and attributes (& < > " '), each byte
 * that is not UTF-8 and each control character but tab and newline
 * replaced with U+FFFD, so that any stored string is shown as text.
 */
void chart_escape(struct strbuf *out, const char *s);

/* V compactly for an axis or a label: 51k, 1.2M, 0.98, 3.5. */
void chart_number(char *buf, size_t size, double v);

#endif /* PGCLIFF_CHART_H */
