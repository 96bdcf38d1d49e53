#!/usr/bin/env bash
# package-check.sh DEB TARBALL VERSION: installs the .deb into a temporary root (dpkg -x) and
# unpacks the tarball elsewhere, and in each runs `pekit --version`, `pekit test` on an example
# against a local server, and `man -l` on the page, with PATH and LD_LIBRARY_PATH holding no
# Swift toolchain. Fails on the first difference from what is expected.
set -euo pipefail
deb=$1 tarball=$2 version=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
server_pid=""
trap '[ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; rm -rf "$work"' EXIT
dpkg -x "$deb" "$work/deb"
mkdir -p "$work/tar" && tar -xzf "$tarball" -C "$work/tar"
# A local server for the example test (loopback only).
python3 "$root/Tests/Server/pekit_test_server.py" > "$work/ports.json" &
server_pid=$!
for _ in $(seq 50); do [ -s "$work/ports.json" ] && break; sleep 0.1; done
port=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["http"])' "$work/ports.json")
mkdir -p "$work/suite/tests"
cat > "$work/suite/tests/smoke_test.lua" <<'LUA'
test("the server answers", function()
  expect(pekit.http.get(pekit.vars.BASE .. "/echo?x=1")):status(200):json("$.method", "GET")
end)
test("a policy plugin from the package", function()
  assert(pekit.query.encode({ a = { 1, 2 } }, "php") == "a%5B0%5D=1&a%5B1%5D=2")
end)
LUA
for place in "$work/deb/usr" "$work/tar/pekit-$version"; do
    pekit="$place/bin/pekit"
    clean_env=(env -i HOME="$work" PATH=/usr/bin:/bin LANG=C.UTF-8)
    got=$("${clean_env[@]}" "$pekit" --version)
    [ "$got" = "pekit $version" ] || { echo "package-check: $pekit --version said '$got'" >&2; exit 1; }
    # The repository's example against the demo server, and the package's own plugins in use.
    cp "$root/scripts/examples/api_test.lua" "$work/suite/tests/api_test.lua"
    (cd "$work/suite" && "${clean_env[@]}" "$pekit" test --var "BASE=http://127.0.0.1:$port" --report "junit:$work/junit.xml") \
        || { echo "package-check: pekit test failed from $place" >&2; exit 1; }
    grep -q 'tests="7" failures="0" errors="0"' "$work/junit.xml" || { echo "package-check: the JUnit report of $place is not 7 tests that pass (one skipped)" >&2; exit 1; }
    warnings=$(MANWIDTH=80 "${clean_env[@]}" man -l "$place/share/man/man1/pekit.1.gz" 2>&1 >/dev/null || true)
    [ -z "$warnings" ] || { echo "package-check: man -l warned: $warnings" >&2; exit 1; }
    MANWIDTH=80 "${clean_env[@]}" man -l "$place/share/man/man1/pekit.1.gz" 2>/dev/null | grep -q "pekit" || { echo "package-check: the man page of $place does not render" >&2; exit 1; }
    echo "package-check: $place: --version, pekit test and man -l work" >&2
done
# The Dockerfile copies what scripts/package makes (no container engine needed to check that).
dockerfile="$root/packaging/Dockerfile"
while read -r source; do
    file=${source//\$\{VERSION\}/$version}
    [ -f "$root/$file" ] || { echo "package-check: packaging/Dockerfile copies $file, which scripts/package did not make" >&2; exit 1; }
done < <(awk '$1 == "COPY" {print $2}' "$dockerfile")
default=$(awk -F= '$1 == "ARG VERSION" {print $2}' "$dockerfile")
[ "$default" = "$version" ] || { echo "package-check: packaging/Dockerfile's VERSION is $default, the package's $version" >&2; exit 1; }
echo "package-check: packaging/Dockerfile copies $(awk '$1 == "COPY" {print $2}' "$dockerfile" | sed "s/\${VERSION}/$version/g")" >&2
