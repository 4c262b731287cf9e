#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Prints a C file holding FILE's bytes as NAME_data[] and NAME_len, so the
# build can embed a data file (the crawler table) into the binary.
# Usage: scripts/embed.sh NAME FILE
set -eu
name=$1; file=$2
[ -s "$file" ] || { echo "embed.sh: $file is empty or missing" >&2; exit 1; }
echo "/* generated from $file by scripts/embed.sh: do not edit */"
echo "#include <stddef.h>"
echo "extern const unsigned char ${name}_data[];"
echo "extern const size_t ${name}_len;"
echo "const unsigned char ${name}_data[] = {"
od -An -v -tx1 "$file" | sed -e 's/ *\([0-9a-f][0-9a-f]\)/0x\1,/g'
echo "};"
echo "const size_t ${name}_len = sizeof(${name}_data);"
