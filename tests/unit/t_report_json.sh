#!/bin/sh
# SPDX-License-Identifier: MIT
# The golden JSON (which t_report matches byte for byte) is valid JSON, and its
# run fields plus result fields are exactly the golden CSV's columns, same order.
srcdir=${srcdir:-.}
g=$srcdir/tests/golden
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 not found"; exit 77; }
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$g/report.json" ||
	{ echo "FAIL: $g/report.json is not valid JSON"; exit 1; }
python3 - "$g/report.json" "$g/report.csv" <<'PY' || exit 1
import csv, json, sys
doc = json.load(open(sys.argv[1]))
header = next(csv.reader(open(sys.argv[2], newline="")))
run = [k for k in doc["run"] if k not in
       ("clock_res_ns", "report_gbits", "percentiles", "units", "unit_definitions")]
keys = ["schema_version"] + run + list(doc["results"][0])
if keys != header:
    sys.exit("FAIL: JSON fields %s != CSV columns %s" % (keys, header))
for r in doc["results"]:
    if list(r) != list(doc["results"][0]):
        sys.exit("FAIL: result objects differ in their keys")
for k, u in doc["run"]["units"].items():
    if k not in header and k != "clock_res_ns":
        sys.exit("FAIL: unit for unknown field " + k)
    if u not in doc["run"]["unit_definitions"]:
        sys.exit("FAIL: unit %s of %s is not defined" % (u, k))
if doc["tool"]["name"] != "gdrperf" or doc["schema_version"] != 9 or doc["run"]["transport"] != "verbs":
    sys.exit("FAIL: tool/schema_version/transport")
print("ok: valid JSON, %d results, fields match the CSV columns" % len(doc["results"]))
PY
