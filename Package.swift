// swift-tools-version:6.0
import PackageDescription

// Layout, in pipeline order (README → Layout, docs/architecture.md):
//
//   gallerygen (CLI) → GalleryKit (the build: named steps over one context)
//     Scanning → Metadata → Imaging → Planning → Rendering → SiteOutput
//     beside them: Configuration (gallery.yml, album.yml), Video (ffmpeg and
//     ffprobe, the one module that runs programs), Archives (album ZIPs),
//     Sealing (private albums: keys, encryption, opaque names; swift-crypto)
//   Containers: byte-level readers of file containers (HEIF boxes), shared by
//     Metadata and Imaging
//   GalleryCore: plain values (settings, items, metadata, renditions, hashes)
//
// Stages never import each other, with one exception that runs downstream:
// Rendering reads Planning's plan. C libraries are reached only from Metadata
// (headers: libexif, libwebp's demuxer, libheif, libraw; the place table) or
// Imaging (pixels, and the resampler's C kernels). Benchmarking (the codec
// floor) is used by the CLI's hidden `codec-floor` command, not by the
// pipeline. Every edge below is one the code uses.
let package = Package(
    name: "gallerygen",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "gallerygen", targets: ["gallerygen"]),
        // The parsing and decoding engine, for the fuzz targets in Fuzz/.
        .library(name: "GalleryEngine", targets: ["GalleryCore", "Containers", "Metadata", "Imaging"]),
    ],
    dependencies: [
        // CLI flags, --help and --version.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // YAML for gallery.yml and album.yml, with line numbers for errors.
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        // ZIP archives of albums (`album_downloads`): stored entries, ZIP64 past 4 GB.
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.19"),
        // Private albums: AES-256-GCM, HMAC-SHA256 names and PBKDF2 (in _CryptoExtras), BoringSSL underneath.
        .package(url: "https://github.com/apple/swift-crypto", from: "4.0.0"),
        // `gallerygen serve`: HTTP/1.1 in pure Swift over plain sockets (no SwiftNIO to build).
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.0"),
    ],
    targets: [
        .executableTarget(
            name: "gallerygen",
            dependencies: [
                "GalleryKit",
                "GalleryCore",
                "Configuration",
                "Benchmarking",
                "Preview",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(
            name: "GalleryKit",
            dependencies: ["GalleryCore", "Scanning", "Metadata", "Imaging", "Faces", "Planning", "Rendering", "SiteOutput", "Configuration", "Video",
                           "Archives", "Sealing"]
        ),
        .target(name: "Configuration", dependencies: ["GalleryCore", .product(name: "Yams", package: "Yams")]),
        .target(name: "GalleryCore"),
        .target(name: "Scanning", dependencies: ["GalleryCore"]),
        .target(name: "Metadata", dependencies: ["GalleryCore", "Containers", "CExif", "CWebP", "CHEIF", "CJXL", "CRaw", "CPlaces"]),
        .target(name: "Imaging", dependencies: ["GalleryCore", "Containers", "CJPEG", "CWebP", "CGIF", "CPNG", "CHEIF", "CJXL", "CTIFF", "CRaw", "CResample", "CAVIF"]),
        // The site's plan: albums assembled, the moments timeline, pages cut
        // and placed, each page's fingerprint. Plain values in, plain values out.
        .target(name: "Planning", dependencies: ["GalleryCore"]),
        // Pages from the plan: Rendering reads Planning's values, never the reverse.
        .target(
            name: "Rendering",
            dependencies: ["GalleryCore", "Planning"],
            plugins: ["EmbedAssets"]
        ),
        // The one owner of OUT: checks, lock, journal, atomic writes, the build state, pruning.
        .target(name: "SiteOutput", dependencies: ["GalleryCore", "CLinuxFiles"]),
        // Private albums: the one module that holds keys and encrypts (pages,
        // renditions, downloads), and names a private album's files opaquely.
        .target(name: "Sealing", dependencies: ["GalleryCore", .product(name: "Crypto", package: "swift-crypto"),
                                                .product(name: "_CryptoExtras", package: "swift-crypto")]),
        // `gallerygen serve`: OUT served as a static host would, pages reloaded after each build.
        // FlyingFox's proxy handler (unused here) brings in FoundationNetworking, which a
        // --static-swift-stdlib link resolves against the system's libcurl.
        .target(name: "Preview", dependencies: [.product(name: "FlyingFox", package: "FlyingFox")],
                linkerSettings: [.linkedLibrary("curl", .when(platforms: [.linux]))]),
        // Album downloads: the one module that writes ZIP archives.
        .target(name: "Archives", dependencies: ["GalleryCore", .product(name: "ZIPFoundation", package: "ZIPFoundation")]),
        // Videos: the one module that starts other programs (ffprobe, ffmpeg),
        // with wall-clock and memory limits and failures named like a bad file's.
        .target(name: "Video", dependencies: ["GalleryCore"]),
        // Container parsers both Metadata and Imaging read (HEIF boxes, bounded byte reading).
        .target(name: "Containers", dependencies: ["GalleryCore"]),
        .target(name: "Benchmarking", dependencies: ["GalleryCore", "Scanning", "Metadata", "Imaging"]),
        // Faces found on the build machine (`faces: auto`): the detector and
        // describer over pixels Imaging decoded, the grouping into people,
        // and the faces' table in the state folder.
        .target(name: "Faces", dependencies: ["GalleryCore", "CFaceEngine"]),
        // dlib's HOG detector, 5-point aligner and ResNet describer behind a C
        // interface: the network in one C++ unit (its templates cost ~30 s and
        // 1.2 GB to compile), always optimised (dlib at -O0 is 50× slower);
        // zlib's Adler-32 sums the models' cache in the state folder.
        .target(name: "CFaceEngine", cxxSettings: [.unsafeFlags(["-O2", "-UDEBUG"])],
                linkerSettings: [.linkedLibrary("dlib"), .linkedLibrary("lapack"), .linkedLibrary("blas"), .linkedLibrary("z")]),
        // copy_file_range and renameat2, which Swift's Glibc does not declare: the state's commit (SiteOutput only).
        .target(name: "CLinuxFiles"),
        .target(name: "CJPEG", linkerSettings: [.linkedLibrary("jpeg")]),
        // The resampler's inner loops: AVX2+FMA / SSE2 / portable C, chosen by the CPU at run time (Imaging only).
        .target(name: "CResample", cSettings: [.unsafeFlags(["-O3"])]),
        // GeoNames' towns and cities for `moment_places`, embedded (#embed) in the binary.
        .target(name: "CPlaces", exclude: ["cities1000.bin", "GEONAMES.md"]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CExif", pkgConfig: "libexif", providers: [.apt(["libexif-dev"])]),
        .systemLibrary(name: "CGIF", providers: [.apt(["libgif-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        // HEIC/HEIF/AVIF (HEVC via libde265, AV1 via dav1d/aom, pulled in by libheif1).
        .systemLibrary(name: "CHEIF", pkgConfig: "libheif", providers: [.apt(["libheif-dev"])]),
        .systemLibrary(name: "CJXL", pkgConfig: "libjxl", providers: [.apt(["libjxl-dev"])]),
        // AVIF renditions (`formats: [avif, webp]`): libavif with its AV1 encoders (aom, SVT-AV1, rav1e).
        .systemLibrary(name: "CAVIF", pkgConfig: "libavif", providers: [.apt(["libavif-dev"])]),
        .systemLibrary(name: "CTIFF", pkgConfig: "libtiff-4", providers: [.apt(["libtiff-dev"])]),
        // libraw_r, the thread-safe build; linked by name because its .pc adds
        // -fopenmp, which the Swift driver does not take.
        .systemLibrary(name: "CRaw", providers: [.apt(["libraw-dev"])]),
        // Embeds Templates/ and Themes/ into the binary so an installed
        // gallerygen works from any directory without a resource bundle.
        .executableTarget(name: "EmbedAssetsTool", path: "Sources/EmbedAssetsTool"),
        .plugin(name: "EmbedAssets", capability: .buildTool(), dependencies: ["EmbedAssetsTool"]),
        // What the test targets share: fixture generators (JPEG/PNG/WebP/GIF/TIFF
        // bytes with EXIF, camera files), a temporary folder, the built binary.
        .target(name: "GalleryTestSupport", dependencies: ["GalleryCore", "Imaging"], path: "Tests/GalleryTestSupport"),
        // Tests by layer, each on the modules it tests: values and the plan,
        // media in and out, pages, and the pipeline end to end (the binary too).
        .testTarget(name: "CoreTests", dependencies: ["GalleryTestSupport", "GalleryCore", "Planning", "Rendering", "SiteOutput"]),
        .testTarget(name: "MediaTests", dependencies: ["GalleryTestSupport", "GalleryCore", "Containers", "Imaging", "Metadata", "CResample"],
                    // Read through #filePath, not as bundle resources.
                    exclude: ["Regressions", "JPEGVariants"]),
        .testTarget(name: "PreviewTests", dependencies: ["GalleryTestSupport", "Preview"]),
        // The faces stage on real face photos (scripts/face-photos.sh) with the real models.
        .testTarget(name: "FacesTests", dependencies: ["GalleryTestSupport", "GalleryCore", "Imaging", "Metadata", "Faces"]),
        .testTarget(name: "PageTests", dependencies: ["GalleryTestSupport", "GalleryCore", "Planning", "Rendering"]),
        .testTarget(
            name: "PipelineTests",
            dependencies: ["GalleryTestSupport", "GalleryKit", "GalleryCore", "Scanning", "Metadata", "Imaging", "Faces", "Containers", "Planning", "Rendering",
                           "SiteOutput", "Configuration", "Video", "Archives", "Sealing", .product(name: "Yams", package: "Yams")]
        ),
    ]
)
