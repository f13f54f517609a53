import FuzzSupport

/// The TIFF path on arbitrary bytes: the directory walk, the compact EXIF
/// block it builds for libexif, and libtiff's RGBA reader (every layout and
/// codec libtiff has) into a small, turned rendition.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTIFF(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzzStillPath(UnsafeRawBufferPointer(start: data, count: size), fileName: "fuzz.tif", format: .tiff, output: .jpeg)
    return 0
}

/// The entry point SwiftPM expects (`FuzzTIFF_main`): hands control to libFuzzer.
@_cdecl("FuzzTIFF_main")
public func fuzzTIFFMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzzTIFF)
}
