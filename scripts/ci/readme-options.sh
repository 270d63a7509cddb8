#!/bin/sh
# Regenerate docs/options.md's option list (between <!-- options:begin --> and
# <!-- options:end -->) from `gdr_write_bw --help`, the option table's output.
# Usage: scripts/ci/readme-options.sh [path/to/gdr_write_bw] [path/to/docs/options.md]
set -eu
here=$(dirname "$0")
bin=${1:-./gdr_write_bw}
readme=${2:-$here/../../docs/options.md}

[ -x "$bin" ] || { echo "readme-options.sh: $bin: no such program; build first or pass its path" >&2; exit 1; }
grep -q '^<!-- options:begin -->$' "$readme" && grep -q '^<!-- options:end -->$' "$readme" ||
	{ echo "readme-options.sh: $readme lacks the <!-- options:begin/end --> markers" >&2; exit 1; }

help=$(mktemp)
new=$(mktemp)
trap 'rm -f "$help" "$new"' EXIT
"$bin" --help >"$help"

awk -v help="$help" '
/^<!-- options:begin -->$/ {
	print
	print "Defaults shown are those of `gdr_write_bw`; every program prints its own with `--help`."
	print ""
	print "```text"
	while ((getline line < help) > 0)
		print line
	print "```"
	skip = 1
	next
}
/^<!-- options:end -->$/ { skip = 0 }
!skip { print }
' "$readme" >"$new"
cat "$new" >"$readme"
echo "readme-options.sh: $readme: option list updated from $bin --help"
