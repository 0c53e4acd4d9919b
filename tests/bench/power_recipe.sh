# Sourced by the verdict benchmarks (until_decided_power.sh, aa_replay.sh,
# instance_aa.sh): the one recipe they run.
#
#   power_recipe NAME WORKLOAD CLIENTS WINDOW B_SETTINGS [A_SETTINGS]
#     WORKLOAD  txid (SELECT txid_current(), prepared) or select (pgbench's
#               select-only, scale 10, prepared)
#     B_SETTINGS the server settings of variant b, as YAML flow pairs
#     A_SETTINGS those of variant a (default fsync: off)
# prints the recipe; 64 for an unknown workload.
power_recipe() {
	local name=$1 workload=$2 clients=$3 window=$4 b=$5 a=${6:-fsync: off} work init=
	case $workload in
	txid) work="txid: {protocol: prepared, script: 'SELECT txid_current();'}" ;;
	select) work="sel: {protocol: prepared, builtin: select-only}"
		init="init: {pgbench: {scale: 10}}" ;;
	*) echo "unknown WORKLOAD $workload" >&2; return 64 ;;
	esac
	cat <<YAML
recipe: $name
duration: $window
$init
workloads:
  $work
sweep:
  clients: [$clients]
  jobs: clients
variants:
  a: {server: {$a}}
  b: {server: {$b}}
YAML
}
