/*
 * chart.c - see chart.h.
 */
#include "chart.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Okabe and Ito's colours, which stay apart for colour-blind readers. */
static const char *const palette[] = {"#0072b2", "#d55e00", "#009e73",
									  "#cc79a7", "#e69f00", "#56b4e9",
									  "#000000", "#f0e442"};

/* the windows: light enough to sit under every line */
static const char *const span_colors[] = {"#e69f00", "#56b4e9", "#009e73",
										  "#cc79a7"};

const char *
chart_color(int i)
{
	int n = (int) (sizeof(palette) / sizeof(palette[0]));

	return palette[((i % n) + n) % n];
}

void
chart_escape(struct strbuf *out, const char *s)
{
	const unsigned char *p = (const unsigned char *) (s ? s : "");

	while (*p)
	{
		size_t n = utf8_seq_len(p);

		if (n == 0 || (*p < 0x20 && *p != '\t' && *p != '\n') || *p == 0x7f)
		{
			strbuf_addstr(out, "\xEF\xBF\xBD"); /* U+FFFD */
			p++;
			continue;
		}
		switch (*p)
		{
			case '&':
				strbuf_addstr(out, "&amp;");
				break;
			case '<':
				strbuf_addstr(out, "&lt;");
				break;
			case '>':
				strbuf_addstr(out, "&gt;");
				break;
			case '"':
				strbuf_addstr(out, "&quot;");
				break;
			case '\'':
				strbuf_addstr(out, "&#39;");
				break;
			default:
				strbuf_add(out, p, n);
		}
		p += n;
	}
}

void
chart_number(char *buf, size_t size, double v)
{
	double a = fabs(v);

	if (!isfinite(v))
		snprintf(buf, size, "%s", isnan(v) ? "-" : v > 0 ? "inf" : "-inf");
	else if (a >= 1e6)
		snprintf(buf, size, "%.3gM", v / 1e6);
	else if (a >= 1e4)
		snprintf(buf, size, "%.0fk", v / 1e3);
	else if (a >= 1e3)
		snprintf(buf, size, "%.3gk", v / 1e3);
	else
		snprintf(buf, size, "%.3g", v);
}

/* ------------------------------------------------------------ scales */

struct axis
{
	enum chart_scale scale;
	double lo, hi;   /* the domain, in data units */
	double p0, p1;   /* the pixels it maps to */
	double tlo, thi; /* the domain transformed */
};

static double
tr(const struct axis *a, double v)
{
	switch (a->scale)
	{
		case CHART_LOG2:
			return log2(v);
		case CHART_LOG10:
			return log10(v);
		default:
			return v;
	}
}

static bool
usable(const struct axis *a, double v)
{
	return isfinite(v) && (a->scale == CHART_LINEAR || v > 0);
}

static void
axis_fix(struct axis *a, double p0, double p1)
{
	a->p0 = p0;
	a->p1 = p1;
	a->tlo = tr(a, a->lo);
	a->thi = tr(a, a->hi);
}

/* V in pixels, clamped a little outside the plot so paths stay sane. */
static double
px(const struct axis *a, double v)
{
	double t = (tr(a, v) - a->tlo) / (a->thi - a->tlo);

	if (!isfinite(t))
		t = t > 0 ? 2 : -1;
	if (t < -1)
		t = -1;
	if (t > 2)
		t = 2;
	return a->p0 + t * (a->p1 - a->p0);
}

