import ArgumentParser
import GalleryCore

/// The rendition flags `build` and `codec-floor` share, so the benchmark's
/// floor is measured with exactly the settings a build would use.
struct RenditionOptions: ParsableArguments {
    @Option(help: "Rendition format: webp or jpeg (default: webp).")
    var format: OutputFormat?

    @Option(help: "Encoder quality 1-100 (default: 85).")
    var quality: Int?

    @Option(name: .customLong("thumbnail-size"), help: "Thumbnail bounding boxes, WxH[,WxH…]; each is one srcset candidate.")
    var thumbnailSize: BoxList?

    @Option(name: .customLong("preview-size"), help: "Preview bounding boxes, WxH[,WxH…]; each is one srcset candidate.")
    var previewSize: BoxList?

    func validate() throws {
        if let quality, !(1...100).contains(quality) { throw ValidationError("--quality must be between 1 and 100") }
    }
}
