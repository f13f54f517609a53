import Foundation
import GalleryCore

extension BuildSettings {
    /// Settings for tests: the values they care about set in code, the rest at
    /// their schema defaults.
    public init(source: URL, output: URL, title: String? = nil, thumbnailBoxes: [PixelSize]? = nil, previewBoxes: [PixelSize]? = nil,
         format: OutputFormat? = nil, quality: Int? = nil, jobs: Int? = nil, maximumPixels: Int? = nil,
         maximumAnimationPixels: Int? = nil) {
        self.init(source: source, output: output)
        if let title { self.title = title }
        if let thumbnailBoxes { self.thumbnailBoxes = thumbnailBoxes }
        if let previewBoxes { self.previewBoxes = previewBoxes }
        if let format { self.formats = [format] }
        if let quality { self.quality = quality }
        if let jobs { self.jobs = jobs }
        if let maximumPixels { self.maxMegapixels = Double(maximumPixels) / 1_000_000 }
        if let maximumAnimationPixels { self.maxAnimationMegapixels = Double(maximumAnimationPixels) / 1_000_000 }
    }
}
