// swift-tools-version:6.0
import PackageDescription

// libFuzzer targets, kept in their own package so an ordinary `swift build` of
// gallerygen never links them (they have no main: libFuzzer provides it).
// Build and run with scripts/fuzz.sh.
let fuzzFlags: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]

let package = Package(
    name: "gallerygen-fuzz",
    dependencies: [.package(name: "gallerygen", path: "..")],
    targets: [
        .target(name: "FuzzSupport", dependencies: [.product(name: "GalleryEngine", package: "gallerygen")]),
        .executableTarget(name: "FuzzMetadata", dependencies: ["FuzzSupport", .product(name: "GalleryEngine", package: "gallerygen")],
                          swiftSettings: fuzzFlags),
        .executableTarget(name: "FuzzGIF", dependencies: ["FuzzSupport", .product(name: "GalleryEngine", package: "gallerygen")],
                          swiftSettings: fuzzFlags),
        .executableTarget(name: "FuzzHEIF", dependencies: ["FuzzSupport"],
                          swiftSettings: fuzzFlags),
        .executableTarget(name: "FuzzJXL", dependencies: ["FuzzSupport"],
                          swiftSettings: fuzzFlags),
        .executableTarget(name: "FuzzTIFF", dependencies: ["FuzzSupport"],
                          swiftSettings: fuzzFlags),
        .executableTarget(name: "FuzzJPEG", dependencies: ["FuzzSupport", .product(name: "GalleryEngine", package: "gallerygen")],
                          swiftSettings: fuzzFlags),
    ]
)
