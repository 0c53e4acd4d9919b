#!/usr/bin/env bash
# Build the fuzz targets with clang's libFuzzer (+ASan+UBSan) and run each
# for SECONDS (default 60), starting from the checked-in corpora (and the
# recipes, for the loader).  New crashing inputs land in build/fuzz/; add
# the minimized ones to tests/fuzz/corpus/TARGET/ once fixed, so the
# replay tests keep them.  The last lines of each campaign (runs, corpus,
# exec/s) go to build/fuzz/TARGET.log.
#   tests/fuzz/run.sh [SECONDS] [TARGET...]   (recipe script cli store)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
secs=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(recipe script cli store)
out=$root/build/fuzz
mkdir -p "$out"
inc=(-I"$root/drivers/base" -I"$root/drivers/script" -I"$root/schemas/recipe"
	-I"$root/drivers/placement" -I"$root/drivers/pgbuild" -I"$root/drivers/json"
	-I"$root/schemas/store" -I"$root/report" -I"$root/drivers/hist"
	-I"$root/drivers/profile" -I"$root/cmd" -I"$(pg_config --includedir)")
cflags=(-g -O1 -std=c11 -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined "${inc[@]}")
base=("$root"/drivers/base/*.c)
recipe=("$root"/schemas/recipe/*.c "$root"/drivers/script/*.c
	"$root"/drivers/pgbuild/*.c "$root/drivers/json/pjson.c"
	"$root/drivers/placement/placement.c" "$root/drivers/profile/profile.c")
store=("$root"/schemas/store/*.c "$root"/drivers/hist/*.c "$root/drivers/json/pjson.c")
for f in table stats compare render history history_render windows points sequential judge chart why; do
	store+=("$root/report/$f.c")
done
libs=(-lyaml -ljansson -lcrypto -lsqlite3 -lpq -lz -lm)
for t in "${targets[@]}"; do
	case $t in
	script) src=("$root"/drivers/script/*.c) ;;
	recipe) src=("${recipe[@]}") ;;
	cli) src=("$root/cmd/diag.c" "$root/cmd/opt.c" "${recipe[@]}") ;;
	store) src=("${store[@]}") ;;
	*) echo "unknown target $t" >&2; exit 64 ;;
	esac
	clang "${cflags[@]}" "$root/tests/fuzz/fuzz_$t.c" "${base[@]}" "${src[@]}" \
		"${libs[@]}" -o "$out/fuzz_$t"
	mkdir -p "$out/corpus_$t"
	seeds=("$root/tests/fuzz/corpus/$t")
	[ $t = recipe ] && seeds+=("$root/tests/recipes/bad" "$root/tests/recipes/good" "$root/recipes")
	(cd "$out" && "./fuzz_$t" -max_total_time="$secs" -timeout=1 -rss_limit_mb=4096 \
		-close_fd_mask=2 -artifact_prefix="$out/$t-" "corpus_$t" "${seeds[@]}" \
		>"$t.log" 2>&1) || { tail -30 "$out/$t.log"; exit 1; }
	echo "== $t: $(grep -E '^#[0-9]+.*DONE|Done [0-9]+ runs' "$out/$t.log" | tail -2 | tr '\n' ' ')"
done
