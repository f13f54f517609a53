import ArgumentParser
import Foundation
import GalleryCore
import GalleryKit

/// `gallerygen codec-floor SOURCE`: prints the decode and encode CPU time of a
/// library, the lower bound the benchmark compares builds with.
struct CodecFloorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "codec-floor",
        abstract: "Measure libjpeg-turbo decode (at the chosen DCT scale) and encode time for a library (used by scripts/bench.py).",
        shouldDisplay: false
    )

    @Argument(help: "The folder of photos.")
    var source: String

    @Option(help: "Rendition format: webp or jpeg.")
    var format: OutputFormat = .webp

    @Option(help: "Encoder quality 1-100 (default: 85).")
    var quality: Int?

    @Option(name: .customLong("thumbnail-size"), help: "Thumbnail boxes, WxH[,WxH…].")
    var thumbnailSize: BoxList?

    @Option(name: .customLong("preview-size"), help: "Preview boxes, WxH[,WxH…].")
    var previewSize: BoxList?

    func run() throws {
        let settings = BuildSettings(source: URL(fileURLWithPath: source), output: URL(fileURLWithPath: "/nonexistent"),
                                     thumbnailBoxes: thumbnailSize?.boxes ?? BuildSettings.defaultThumbnailBoxes,
                                     previewBoxes: previewSize?.boxes ?? BuildSettings.defaultPreviewBoxes, format: format,
                                     quality: quality)
        let result = try CodecFloor.measure(source: settings.source, settings: settings)
        print(String(format: "photos %d decode_cpu_s %.3f encode_cpu_s %.3f", result.photos, result.decodeSeconds, result.encodeSeconds))
    }
}