static double
nice_step(double range, int target)
{
	double raw = range / target;
	double mag = pow(10, floor(log10(raw)));
	double f = raw / mag;

	return (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * mag;
}

/* The ticks of A into T (at most MAX); returns their count. */
static int
ticks(const struct axis *a, const struct chart *c, bool is_x, double *t,
	  int max)
{
	int n = 0;

	if (a->scale == CHART_LINEAR)
	{
		double step = nice_step(a->hi - a->lo, 5);

		for (double v = ceil(a->lo / step) * step;
			 v <= a->hi + step * 1e-9 && n < max; v += step)
			t[n++] = fabs(v) < step * 1e-9 ? 0 : v;
		return n;
	}
	if (a->scale == CHART_LOG2 && is_x)
	{
		/* the client counts themselves, when there are few */
		double seen[64];
		int ns = 0;

		for (int l = 0; l < c->nlines; l++)
			for (int i = 0; i < c->lines[l].n; i++)
			{
				double x = c->lines[l].pts[i].x;
				int j;

				for (j = 0; j < ns && seen[j] != x; j++)
					;
				if (j == ns && ns < 64)
					seen[ns++] = x;
			}
		if (ns > 0 && ns <= 16)
		{
			for (int i = 0; i < ns; i++)
			{
				int k = n++;

				while (k > 0 && t[k - 1] > seen[i])
				{
					t[k] = t[k - 1];
					k--;
				}
				t[k] = seen[i];
			}
			return n;
		}
		for (double v = exp2(ceil(log2(a->lo)));
			 v <= a->hi * 1.0001 && n < max; v *= 2)
			t[n++] = v;
		return n;
	}
	/* log10: 1-2-5 within each decade when there are few decades */
	{
		double d = floor(log10(a->lo));
		bool fine = log10(a->hi) - log10(a->lo) <= 3;

		for (; n < max && pow(10, d) <= a->hi * 1.0001; d++)
			for (int m = 0; m < 3 && n < max; m++)
			{
				static const double mult[] = {1, 2, 5};
				double v = mult[m] * pow(10, d);

				if (m > 0 && !fine)
					break;
				if (v >= a->lo * 0.9999 && v <= a->hi * 1.0001)
					t[n++] = v;
			}
	}
	return n;
}

/* -------------------------------------------------------------- parts */

static void
title_el(struct strbuf *out, const char *text)
{
	if (text == NULL)
		return;
	strbuf_addstr(out, "<title>");
	chart_escape(out, text);
	strbuf_addstr(out, "</title>");
}

static void
text_el(struct strbuf *out, double x, double y, const char *anchor,
		const char *extra, const char *text)
{
	strbuf_addf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"%s>", x, y,
				anchor, extra ? extra : "");
	chart_escape(out, text);
	strbuf_addstr(out, "</text>\n");
}

/* How many points of L can be drawn (up to 2: a path needs two). */
static int
drawable(const struct chart_line *l, const struct axis *x,
		 const struct axis *y)
{
	int n = 0;

	for (int i = 0; i < l->n && n < 2; i++)
		n += usable(x, l->pts[i].x) && usable(y, l->pts[i].y);
	return n;
}

/* Line L as a path, decimated to the min and max of each pixel column. */
static void
line_path(struct strbuf *out, const struct chart_line *l, const struct axis *x,
		  const struct axis *y, const char *clip)
{
	double cols = fabs(x->p1 - x->p0);
	bool decimate = !l->markers && l->n > 2 * cols;
	bool pen_down = false;
	int i = 0;

	strbuf_addf(out, "<path class=\"line\" clip-path=\"url(#%s)\" d=\"", clip);
	while (i < l->n)
	{
		const struct chart_point *p = &l->pts[i];
		double cx, lo_y, hi_y;
		int j, lo_i, hi_i;

		if (!usable(x, p->x) || !usable(y, p->y))
		{
			pen_down = false;
			i++;
			continue;
		}
		cx = px(x, p->x);
		if (!decimate)
		{
			strbuf_addf(out, "%c%.1f %.1f", pen_down ? 'L' : 'M', cx,
						px(y, p->y));
			pen_down = true;
			i++;
			continue;
		}
		/* the points of this pixel column */
		lo_i = hi_i = i;
		lo_y = hi_y = p->y;
		for (j = i + 1;
			 j < l->n && usable(x, l->pts[j].x) && usable(y, l->pts[j].y) &&
			 (int) px(x, l->pts[j].x) == (int) cx;
			 j++)
		{
			if (l->pts[j].y < lo_y)
				lo_y = l->pts[j].y, lo_i = j;
			if (l->pts[j].y > hi_y)
				hi_y = l->pts[j].y, hi_i = j;
		}
		strbuf_addf(out, "%c%.1f %.1f", pen_down ? 'L' : 'M', cx,
					px(y, lo_i <= hi_i ? lo_y : hi_y));
		strbuf_addf(out, "L%.1f %.1f", cx, px(y, lo_i <= hi_i ? hi_y : lo_y));
		pen_down = true;
		i = j;
	}
	strbuf_addf(out,
				"\" fill=\"none\" stroke=\"%s\" stroke-width=\"%s\"%s%s/>\n",
				chart_color(l->color), l->faint ? "1" : "1.6",
				l->dashed ? " stroke-dasharray=\"5 3\"" : "",
				l->faint ? " stroke-opacity=\"0.45\"" : "");
}

