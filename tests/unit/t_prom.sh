#!/bin/sh
# The --prom files (a test's, through the reporter; gdr_doctor's, on a fixture) checked by
# Prometheus's own parser: promtool (Debian package prometheus) when present, else the
# python3-prometheus-client parser; a broken file must be refused (the checker is live).
src=${srcdir:-.}
dir=tests/unit/t_prom.$$
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir"
fails=0

if command -v promtool >/dev/null 2>&1; then
	checker=promtool
	check() { promtool check metrics <"$1" >"$1.out" 2>&1; }
elif /usr/bin/python3 -c 'import prometheus_client' 2>/dev/null; then
	checker=prometheus_client
	check() {
		/usr/bin/python3 - "$1" >"$1.out" 2>&1 <<'PY'
import sys
from prometheus_client.parser import text_string_to_metric_families
text = open(sys.argv[1]).read()
seen = set()
for fam in text_string_to_metric_families(text):
    assert fam.type == "gauge", fam.name
    for s in fam.samples:
        key = (s.name, tuple(sorted(s.labels.items())))
        assert key not in seen, key
        seen.add(key)
assert seen, "no samples"
PY
	}
else
	echo "SKIP: neither promtool (apt-get install prometheus) nor python3-prometheus-client"
	exit 77
fi

./tests/unit/t_accept "$dir/test.prom" || { echo "FAIL: t_accept"; fails=$((fails + 1)); }
sh "$src/tests/doctor/mkfix.sh" "$dir/fix" good || { echo "FAIL: fixture"; exit 1; }
./gdr_doctor --sysfs-root="$dir/fix" --proc-root="$dir/fix" --prom="$dir/doctor.prom" >/dev/null
grep -q '^gdr_doctor_check{host="fixture",group="RDMA devices",check="rdma.port"} 0$' \
	"$dir/doctor.prom" || { echo "FAIL: doctor.prom lacks rdma.port 0"; fails=$((fails + 1)); }
grep -q '^gdr_doctor_verdict{host="fixture"} [012]$' "$dir/doctor.prom" ||
	{ echo "FAIL: doctor.prom lacks the verdict"; fails=$((fails + 1)); }
for f in "$dir"/*.tmp.*; do
	[ -e "$f" ] && { echo "FAIL: a temporary file was left: $f"; fails=$((fails + 1)); }
done

for f in "$dir/test.prom" "$dir/doctor.prom"; do
	if ! check "$f"; then
		echo "FAIL: $checker refuses $f:"
		cat "$f.out" "$f"
		fails=$((fails + 1))
	fi
done
# a sample whose label value is not quoted: the checker must refuse it
{ cat "$dir/test.prom"; echo 'gdr_verdict{host=node1} 0'; } >"$dir/bad.prom"
if check "$dir/bad.prom"; then
	echo "FAIL: $checker accepted a broken file"
	fails=$((fails + 1))
fi
echo "t_prom: $checker; $fails failure(s)"
[ "$fails" = 0 ]
