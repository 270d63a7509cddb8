#!/bin/sh
# Unit test of the rows' ceiling wiring (src/driver/ceil_row.c) over mkfix.sh's "ceiling" tree.
set -e
src=${srcdir:-.}
dir=tests/unit/fix-ceil-row.$$
trap 'rm -rf "$dir"' EXIT
sh "$src/tests/doctor/mkfix.sh" "$dir" ceiling
./tests/unit/t_ceil_row "$dir"
