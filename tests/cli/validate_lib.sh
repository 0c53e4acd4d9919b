# validate KIND FILE...: schemas/json/validate.py with a python3 that has
# jsonschema and prometheus_client (.ci/setup installs Debian's), the
# first such on PATH; ROOT is the source tree.
validate() {
	local py
	for py in $(type -ap python3); do
		if "$py" -c 'import jsonschema, prometheus_client' 2>/dev/null; then
			"$py" -W ignore "$ROOT/schemas/json/validate.py" "$ROOT/schemas/json" "$@"
			return
		fi
	done
	echo "no python3 with jsonschema and prometheus_client (bash .ci/setup installs them)"
	return 1
}
