#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/deploy/check.sh BINDIR: the Kubernetes manifests (deploy/k8s) and the Containerfile
# pass tests/deploy/check.py with the programs built in BINDIR, and each broken fixture in
# tests/deploy/bad/ fails it with the message its "# expect:" line names (so the check can fail;
# check.py --bad does both in one process).
# Needs python3 with yaml and jsonschema (Debian: python3-yaml python3-jsonschema).
bindir=${1:?usage: check.sh BINDIR}
src=$(cd "$(dirname "$0")/../.." && pwd)
py=$(sh "$src/scripts/ci/python-with.sh" yaml jsonschema) ||
	{ echo "check.sh: error: no python3 with yaml and jsonschema (apt-get install python3-yaml python3-jsonschema)" >&2; exit 1; }
exec "$py" "$src/tests/deploy/check.py" "$bindir" "$src" --bad="$src/tests/deploy/bad"
