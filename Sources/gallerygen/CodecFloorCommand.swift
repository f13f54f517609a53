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

    @OptionGroup var renditions: RenditionOptions

    func run() throws {
        let settings = BuildSettings(source: URL(fileURLWithPath: source), output: URL(fileURLWithPath: "/nonexistent"),
                                     thumbnailBoxes: renditions.thumbnailSize?.boxes, previewBoxes: renditions.previewSize?.boxes,
                                     format: renditions.format, quality: renditions.quality)
        let result = try CodecFloor.measure(source: settings.source, settings: settings)
        print(String(format: "photos %d decode_cpu_s %.3f encode_cpu_s %.3f", result.photos, result.decodeSeconds, result.encodeSeconds))
    }
}
