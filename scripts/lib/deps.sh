# Sourced by scripts/test, scripts/run, scripts/bench: installs what pekit needs to build and test
# on Debian when it is missing. Everything comes from Debian's packages.

# pkg-config modules pekit links against, and the Debian packages that provide them.
PEKIT_PKGCONFIG="lua5.4 libedit libcurl libcrypto zlib libbrotlidec libzstd libxml-2.0"
PEKIT_BUILD_PACKAGES="pkg-config liblua5.4-dev libedit-dev libcurl4-openssl-dev libssl-dev zlib1g-dev libbrotli-dev libzstd-dev libxml2-dev"
# What the tests drive: a real terminal for the REPL, the plain Lua interpreter, the public
# suffix list for cookies, curl to write a real cookies.txt, python3 and openssl for the local
# HTTP/HTTPS test server and its certificates, nghttpd for HTTP/2, tap.py and xmlschema to read
# pekit test's TAP and check its JUnit XML against the schema Jenkins reads, man-db to render the
# man page, chromium (headless) to render pekit test's HTML report, Flask for Hurl's test server,
# wrk to load pekit serve, and the real servers the server models are held to live (PHP, Rack and
# WEBrick, Go, node's qs and cookie).
PEKIT_TEST_PACKAGES="tmux lua5.4 curl python3 openssl nghttp2-server python3-tap python3-more-itertools python3-yaml python3-xmlschema python3-flask man-db groff-base chromium wrk php-cli ruby-rack ruby-webrick golang-go nodejs node-qs node-cookie"

pekit_missing_packages() {
    local missing=""
    if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists $PEKIT_PKGCONFIG 2>/dev/null; then
        missing="$PEKIT_BUILD_PACKAGES"
    fi
    # Cookie jars check Domain attributes against Debian's copy of the public suffix list.
    [ -f /usr/share/publicsuffix/public_suffix_list.dat ] || missing="$missing publicsuffix"
    if [ "${1:-}" = bench ]; then
        [ -f /usr/share/nodejs/qs/package.json ] || missing="$missing node-qs"
        command -v lua5.4 >/dev/null 2>&1 || missing="$missing lua5.4"
        command -v curl >/dev/null 2>&1 || missing="$missing curl"
        python3 -c 'import requests' >/dev/null 2>&1 || missing="$missing python3-requests"
        # The HTTP client figures are taken against nginx on loopback (a server that costs nothing).
        [ -x /usr/sbin/nginx ] || command -v nginx >/dev/null 2>&1 || missing="$missing nginx-light"
        # pekit load's peers (issue 75): wrk and hey from Debian, locust from PyPI (scripts/bench).
        command -v wrk >/dev/null 2>&1 || missing="$missing wrk"
        command -v hey >/dev/null 2>&1 || missing="$missing hey"
        # ICU, the IDNA figures' yardstick (scripts/bench-tools/idna_icu.c); pekit itself uses none.
        [ -f /usr/include/unicode/uidna.h ] || missing="$missing libicu-dev"
        # ada (C++20), the URL figures' yardstick, built from PyPI's ada-url wheel by section_9_urls.py.
        command -v c++ >/dev/null 2>&1 || missing="$missing g++"
    fi
    # The examples run against the bundled local server (Python, with openssl for HTTPS).
    if [ "${1:-}" = test ] || [ "${1:-}" = examples ]; then
        command -v python3 >/dev/null 2>&1 || missing="$missing python3"
        command -v openssl >/dev/null 2>&1 || missing="$missing openssl"
    fi
    if [ "${1:-}" = test ]; then
        # An HTTP/2 server for the HTTP/2 test.
        command -v nghttpd >/dev/null 2>&1 || [ -x /usr/sbin/nghttpd ] || missing="$missing nghttp2-server"
        command -v tmux >/dev/null 2>&1 || missing="$missing tmux"
        command -v lua5.4 >/dev/null 2>&1 || missing="$missing lua5.4"
        command -v curl >/dev/null 2>&1 || missing="$missing curl"
        # pekit test's reports, read by their consumers (Debian's python3: another python3 may come first on PATH).
        /usr/bin/python3 -c 'import tap' >/dev/null 2>&1 || missing="$missing python3-tap"
        # (tap.py reads TAP 13's YAML blocks only with these two.)
        /usr/bin/python3 -c 'import more_itertools, yaml' >/dev/null 2>&1 || missing="$missing python3-more-itertools python3-yaml"
        /usr/bin/python3 -c 'import xmlschema' >/dev/null 2>&1 || missing="$missing python3-xmlschema"
        # Hurl's own integration cases answer from its Flask routes.
        /usr/bin/python3 -c 'import flask' >/dev/null 2>&1 || missing="$missing python3-flask"
        # The man page is rendered by man-db (and groff) to check it has no warnings.
        command -v man >/dev/null 2>&1 && command -v groff >/dev/null 2>&1 || missing="$missing man-db groff-base"
        # pekit test's HTML report is checked in a real browser.
        command -v chromium >/dev/null 2>&1 || missing="$missing chromium"
        # pekit serve under load: no request lost to wrk's 50 connections.
        command -v wrk >/dev/null 2>&1 || missing="$missing wrk"
        # The real servers, run on new random inputs each time (LiveServerDifferentialTests).
        command -v php >/dev/null 2>&1 || missing="$missing php-cli"
        ruby -e 'require "rack"; require "webrick"' >/dev/null 2>&1 || missing="$missing ruby-rack ruby-webrick"
        command -v go >/dev/null 2>&1 || missing="$missing golang-go"
        command -v node >/dev/null 2>&1 || missing="$missing nodejs"
        [ -f /usr/share/nodejs/qs/package.json ] || missing="$missing node-qs"
        [ -f /usr/share/nodejs/cookie/package.json ] || missing="$missing node-cookie"
    fi
    echo $missing
}

