import Foundation
import GalleryCore
import Imaging
import Metadata

/// The still-photo path the build takes, on arbitrary bytes named
/// `fileName`: the metadata read, then (for what that accepts as `format`,
/// within a pixel limit that keeps each run quick) one small, turned
/// rendition in `output`.
public func fuzzStillPath(_ bytes: UnsafeRawBufferPointer, fileName: String, format: SourceFormat, output: OutputFormat) {
    guard let metadata = try? MetadataReader.read(bytes, fileName: fileName, modificationDate: Date(timeIntervalSince1970: 0)),
          metadata.format == format, metadata.storedSize.area <= 1 << 22 else { return }
    let box = PixelSize(width: 16, height: 12)
    let job = RenditionJob(spec: RenditionSpec(role: .thumbnail, box: box, encoding: .still(output, quality: 80)),
                           size: metadata.displaySize.fitting(in: box))
    _ = try? RenditionMaker.make(bytes, format: format, storedSize: metadata.storedSize, orientation: metadata.orientation,
                                 jobs: [job], maximumPixels: 1 << 22)
}
