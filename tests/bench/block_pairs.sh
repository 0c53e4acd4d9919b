# shellcheck shell=bash
# Sourced by the verdict benchmarks (until_decided_power.sh, pool.sh,
# run_effect.sh): the one definition of a block's B/A and of the true
# ratio pooled over blocks.
#
#   block_pairs STORE FIRST_RUN [LAST_RUN]
# prints one line per block of a two-variant run (variants a and b) with
# a run id from FIRST_RUN to LAST_RUN (default: the last):
#   RUN:CLIENTS:WORKLOAD  ln(B tps / A tps)  B's steal % minus A's  their mean
# the point of a run (clients, workload) first; the steal columns "-"
# where either point has no steal stored (older runs, not Linux).
block_pairs() {
	local store=$1 first=$2 last=${3:-}
	[[ $first =~ ^[0-9]+$ && $last =~ ^[0-9]*$ ]] ||
		{ echo "run ids must be numbers, not '$first' '$last'" >&2; return 64; }
	sqlite3 -separator ' ' "$store" "
	  SELECT a.run_id || ':' || a.clients || ':' || replace(a.workload, ' ', '_'),
	    ln(b.tps / a.tps),
	    CASE WHEN a.steal_pct >= 0 AND b.steal_pct >= 0
	      THEN b.steal_pct - a.steal_pct ELSE '-' END,
	    CASE WHEN a.steal_pct >= 0 AND b.steal_pct >= 0
	      THEN (a.steal_pct + b.steal_pct) / 2 ELSE '-' END
	  FROM point a JOIN point b ON b.run_id = a.run_id AND b.clients = a.clients
	    AND b.repeat_idx = a.repeat_idx AND b.workload = a.workload AND b.variant = 'b'
	  WHERE a.variant = 'a' AND a.run_id >= $first ${last:+AND a.run_id <= $last}
	  ORDER BY a.run_id, a.clients, a.workload, a.repeat_idx"
}

# pool_blocks: block_pairs lines on stdin; prints the true B/A pooled over
# every block (geometric mean with a 95 % interval) and the same at equal
# steal (log B/A regressed on the steal difference, read at zero), with
# the spread of one block's log B/A and the host's steal.
pool_blocks() {
	awk '{n++; y[n] = $2; s += $2; ss += $2 * $2}
	     $3 != "-" {k++; x[k] = $3; z[k] = $2; sx += $3; sz += $2; st += $4; if ($4 > smax) smax = $4}
	     END {
	       if (n < 2) exit
	       m = s / n; v = (ss / n - m * m) * n / (n - 1); se = sqrt(v / n)
	       printf "  true B/A (every block pooled): %.4f [%.4f, %.4f] from %d blocks; sd of a block'"'"'s log B/A %.4f\n",
	         exp(m), exp(m - 1.96 * se), exp(m + 1.96 * se), n, sqrt(v)
	       if (k < 4) exit
	       mx = sx / k; mz = sz / k
	       for (i = 1; i <= k; i++) {sxx += (x[i] - mx) ^ 2; sxz += (x[i] - mx) * (z[i] - mz)}
	       if (sxx <= 0) exit
	       b = sxz / sxx; a = mz - b * mx
	       for (i = 1; i <= k; i++) rss += (z[i] - a - b * x[i]) ^ 2
	       sd = sqrt(rss / (k - 2)); se = sd * sqrt(1 / k + mx * mx / sxx)
	       printf "  true B/A at equal steal: %.4f [%.4f, %.4f]; sd of a block'"'"'s log B/A at equal steal %.4f; B/A %+.2f %% per point of steal\n",
	         exp(a), exp(a - 1.96 * se), exp(a + 1.96 * se), sd, 100 * (exp(b) - 1)
	       printf "  steal (mean of a block'"'"'s two points): %.2f %% on average, %.1f %% at worst\n", st / k, smax}'
}
