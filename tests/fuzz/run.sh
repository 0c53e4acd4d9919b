#!/usr/bin/env bash
# Build the fuzz targets with clang's libFuzzer (+ASan+UBSan) and run each
# for SECONDS (default 60), starting from the checked-in corpora and the
# recipes.  New crashing inputs land in build/fuzz/; add the minimized
# ones to tests/fuzz/corpus/ once fixed, so the replay tests keep them.
#   tests/fuzz/run.sh [SECONDS]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
secs=${1:-60}
out=$root/build/fuzz
mkdir -p "$out/corpus_recipe" "$out/corpus_script"
cflags=(-g -O1 -std=c11 -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined
	-I"$root/drivers/base" -I"$root/drivers/script" -I"$root/schemas/recipe")
base=("$root"/drivers/base/*.c "$root"/drivers/script/*.c)
clang "${cflags[@]}" "$root/tests/fuzz/fuzz_script.c" "${base[@]}" -lm -o "$out/fuzz_script"
clang "${cflags[@]}" "$root/tests/fuzz/fuzz_recipe.c" "${base[@]}" \
	"$root/schemas/recipe/recipe.c" -lyaml -lm -o "$out/fuzz_recipe"
cd "$out"
./fuzz_script -max_total_time="$secs" -timeout=5 corpus_script \
	"$root/tests/fuzz/corpus/script" 2>&1 | tail -3
./fuzz_recipe -max_total_time="$secs" -timeout=5 corpus_recipe \
	"$root/tests/fuzz/corpus/recipe" "$root/tests/recipes/bad" \
	"$root/tests/recipes/good" "$root/recipes" 2>&1 | tail -3