# pekit_ensure_deps [test|bench]: installs what is missing, or says the exact command and fails.
pekit_ensure_deps() {
    local missing
    missing=$(pekit_missing_packages "${1:-}")
    [ -z "$missing" ] && return 0
    local cmd="apt-get update && apt-get install -y --no-install-recommends $missing"
    if [ "$(id -u)" != 0 ]; then
        if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
            cmd="sudo sh -c '$cmd'"
        else
            echo "pekit needs these Debian packages: $missing" >&2
            echo "install them as root with:  $cmd" >&2
            return 1
        fi
    fi
    echo "installing: $missing" >&2
    if ! sh -c "DEBIAN_FRONTEND=noninteractive $cmd" >/tmp/pekit-apt.log 2>&1; then
        echo "installing failed; the log is /tmp/pekit-apt.log:" >&2
        tail -20 /tmp/pekit-apt.log >&2
        return 1
    fi
}

pekit_root() { cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd; }

# The release build users run and install: the Swift runtime and Foundation linked into the
# binary (--static-swift-stdlib), so a command starts in about half the time (no dynamic loading
# of a dozen Swift libraries; BENCHMARKS.md, "Containment and start-up") and an installed pekit
# needs no Swift toolchain beside it. Output goes to /tmp/pekit-build.log; the tail is shown on failure.
# The release build: the Swift runtime linked in, and the executable not position-independent,
# so the loader has far fewer relocations to apply at every start (issue 47: -0.7 ms of
# `pekit --version`'s 4 ms, same run). The libraries it loads are shared objects as ever.
# Generic metadata for the concrete types the code names is also emitted prespecialized
# (-prespecialize-generic-metadata), so the first use of each is a lookup, not an instantiation
# from its mangled name (about 0.1 ms of `pekit run`'s start, the same run). No $ORIGIN run path
# (--disable-local-rpath): pekit loads only the system's libraries, and with one the loader
# first tried each of them in a dozen subdirectories beside the binary (20 failed system calls).
# The C++ runtime the Swift runtime needs (libstdc++) and the unwinder (libgcc_s) are linked in
# too, from GCC's static archives (Debian's libstdc++-12-dev and libgcc-12-dev, which the Swift
# toolchain requires; the GCC Runtime Library Exception allows it): loading libstdc++.so and
# libgcc_s.so, with their thousands of symbol relocations, was a third of a Swift hello's start
# (2.1 -> 1.3 ms, same run). swiftc's -L directories come before the system's, so -lstdc++ and
# -lgcc_s find the archives there. Without the archives the build links the shared libraries.
pekit_static_runtime_flags() {
    local dir cxx eh
    dir="$(pekit_root)/.build/static-runtime"
    cxx=$(clang -print-file-name=libstdc++.a 2>/dev/null)
    eh=$(clang -print-file-name=libgcc_eh.a 2>/dev/null)
    # (-print-file-name echoes the bare name back when it finds no such file.)
    [ -f "$cxx" ] && [ -f "$eh" ] || return 0
    mkdir -p "$dir" && ln -sfn "$cxx" "$dir/libstdc++.a" && ln -sfn "$eh" "$dir/libgcc_s.a" && echo "-Xswiftc -Xclang-linker -Xswiftc -L$dir"
}

pekit_release_build() {
    local runtime
    runtime=$(pekit_static_runtime_flags)
    (cd "$(pekit_root)" && swift build -c release --static-swift-stdlib --disable-local-rpath -Xswiftc -Xclang-linker -Xswiftc -no-pie \
        -Xswiftc -Xfrontend -Xswiftc -prespecialize-generic-metadata $runtime "$@" >/tmp/pekit-build.log 2>&1) || { tail -30 /tmp/pekit-build.log >&2; return 1; }
}