static void
markers(struct strbuf *out, const struct chart_line *l, const struct axis *x,
		const struct axis *y)
{
	for (int i = 0; i < l->n; i++)
	{
		const struct chart_point *p = &l->pts[i];
		const char *col = p->color ? p->color : chart_color(l->color);
		double cx, cy;

		if (!usable(x, p->x) || !usable(y, p->y))
			continue;
		cx = px(x, p->x);
		cy = px(y, p->y);
		if (!isnan(p->lo) && !isnan(p->hi))
		{
			double lo = usable(y, p->lo) ? px(y, p->lo) : y->p0;
			double hi = usable(y, p->hi) ? px(y, p->hi) : y->p1;

			/* clipped to the plot: an interval past it runs to its edge */
			lo = fmin(fmax(lo, y->p1), y->p0);
			hi = fmin(fmax(hi, y->p1), y->p0);
			strbuf_addf(
				out,
				"<g class=\"whisker\" stroke=\"%s\" stroke-width=\"1.4\">"
				"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
				"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
				"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
				"</g>\n",
				col, cx, lo, cx, hi, cx - 4, lo, cx + 4, lo, cx - 4, hi,
				cx + 4, hi);
		}
		strbuf_addf(out,
					"<circle class=\"mark\" cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" "
					"fill=\"%s\" stroke=\"#fff\" stroke-width=\"0.8\">",
					cx, cy, col);
		title_el(out, p->tip);
		strbuf_addstr(out, "</circle>\n");
	}
}

/* The legend's rows below the plot: returns its height. */
static int
legend(struct strbuf *out, const struct chart *c, int top, int left, int width,
	   bool draw)
{
	int x = left, rows = 0;

	for (int i = 0; i < c->nlines; i++)
	{
		const struct chart_line *l = &c->lines[i];
		int w;
		bool dup = false;

		if (l->name == NULL)
			continue;
		for (int j = 0; j < i; j++)
			dup |= c->lines[j].name && strcmp(c->lines[j].name, l->name) == 0;
		if (dup)
			continue;
		w = 28 + 7 * (int) strlen(l->name);
		if (rows == 0 || x + w > left + width)
			x = left, rows++;
		if (draw)
		{
			int y = top + 18 * rows - 4;

			strbuf_addf(out,
						"<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
						"stroke=\"%s\" stroke-width=\"2.5\"%s/>",
						x, y, x + 18, y, chart_color(l->color),
						l->dashed ? " stroke-dasharray=\"5 3\"" : "");
			text_el(out, x + 22, y + 4, "start", NULL, l->name);
		}
		x += w;
	}
	return 18 * rows + (rows ? 6 : 0);
}

/* ---------------------------------------------------------- the chart */

