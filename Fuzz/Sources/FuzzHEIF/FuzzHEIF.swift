import Foundation
import FuzzSupport
import GalleryCore
import Imaging
import Metadata

/// The HEIF/AVIF path on arbitrary bytes: the header read (libheif's box
/// parser, the primary image's size, the Exif item and the EXIF reader), then
/// for what that accepts a decode (libde265/dav1d through libheif) into a
/// small rendition, under a pixel limit that keeps each run quick.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHEIF(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    guard let metadata = try? MetadataReader.read(bytes, fileName: "fuzz.heic", modificationDate: Date(timeIntervalSince1970: 0)),
          metadata.format == .heif, metadata.storedSize.area <= 1 << 22 else { return 0 }
    let job = RenditionJob(spec: RenditionSpec(role: .thumbnail, box: PixelSize(width: 16, height: 12), format: .webp, quality: 80),
                           size: metadata.displaySize.fitting(in: PixelSize(width: 16, height: 12)))
    _ = try? RenditionMaker.make(bytes, format: .heif, storedSize: metadata.storedSize, orientation: metadata.orientation,
                                 jobs: [job], maximumPixels: 1 << 22)
    return 0
}

/// The entry point SwiftPM expects (`FuzzHEIF_main`): hands control to libFuzzer.
@_cdecl("FuzzHEIF_main")
public func fuzzHEIFMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzzHEIF)
}
