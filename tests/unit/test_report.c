/*
 * test_report.c - the results table against golden files:
 *
 *   test_report GOLDEN_DIR            compare
 *   test_report GOLDEN_DIR --update   rewrite them (then review the diff)
 *
 * Covers one repeat per point, several repeats (median, min, max), rows
 * given out of order, and two workloads.
 */
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "golden.h"
#include "store.h"
#include "test.h"

/*
 * A probe's figures over a window: the mean of each column over the
 * seconds that have it, a counter's change per second, the errors counted,
 * other nodes and seconds outside the window left out.
 */
static void
test_probe_figures(void)
{
	struct store_sample_row rows[5];
	struct report_probe_figure *f = NULL;
	int n;

	memset(rows, 0, sizeof(rows));
	for (int i = 0; i < 5; i++)
	{
		rows[i].node = "standby";
		rows[i].second = i;
	}
	rows[0].probes = "{\"kax\":{\"used\":9000.0}}"; /* before: left out */
	rows[1].probes = "{\"kax\":{\"used\":100.0,\"scanned/s\":50.0}}";
	rows[2].probes = "{\"kax\":{\"used\":300.0,\"scanned/s\":150.0}}";
	rows[3].probes = "{\"kax\":{\"error\":\"no such setting\"}}";
	rows[4].node = "primary";
	rows[4].second = 2;
	rows[4].probes = "{\"kax\":{\"used\":7.0}}";
	n = report_probe_figures(rows, 5, "standby", 1, 4, &f);
	CHECK_INT(n, 3);
	CHECK_STR(f[0].name, "kax.used");
	CHECK_NEAR(f[0].value, 200, 1e-9);
	CHECK_INT(f[0].nseconds, 2);
	CHECK_STR(f[1].name, "kax.scanned/s");
	CHECK_NEAR(f[1].value, 100, 1e-9);
	CHECK_STR(f[2].name, "kax.errors");
	CHECK_NEAR(f[2].value, 1, 0);
	report_probe_figures_free(f, n);
	CHECK_INT(report_probe_figures(rows, 5, "standby", 10, 20, &f), 0);
	report_probe_figures_free(f, 0);
}

int
main(int argc, char **argv)
{
	bool update = argc > 2 && strcmp(argv[2], "--update") == 0;
	struct strbuf sb = STRBUF_INIT;
	/* seed 000's HEAD column, one repeat each, given out of order */
	const struct report_row single[] = {
		{"txid", 4, 4, 208119, 0.019, 0.051, 0, NULL, 0},
		{"txid", 1, 1, 60174, 0.016, 0.030, 0, NULL, 0},
		{"txid", 2, 2, 116169, 0.017, 0.033, 0, NULL, 0},
		{"txid", 1024, 1024, 157734, 6.102, 21.750, 3, NULL, 0},
	};
	/* seed 002's min/avg/max shape: three repeats, two workloads */
	const struct report_row repeats[] = {
		{"insert_delete", 200, 100, 427, 470.1, 690.2, 0, NULL, 0},
		{"insert_delete", 200, 100, 420, 475.3, 702.9, 0, NULL, 0},
		{"insert_delete", 200, 100, 421, 471.0, 695.5, 1, NULL, 0},
		{"insert_delete", 400, 200, 444, 901.2, 1500.0, 0, NULL, 0},
		{"insert_delete", 400, 200, 428, 930.4, 1620.7, 0, NULL, 0},
		{"insert_delete", 400, 200, 443, 905.8, 1550.1, 0, NULL, 0},
		{"emit", 80, 80, 81.5, 980.0, 1200.0, 0, NULL, 0},
		{"emit", 80, 80, 79.0, 1010.0, 1350.0, 0, NULL, 0},
	};
	/* seed 002's lock-count comparison: two variants, repeats, a gap */
	const struct report_row variants[] = {
		{"insert_delete", 200, 100, 427, 470.1, 690.2, 0, "locks8", 0},
		{"insert_delete", 200, 100, 452, 440.0, 650.0, 0, "locks64", 0},
		{"insert_delete", 200, 100, 421, 471.0, 695.5, 0, "locks8", 0},
		{"insert_delete", 200, 100, 460, 431.0, 640.1, 0, "locks64", 0},
		{"insert_delete", 400, 200, 444, 901.2, 1500.0, 0, "locks8", 0},
		{"insert_delete", 400, 200, 502, 800.0, 1300.0, 0, "locks64", 0},
		{"insert_delete", 800, 400, 300, 999.0, 1999.0, 0, "locks8", 0},
	};

	if (argc < 2)
	{
		fprintf(stderr, "usage: test_report GOLDEN_DIR [--update]\n");
		return 2;
	}
	report_sweep_table(&sb, single, (int) lengthof(single));
	golden(argv[1], "table_single.txt", sb.buf, update);
	strbuf_reset(&sb);
	report_sweep_table(&sb, repeats, (int) lengthof(repeats));
	golden(argv[1], "table_repeats.txt", sb.buf, update);
	strbuf_reset(&sb);
	report_sweep_table(&sb, variants, (int) lengthof(variants));
	golden(argv[1], "table_variants.txt", sb.buf, update);
	strbuf_reset(&sb);
	report_sweep_table(&sb, NULL, 0);
	CHECK_STR(sb.buf, "(no points measured)\n");
	strbuf_release(&sb);

	CHECK_NEAR(report_median((double[]){3, 1, 2}, 3), 2, 0);
	CHECK_NEAR(report_median((double[]){4, 1, 3, 2}, 4), 2.5, 0);
	test_probe_figures();
	TEST_MAIN_END("test_report");
}