static void
domain(const struct chart *c, struct axis *x, struct axis *y)
{
	x->lo = y->lo = INFINITY;
	x->hi = y->hi = -INFINITY;
	for (int l = 0; l < c->nlines; l++)
		for (int i = 0; i < c->lines[l].n; i++)
		{
			const struct chart_point *p = &c->lines[l].pts[i];

			if (usable(x, p->x))
				x->lo = fmin(x->lo, p->x), x->hi = fmax(x->hi, p->x);
			if (usable(y, p->y))
				y->lo = fmin(y->lo, p->y), y->hi = fmax(y->hi, p->y);
			if (usable(y, p->lo))
				y->lo = fmin(y->lo, p->lo);
			if (usable(y, p->hi))
				y->hi = fmax(y->hi, p->hi);
		}
	for (int i = 0; i < c->nspans; i++)
		if (usable(x, c->spans[i].from) && usable(x, c->spans[i].to))
			x->lo = fmin(x->lo, c->spans[i].from),
			x->hi = fmax(x->hi, c->spans[i].to);
	for (int i = 0; i < c->nbands; i++)
		if (usable(y, c->bands[i].from) && usable(y, c->bands[i].to))
			y->lo = fmin(y->lo, c->bands[i].from),
			y->hi = fmax(y->hi, c->bands[i].to);
	if (usable(y, c->yref))
		y->lo = fmin(y->lo, c->yref), y->hi = fmax(y->hi, c->yref);
	if (!(x->lo <= x->hi))
		x->lo = 1, x->hi = 2;
	if (!(y->lo <= y->hi))
		y->lo = 1, y->hi = 2;
	if (x->lo == x->hi)
	{
		if (x->scale == CHART_LINEAR)
			x->lo -= 1, x->hi += 1;
		else
			x->lo /= 2, x->hi *= 2;
	}
	else if (x->scale != CHART_LINEAR)
	{
		/* room for the first and last client counts' marks */
		double pad = exp2(0.04 * (log2(x->hi) - log2(x->lo)));

		x->lo /= pad, x->hi *= pad;
	}
	if (usable(y, c->ymin))
		y->lo = c->ymin;
	else if (y->scale == CHART_LINEAR && y->lo > 0)
		y->lo = 0;
	if (usable(y, c->ymax))
		y->hi = c->ymax;
	if (y->lo >= y->hi)
		y->hi = y->scale == CHART_LINEAR ? y->lo + 1 : y->lo * 2;
	if (y->scale == CHART_LINEAR)
	{
		if (!usable(y, c->ymax))
			y->hi += (y->hi - y->lo) * 0.06;
	}
	else if (!usable(y, c->ymin) && !usable(y, c->ymax))
		y->lo /= 1.25, y->hi *= 1.25;
}

/* The grid, the ticks with their numbers, the axes and their labels. */
static void
draw_axes(struct strbuf *out, const struct chart *c, const struct axis *x,
		  const struct axis *y, int left, int right, int top, int bottom)
{
	double t[64];
	char num[32];
	int nt;

	nt = ticks(y, c, false, t, 64);
	for (int i = 0; i < nt; i++)
	{
		double py = px(y, t[i]);

		chart_number(num, sizeof(num), t[i]);
		strbuf_addf(out,
					"<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
					"stroke=\"#e6e6e6\"/>",
					left, py, right, py);
		text_el(out, left - 6, py + 4, "end", NULL, num);
	}
	nt = ticks(x, c, true, t, 64);
	for (int i = 0; i < nt; i++)
	{
		double pxx = px(x, t[i]);

		if (pxx < left - 0.5 || pxx > right + 0.5)
			continue;
		chart_number(num, sizeof(num), t[i]);
		strbuf_addf(out,
					"<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
					"stroke=\"#e6e6e6\"/>",
					pxx, top, pxx, bottom);
		text_el(out, pxx, bottom + 15, "middle", NULL, num);
	}
	strbuf_addf(out,
				"<path d=\"M%d %dV%dH%d\" fill=\"none\" stroke=\"#333\"/>\n",
				left, top, bottom, right);
	if (c->xlabel)
		text_el(out, (left + right) / 2.0, bottom + 32, "middle", NULL,
				c->xlabel);
	if (c->ylabel)
	{
		strbuf_addf(out,
					"<text transform=\"translate(14 %.1f) rotate(-90)\" "
					"text-anchor=\"middle\">",
					(top + bottom) / 2.0);
		chart_escape(out, c->ylabel);
		strbuf_addstr(out, "</text>\n");
	}
}

