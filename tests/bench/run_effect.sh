#!/usr/bin/env bash
# Is the block the right unit of replication?  A one-way analysis of
# variance of the per-block log B/A of two-variant runs, grouped by run:
# if something lasting a whole run (the host's neighbours, the run's
# ports or data directories, the order of its variants) moved B/A, the
# run means would spread more than the blocks within runs predict, and a
# gate that treats blocks as independent would be too narrow.
#
#   tests/bench/run_effect.sh STORE [FIRST_RUN]
#     STORE      a pgcliff store of runs with variants a and b
#     FIRST_RUN  only runs with this id or later (default 1)
#
# A run of several points (clients, workloads) counts each point as a run
# of its own.
# Prints the within-run sd of a block, the sd of the run means against the
# sd the within-run spread predicts, F = MS between / MS within with its
# degrees of freedom, and the between-run sd (method of moments, 0 when F
# is below 1).  Used by aa_replay.sh.  A benchmark, not a test.
set -euo pipefail
store=${1:?store}
first=${2:-1}
[[ $first =~ ^[0-9]+$ ]] || { echo "FIRST_RUN must be a run id, not '$first'" >&2; exit 64; }
[ -r "$store" ] || { echo "no store $store" >&2; exit 66; }
. "$(dirname "$0")/block_pairs.sh"
block_pairs "$store" "$first" |
	awk '{n[$1]++; s[$1] += $2; ss[$1] += $2 * $2}
	     END {
	       for (r in n) {
	         if (n[r] < 2) continue
	         k++; m = s[r] / n[r]
	         ssw += ss[r] - n[r] * m * m; dfw += n[r] - 1
	         nn[k] = n[r]; mm[k] = m; N2 += n[r]; T2 += s[r]; sq += n[r] * n[r]
	       }
	       if (k < 2 || dfw < 1) { print "  run effect: fewer than two runs of two blocks"; exit }
	       g = T2 / N2
	       for (i = 1; i <= k; i++) { ssb += nn[i] * (mm[i] - g) ^ 2; sm += mm[i]; smm += mm[i] ^ 2 }
	       msw = ssw / dfw; msb = ssb / (k - 1)
	       if (msw <= 0) { print "  run effect: no spread within runs"; exit }
	       n0 = (N2 - sq / N2) / (k - 1)          # blocks per run, unequal sizes allowed
	       sdm = sqrt((smm - sm * sm / k) / (k - 1))
	       vb = (msb - msw) / n0; if (vb < 0) vb = 0
	       printf "  run effect: %d runs, %d blocks; sd of a block within a run %.4f; sd of the run means %.4f (the blocks alone predict %.4f); F(%d, %d) = %.2f; between-run sd %.4f\n",
	         k, N2, sqrt(msw), sdm, sqrt(msw / n0), k - 1, dfw, msb / msw, sqrt(vb)
	     }'
