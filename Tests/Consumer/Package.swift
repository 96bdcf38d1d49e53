// swift-tools-version:6.0
// A package that uses pekit as a Swift developer's would: by path, in Swift 6 language mode
// (the tools version's default), every warning an error. ConsumerPackageTests builds and runs it.
import PackageDescription

let package = Package(
    name: "consumer",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "pekit", path: "../..")],
    targets: [
        .executableTarget(
            name: "consumer",
            dependencies: [
                .product(name: "PekitCore", package: "pekit"),
                .product(name: "PekitHTTP", package: "pekit"),
                .product(name: "PekitCrypto", package: "pekit"),
                .product(name: "PekitFoundation", package: "pekit"),
                "Ecosystem",
            ]
        ),
        // Names other HTTP libraries declare (Sources/Ecosystem/Names.swift).
        .target(name: "Ecosystem"),
    ]
)
