#!/bin/sh
# SPDX-License-Identifier: MIT
# ptx-embed.sh NAME PTX: the C source of `const char NAME[]`, PTX's text as one string, on
# stdout: how the build embeds a persistent kernel's committed PTX (gproxy.mk, staging.mk;
# gpukern.h loads it), so no nvcc is needed to build.
set -eu
[ $# -eq 2 ] || { echo "usage: ptx-embed.sh NAME PTX" >&2; exit 2; }
[ -r "$2" ] || { echo "ptx-embed.sh: $2: cannot read" >&2; exit 1; }
echo "/* Generated from $(basename "$2") by src/gpukern/ptx-embed.sh: do not edit. */"
echo "extern const char $1[];"
echo "const char $1[] ="
sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$/\\n"/' "$2"
echo ';'
