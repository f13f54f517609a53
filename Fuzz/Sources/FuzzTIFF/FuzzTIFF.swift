import Foundation
import FuzzSupport
import GalleryCore
import Imaging
import Metadata

/// The TIFF path on arbitrary bytes: the directory walk, the compact EXIF
/// block it builds for libexif, and libtiff's RGBA reader (every layout and
/// codec libtiff has) into a small, turned rendition.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTIFF(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    guard let metadata = try? MetadataReader.read(bytes, fileName: "fuzz.tif", modificationDate: Date(timeIntervalSince1970: 0)),
          metadata.format == .tiff, metadata.storedSize.area <= 1 << 22 else { return 0 }
    let job = RenditionJob(spec: RenditionSpec(role: .thumbnail, box: PixelSize(width: 16, height: 12), format: .jpeg, quality: 80),
                           size: metadata.displaySize.fitting(in: PixelSize(width: 16, height: 12)))
    _ = try? RenditionMaker.make(bytes, format: .tiff, storedSize: metadata.storedSize, orientation: metadata.orientation,
                                 jobs: [job], maximumPixels: 1 << 22)
    return 0
}

/// The entry point SwiftPM expects (`FuzzTIFF_main`): hands control to libFuzzer.
@_cdecl("FuzzTIFF_main")
public func fuzzTIFFMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzzTIFF)
}
