#!/usr/bin/env bash
# install-man.sh PREFIX PEKIT_BINARY: the man page, as that binary prints it, into
# PREFIX/share/man/man1/pekit.1, where `man pekit` finds it once PREFIX/bin is on PATH (man-db
# looks in ../share/man beside each PATH directory). Written to a temporary name, then renamed.
set -euo pipefail
prefix=$1 bin=$2
mkdir -p "$prefix/share/man/man1"
"$bin" help --man > "$prefix/share/man/man1/.pekit.1.tmp.$$"
chmod 644 "$prefix/share/man/man1/.pekit.1.tmp.$$"
mv -f "$prefix/share/man/man1/.pekit.1.tmp.$$" "$prefix/share/man/man1/pekit.1"
