#!/usr/bin/env bash
# A PostgreSQL tree's pull request against its base, with pgcliff: both
# revisions built from the checkout (the head over the base's tree, so make
# recompiles only what the PR touches), run in counterbalanced blocks until
# the gate decides or the budget is spent.  The verdict goes to the job
# summary and annotations (GitHub Actions, --format github) or as Markdown
# to stdout elsewhere; JUnit, Bencher's BMF and the HTML report into OUT.
# The example workflows (github-actions.yml, gitlab-ci.yml) call it.
#
# Environment:
#   PG_TREE       the git checkout of PostgreSQL (required)
#   BASE, HEAD    the revisions, e.g. the PR's base and head SHAs (required)
#   RECIPE        default: pr_vs_base.yaml beside this script
#   BUDGET        measuring at most (default 20min; builds not counted)
#   INCONCLUSIVE  pass or fail: what an undecided gate exits with (default:
#                 2, its own code)
#   OUT           where the files go (default pgcliff-out)
#   PGCLIFF       the binary (default: pgcliff on PATH)
#   PGCLIFF_ARGS  more options for run, e.g. "-c 1,8 -T 10s"
#   PGCLIFF_BUILD_CACHE  the build cache (keep it between jobs: the base's
#                 build is then found, not made)
# Exit: the gate's (0 no regression, 1 regression, 2 undecided), or
# run's when it failed (65 recipe, 69 build or server, 75 interrupted).
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${PG_TREE:?the PostgreSQL checkout}" "${BASE:?the base revision}" "${HEAD:?the head revision}"
pgcliff=${PGCLIFF:-pgcliff}
recipe=${RECIPE:-$here/pr_vs_base.yaml}
out=${OUT:-pgcliff-out}
mkdir -p "$out" || exit 70
db=$out/pgcliff.db
inconclusive=()
[ -n "${INCONCLUSIVE:-}" ] && inconclusive=(--inconclusive "$INCONCLUSIVE")

# shellcheck disable=SC2086
"$pgcliff" run "$recipe" --source "$PG_TREE" \
	--variant "base:revision=$BASE" --variant "head:revision=$HEAD" \
	--until-decided --budget "${BUDGET:-20min}" --db "$db" ${PGCLIFF_ARGS:-}
rc=$?
case $rc in 0 | 1 | 2) ;; *) exit $rc ;; esac
run=$("$pgcliff" list --db "$db" --limit 1 --format csv | sed -n '2s/,.*//p')
# the verdict: job summary and annotations on GitHub, Markdown elsewhere
"$pgcliff" gate "$run" --format github "${inconclusive[@]}" --db "$db"
rc=$?
"$pgcliff" gate "$run" --format junit -o "$out/junit.xml" --db "$db" >/dev/null
"$pgcliff" export "$run" --format bmf -o "$out/bmf.json" --db "$db"
"$pgcliff" report "$run" -o "$out/report.html" --db "$db"
exit $rc
