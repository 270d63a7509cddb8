#!/bin/sh
# Unit test of the row ceiling (src/sysinfo/ceiling.c): build the "ceiling" and "gb200"
# fixtures, run t_ceiling over them.
set -e
src=${srcdir:-.}
dir=tests/sysinfo/fix-ceiling.$$
trap 'rm -rf "$dir"' EXIT
sh "$src/tests/doctor/mkfix.sh" "$dir/ceiling" ceiling
sh "$src/tests/doctor/mkfix.sh" "$dir/gb200" gb200
./tests/sysinfo/t_ceiling "$dir/ceiling" "$dir/gb200"
