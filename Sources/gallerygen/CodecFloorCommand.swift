import ArgumentParser
import Benchmarking
import Configuration
import Foundation
import GalleryCore

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

    /// The same rendition flags as `build`, checked the same way.
    @OptionGroup var renditions: RenditionOptions

    func run() throws {
        var values = Settings()
        do {
            try SettingFlags.apply(givenSettingFlags(renditions), to: &values)
        } catch {
            throw ValidationFailure(message: error.description)
        }
        let settings = BuildSettings(source: URL(fileURLWithPath: source), output: URL(fileURLWithPath: "/nonexistent"), values: values)
        let result = try CodecFloor.measure(source: settings.source, settings: settings)
        print(String(format: "photos %d decode_cpu_s %.3f encode_cpu_s %.3f", result.photos, result.decodeSeconds, result.encodeSeconds))
    }
}
