// swift-tools-version:5.9
import PackageDescription

let package = Package(
    name: "pekit",
    // PekitCore uses Swift 5.7's string algorithms (macOS 13's standard library). On Apple
    // platforms only PekitCore builds as it is (PekitHTTP and PekitCrypto load Debian's libcurl
    // and libcrypto; the command line and PekitLua want Lua 5.4 and libedit): docs/swift.md says so.
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "PekitCore", targets: ["PekitCore"]),
        .library(name: "PekitHTTP", targets: ["PekitHTTP"]),
        .library(name: "PekitCrypto", targets: ["PekitCrypto"]),
        .library(name: "PekitFoundation", targets: ["PekitFoundation"]),
        .library(name: "PekitHTTPFoundation", targets: ["PekitHTTPFoundation"]),
        .library(name: "PekitCryptoFoundation", targets: ["PekitCryptoFoundation"]),
        .library(name: "PekitLua", targets: ["PekitLua"]),
        .executable(name: "pekit", targets: ["pekit"]),
    ],
    targets: [
        // Lua 5.4 from Debian's liblua5.4-dev, found through pkg-config.
        .systemLibrary(
            name: "CLua",
            pkgConfig: "lua5.4",
            providers: [.apt(["liblua5.4-dev"])]
        ),
        // libcurl's headers (OpenSSL flavour) for sending requests. The library itself is loaded
        // by CCurlShim with dlopen on first use, not linked, so start-up does not pay for it.
        .systemLibrary(
            name: "CCurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        // OpenSSL's libcrypto headers (Debian's libssl-dev); the library itself (libssl3) is loaded
        // by CCryptoShim on first use, like libcurl.
        .systemLibrary(
            name: "CCrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .target(name: "CCryptoShim", dependencies: ["CCrypto"], linkerSettings: [.linkedLibrary("dl")]),
        // pekit serve --tls: a certificate made on the spot and TLS on its sockets, libssl and
        // libcrypto loaded on first use.
        .target(name: "CTLSShim", dependencies: ["CCrypto"], linkerSettings: [.linkedLibrary("dl")]),
        // Digests, HMAC and random bytes over libcrypto.
        .target(name: "PekitCrypto", dependencies: ["PekitCore", "CCryptoShim"]),
        // Loads libcurl on first use; typed wrappers for its variadic setopt/getinfo.
        .target(name: "CCurlShim", dependencies: ["CCurl"], linkerSettings: [.linkedLibrary("dl")]),
        // The decoding stages of pekit's own transfer (gzip, deflate, br, zstd): Debian's libz,
        // libbrotlidec and libzstd, loaded with dlopen when a response first needs one (their
        // headers, from zlib1g-dev, libbrotli-dev and libzstd-dev, give the types only).
        .target(name: "CDecodeShim", linkerSettings: [.linkedLibrary("dl")]),
        // XPath over Debian's libxml2, loaded with dlopen when a script first asks (its headers,
        // from libxml2-dev, give the types only: include/libxml links to them).
        .target(name: "CXMLShim", linkerSettings: [.linkedLibrary("dl")]),
        // libedit (BSD licence, Debian's libedit2, which libedit-dev brings) for the REPL's line
        // editing and history, loaded with dlopen when the REPL starts: no other command pays
        // for it and the three libraries it pulls in at start-up.
        .target(name: "CEditShim", linkerSettings: [.linkedLibrary("dl")]),
        // The Lua macros Swift cannot import, the error trampoline and the allocator: the only
        // place that may raise a Lua error.
        .target(name: "CLuaShim", dependencies: ["CLua"]),
        // Swift with no Lua, no Foundation and no I/O beyond files it is asked to read: every C
        // library call is in Sources/PekitCore/Platform (PortableCoreTests). IDNA is its own (UTS46.swift).
        // Percent-encoding and decoding loops in C: scalar, SSSE3 and AVX-512 VBMI2, chosen for
        // the CPU at first use (plain C: no library, no flags; each loop names its instruction set).
        .target(name: "CPercentKernels"),
        .target(name: "PekitCore", dependencies: ["CPercentKernels"]),
        // Sending: PekitCore's requests over libcurl, cookies through the jar, redirects by RFC 9110.
        .target(name: "PekitHTTP", dependencies: ["PekitCore", "CCurl", "CCurlShim", "CDecodeShim", "CTLSShim"]),
        // Opt-in bridges to Foundation, so that the libraries themselves need no Foundation: of
        // PekitCore's types (URLRequest, HTTPCookie, URL, Date, LocalizedError), needing PekitCore
        // alone, so it builds wherever PekitCore does (iOS included; PortableCoreTests); of
        // PekitHTTP's (HTTPURLResponse) and of PekitCrypto's (Date, LocalizedError), each beside
        // the module it bridges.
        .target(name: "PekitFoundation", dependencies: ["PekitCore"]),
        .target(name: "PekitHTTPFoundation", dependencies: ["PekitHTTP", "PekitFoundation", "PekitCore"]),
        .target(name: "PekitCryptoFoundation", dependencies: ["PekitCrypto", "PekitFoundation", "PekitCore"]),
        // The Lua the host runs (the prelude, the test harness) is kept as .lua files and
        // compiled in as bytes: no file is read at run time.
        .target(name: "PekitLua", dependencies: ["PekitCore", "PekitHTTP", "PekitCrypto", "CLua", "CLuaShim", "CXMLShim"],
                resources: [.embedInCode("Lua/prelude.lua")]),
        // What the command line builds on the host, apart from the host a Swift program embeds:
        // the REPL's evaluator, `pekit test`'s runner and harness, the Lua API's reference.
        .target(name: "PekitTools", dependencies: ["PekitLua", "PekitCore", "PekitHTTP", "CLua", "CLuaShim"],
                resources: [.embedInCode("Lua/test_harness.lua"), .embedInCode("Lua/http_file.lua"), .embedInCode("Lua/hurl.lua"), .embedInCode("Lua/postman.lua")]),
        .executableTarget(name: "pekit", dependencies: ["PekitCore", "PekitHTTP", "PekitCrypto", "PekitLua", "PekitTools", "CEditShim"]),
        // Timing harness for scripts/bench: pekit's core against Foundation in one process.
        .executableTarget(name: "pekit-bench", dependencies: ["PekitCore", "PekitCrypto", "PekitHTTP"]),
        // libFuzzer target for the Lua value conversion: scripts/fuzz lua SECONDS. Without main
        // (-parse-as-library) so libFuzzer's own main is used in the fuzz build.
        .executableTarget(name: "pekit-fuzz-lua", dependencies: ["PekitLua", "PekitCore"],
                          resources: [.embedInCode("Lua/hostile_setup.lua"), .embedInCode("Lua/probe.lua")],
                          swiftSettings: [.unsafeFlags(["-parse-as-library"])]),
        // libFuzzer target for the two HTTP/1.1 readers (pekit's and libcurl's) on the same bytes:
        // scripts/fuzz http SECONDS; a plain build compares them over random mutations.
        .executableTarget(name: "pekit-fuzz-http", dependencies: ["PekitHTTP", "PekitCore"],
                          swiftSettings: [.unsafeFlags(["-parse-as-library"])]),
        .testTarget(name: "PekitCoreTests", dependencies: ["PekitCore", "PekitTestSupport"], resources: [.copy("Fixtures")]),
        .testTarget(name: "PekitLuaTests", dependencies: ["PekitLua", "PekitTools", "PekitCore", "PekitCrypto", "PekitTestSupport"], resources: [.copy("Fixtures")]),
        // Starts Tests/Server/pekit_test_server.py (HTTP and HTTPS on 127.0.0.1) for the tests.
        .target(name: "PekitTestSupport", path: "Tests/PekitTestSupport"),
        .testTarget(name: "PekitCryptoTests", dependencies: ["PekitCrypto", "PekitCore", "PekitTestSupport"], resources: [.copy("Fixtures")]),
        .testTarget(name: "PekitHTTPTests", dependencies: ["PekitHTTP", "PekitCore", "PekitTestSupport"], resources: [.copy("Fixtures")]),
        .testTarget(name: "PekitFoundationTests", dependencies: ["PekitFoundation", "PekitHTTPFoundation", "PekitCryptoFoundation", "PekitCore", "PekitHTTP", "PekitCrypto"]),
        // Its fixtures are read from the source tree (#filePath), not bundled.
        .testTarget(name: "PekitCLITests", dependencies: ["PekitTestSupport"], exclude: ["Fixtures"]),
    ]
)
