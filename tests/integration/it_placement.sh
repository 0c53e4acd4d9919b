#!/usr/bin/env bash
# placement: the managed server's processes run on the servers' CPUs and
# the driver's threads on the driver's, as the recipe says; --placement
# wins over the recipe; auto, the default, pins a point of one client and
# frees a larger one; the run stores and shows what was applied; a CPU
# this machine does not give pgcliff is an error at the recipe's line,
# before any server starts.
. "$(dirname "$0")/lib.sh"

# the CPUs we may use, expanded ("0-1,4" -> 0 1 4)
cpus=()
IFS=, read -ra parts <<<"$(awk '/^Cpus_allowed_list/ {print $2}' /proc/self/status)"
for p in "${parts[@]}"; do
	if [[ $p == *-* ]]; then
		for ((c = ${p%-*}; c <= ${p#*-}; c++)); do cpus+=("$c"); done
	else cpus+=("$p"); fi
done
[ ${#cpus[@]} -ge 2 ] || skip "placement needs two CPUs, this process may use ${#cpus[@]}"
S=${cpus[1]} D=${cpus[0]}

cat >"$TMP/p.yaml" <<YAML
recipe: it_placement
duration: 4s
workloads: {w: {clients: 2, script: "SELECT pg_sleep(0.2);"}}
placement:
  server: "$S"
  driver: "$D"
YAML

allowed() { awk '/^Cpus_allowed_list/ {print $2}' "$1/status" 2>/dev/null; }

"$PGCLIFF" run "$TMP/p.yaml" -q >"$TMP/out" 2>"$TMP/err" &
run_pid=$!
pm=
for _ in $(seq 300); do
	f=$(ls "$TMP"/pgcliff-default-*/data/postmaster.pid 2>/dev/null | head -1)
	# the point is placed before its clients connect: wait for them, not
	# for a number of children (the server's own and pgcliff's setup
	# connection may reach any count first), i.e. three client backends
	# ([local]): the two clients, or one and the sampler; the server may
	# also have been restarted since setup
	if [ -n "$f" ]; then
		pm=$(head -1 "$f")
		kids=$(cat /proc/"$pm"/task/*/children 2>/dev/null)
		nlocal=0
		for k in $kids; do
			grep -q "\[local\]" /proc/"$k"/cmdline 2>/dev/null && nlocal=$((nlocal + 1))
		done
		# and the driver's engine thread (its second) exists: the point
		# is under way on this postmaster
		[ "$nlocal" -ge 3 ] && [ "$(ls /proc/"$run_pid"/task 2>/dev/null | wc -l)" -ge 2 ] &&
			[ "$(head -1 "$f" 2>/dev/null)" = "$pm" ] && break
	fi
	sleep 0.1
done
[ -n "$pm" ] || fail "no postmaster.pid appeared"
check_eq "postmaster's CPUs" "$(allowed /proc/"$pm")" "$S"
bad=0 n=0 kids=${kids:-}
for k in $kids; do
	a=$(allowed /proc/"$k") || continue
	[ -z "$a" ] && continue
	n=$((n + 1))
	[ "$a" = "$S" ] || { bad=$((bad + 1)); echo "child $k on $a"; }
done
check_eq "server children elsewhere (of $n)" "$bad" 0
bad=0
for t in /proc/"$run_pid"/task/*; do
	[ "$(allowed "$t")" = "$D" ] || bad=$((bad + 1))
done
check_eq "driver threads elsewhere (of $(ls /proc/"$run_pid"/task | wc -l))" "$bad" 0
wait $run_pid
check_eq "the run" $? 0
check_eq "stored placement" "$(sql "SELECT json_extract(plan, '\$.placement.mode') || ' ' || json_extract(plan, '\$.placement.server') || '/' || json_extract(plan, '\$.placement.driver') FROM run")" "cpus $S/$D"
"$PGCLIFF" show 1 | grep -q "^placement: cpus, servers on CPU $S, driver on CPU $D" || fail "show: $("$PGCLIFF" show 1 | grep placement)"

# --placement over the recipe's; free is stored as free
"$PGCLIFF" run "$TMP/p.yaml" -q -T 1s --placement free >"$TMP/out" 2>"$TMP/err"
check_eq "--placement free" $? 0
check_eq "stored as free" "$(sql "SELECT json_extract(plan, '\$.placement.mode') FROM run WHERE id = 2")" free

# auto (the default): a point of one client pinned apart, of two free;
# watched from outside through the client backends ([local]: the point's
# clients and the sampler)
cat >"$TMP/auto.yaml" <<YAML
recipe: it_placement_auto
duration: 3s
workloads: {w: {script: "SELECT pg_sleep(0.1);"}}
sweep: {clients: [1, 2]}
YAML
"$PGCLIFF" run "$TMP/auto.yaml" -q >"$TMP/out" 2>"$TMP/err" &
run_pid=$!
seen1= seen2=
for _ in $(seq 400); do
	f=$(ls "$TMP"/pgcliff-default-*/data/postmaster.pid 2>/dev/null | head -1)
	if [ -n "$f" ]; then
		pm=$(head -1 "$f")
		n=0 masks=
		for k in $(cat /proc/"$pm"/task/*/children 2>/dev/null); do
			grep -q "\[local\]" /proc/"$k"/cmdline 2>/dev/null && n=$((n + 1))
			masks="$masks $(allowed /proc/"$k")"
		done
		masks=$(echo $masks | tr ' ' '\n' | sort -u | tr '\n' ' ')
		drv=$(allowed /proc/"$run_pid")
		[ $n = 2 ] && [ -z "$seen1" ] && seen1="$(allowed /proc/"$pm") |${masks}| $drv"
		[ $n = 3 ] && [ -z "$seen2" ] && seen2="$(allowed /proc/"$pm") |${masks}| $drv"
	fi
	[ -n "$seen1" ] && [ -n "$seen2" ] && break
	sleep 0.05
done
# CPU numbers as Linux lists them: "0 1 2 5" -> 0-2,5
cpulist() {
	local out= start= prev=
	for c in "$@" ""; do
		if [ -n "$prev" ] && [ "$c" = $((prev + 1)) ]; then prev=$c; continue; fi
		if [ -n "$start" ]; then
			[ "$start" = "$prev" ] && out+="${out:+,}$start" || out+="${out:+,}$start-$prev"
		fi
		start=$c prev=$c
	done
	echo "$out"
}
half=$(( ${#cpus[@]} - ${#cpus[@]} / 2 ))
srv=$(cpulist "${cpus[@]:0:half}") drv=$(cpulist "${cpus[@]:half}")
all=$(awk '/^Cpus_allowed_list/ {print $2}' /proc/self/status)
check_eq "auto, one client: postmaster | children | driver" "$seen1" "$srv |$srv | $drv"
check_eq "auto, two clients: all free" "$seen2" "$all |$all | $all"
wait $run_pid
check_eq "the auto run" $? 0
check_eq "stored as auto, pinned up to one client" \
	"$(sql "SELECT json_extract(plan, '\$.placement.mode') || ' ' || json_extract(plan, '\$.placement.pinned_up_to_clients') FROM run ORDER BY id DESC LIMIT 1")" "auto $(( ${#cpus[@]} / 2 ))"

# a CPU pgcliff may not use: the recipe's line, nothing started or stored
sed -i "s/driver: \"$D\"/driver: \"1023\"/" "$TMP/p.yaml"
"$PGCLIFF" run "$TMP/p.yaml" -q >"$TMP/out" 2>"$TMP/err"
check_eq "impossible CPU list" $? 65
grep -q "p.yaml:6:11: error: placement: CPU 1023 of the driver is not available here" "$TMP/err" || fail "message: $(cat "$TMP/err")"
check_eq "no run stored for it" "$(sql "SELECT count(*) FROM run")" 3
"$PGCLIFF" run "$TMP/p.yaml" -q -T 1s --placement 9999/0 >"$TMP/out" 2>"$TMP/err"
check_eq "impossible --placement" $? 64
finish
