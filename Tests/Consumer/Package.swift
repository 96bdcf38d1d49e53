// swift-tools-version:6.0
// A package that uses pekit as a Swift developer's would: by path, in Swift 6 language mode
// (the tools version's default), every warning an error. ConsumerPackageTests builds and runs it.
import PackageDescription

// Stand-ins for the libraries an app uses beside pekit: each declares the top-level type names
// of the real one (scripts/ecosystem-names generates them from the libraries' sources).
let standIns = ["Alamofire", "AsyncHTTPClient", "Firebase", "HTTPTypes", "NIO", "SwiftyJSON"]

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
                .product(name: "PekitHTTPFoundation", package: "pekit"),
                .product(name: "PekitCryptoFoundation", package: "pekit"),
            ] + standIns.map { .target(name: $0) }
        ),
    ] + standIns.map { .target(name: $0) }
)
