#!/bin/sh
# Unit test of topo.c: build the "topo" fixture, run t_topo over it.
set -e
src=${srcdir:-.}
dir=tests/doctor/fix-topo.$$
trap 'rm -rf "$dir"' EXIT
sh "$src/tests/doctor/mkfix.sh" "$dir" topo
./tests/doctor/t_topo "$dir"