void
chart_svg(struct strbuf *out, const struct chart *c, bool standalone)
{
	int w = c->width > 0 ? c->width : 640;
	int h = c->height > 0 ? c->height : 300;
	int left = 64, right = w - 18, top = 32, bottom = h - 40;
	struct axis x = {.scale = c->xscale};
	struct axis y = {.scale = c->yscale};
	int lh;
	char clip[32];

	domain(c, &x, &y);
	axis_fix(&x, left, right);
	axis_fix(&y, bottom, top);
	lh = legend(out, c, h, left, right - left, false);
	snprintf(clip, sizeof(clip), "clip%zu", out->len);

	if (standalone)
		strbuf_addstr(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	strbuf_addf(out, "<svg %sclass=\"chart\" data-chart=\"",
				standalone ? "xmlns=\"http://www.w3.org/2000/svg\" " : "");
	chart_escape(out, c->id ? c->id : "chart");
	strbuf_addf(out,
				"\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
				"font-family=\"sans-serif\" font-size=\"11\" role=\"img\">\n",
				w, h + lh, w, h + lh);
	title_el(out, c->title);
	strbuf_addf(out,
				"\n<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n"
				"<clipPath id=\"%s\"><rect x=\"%d\" y=\"%d\" width=\"%d\" "
				"height=\"%d\"/></clipPath>\n",
				w, h + lh, clip, left, top, right - left, bottom - top);
	text_el(out, left, 18, "start", " font-size=\"13\" font-weight=\"bold\"",
			c->title ? c->title : "");

	/* shaded stretches and bands under everything else */
	for (int i = 0; i < c->nspans; i++)
	{
		double a = px(&x, c->spans[i].from), b = px(&x, c->spans[i].to);

		a = fmax(a, left);
		b = fmin(b, right);
		if (!(b > a))
			continue;
		strbuf_addf(out,
					"<rect class=\"span\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" "
					"height=\"%d\" fill=\"%s\" fill-opacity=\"0.10\">",
					a, top, b - a, bottom - top, span_colors[i % 4]);
		title_el(out, c->spans[i].label);
		strbuf_addstr(out, "</rect>\n");
		if (c->spans[i].label)
			text_el(out, (a + b) / 2, top + 11, "middle", " fill=\"#555\"",
					c->spans[i].label);
	}
	for (int i = 0; i < c->nbands; i++)
	{
		double a = px(&y, c->bands[i].to), b = px(&y, c->bands[i].from);

		a = fmax(a, top);
		b = fmin(b, bottom);
		if (!(b > a))
			continue;
		strbuf_addf(out,
					"<rect class=\"band\" x=\"%d\" y=\"%.1f\" width=\"%d\" "
					"height=\"%.1f\" fill=\"#999999\" fill-opacity=\"0.18\">",
					left, a, right - left, b - a);
		title_el(out, c->bands[i].label);
		strbuf_addstr(out, "</rect>\n");
	}

	draw_axes(out, c, &x, &y, left, right, top, bottom);
	if (usable(&y, c->yref))
	{
		double py = px(&y, c->yref);

		strbuf_addf(out,
					"<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
					"stroke=\"#333\" stroke-dasharray=\"4 3\"/>\n",
					left, py, right, py);
	}
	for (int i = 0; i < c->nevents; i++)
	{
		double pxx = px(&x, c->events[i].x);

		if (pxx < left || pxx > right)
			continue;
		strbuf_addf(out,
					"<line class=\"event\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" "
					"y2=\"%d\" stroke=\"#c00000\" stroke-width=\"1.5\" "
					"stroke-dasharray=\"3 2\">",
					pxx, top, pxx, bottom);
		title_el(out, c->events[i].label);
		strbuf_addstr(out, "</line>\n");
	}

	for (int l = 0; l < c->nlines; l++)
		if (drawable(&c->lines[l], &x, &y) > 1)
			line_path(out, &c->lines[l], &x, &y, clip);
	for (int l = 0; l < c->nlines; l++)
		if (c->lines[l].markers)
			markers(out, &c->lines[l], &x, &y);
	for (int i = 0; i < c->nnotes; i++)
	{
		const struct chart_mark *m = &c->notes[i];
		double cx, cy;
		int j;

		if (!usable(&x, m->x) || !usable(&y, m->y))
			continue;
		cx = px(&x, m->x);
		cy = px(&y, m->y);
		strbuf_addf(out,
					"<circle class=\"note\" cx=\"%.1f\" cy=\"%.1f\" r=\"7\" "
					"fill=\"none\" stroke=\"#333\" stroke-width=\"1.2\">",
					cx, cy);
		title_el(out, m->label);
		strbuf_addstr(out, "</circle>\n");
		/* one label for notes that sit together (every variant's peak) */
		for (j = 0; j < i; j++)
			if (m->label && c->notes[j].label &&
				strcmp(m->label, c->notes[j].label) == 0 &&
				usable(&x, c->notes[j].x) &&
				fabs(px(&x, c->notes[j].x) - cx) < 8)
				break;
		if (j == i)
			text_el(out, cx, top + 11 > cy - 11 ? cy + 20 : cy - 11, "middle",
					" font-weight=\"bold\"", m->label);
	}
	legend(out, c, h, left, right - left, true);
	strbuf_addstr(out, "</svg>\n");
}
