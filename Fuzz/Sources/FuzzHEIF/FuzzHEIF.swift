import FuzzSupport

/// The HEIF/AVIF path on arbitrary bytes: the header read (libheif's box
/// parser, the primary image's size, the coded-size check, the Exif item and
/// the EXIF reader), then for what that accepts a decode (libde265/dav1d
/// through libheif, planar or RGB) into a small rendition.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHEIF(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzzStillPath(UnsafeRawBufferPointer(start: data, count: size), fileName: "fuzz.heic", format: .heif, output: .webp)
    return 0
}

/// The entry point SwiftPM expects (`FuzzHEIF_main`): hands control to libFuzzer.
@_cdecl("FuzzHEIF_main")
public func fuzzHEIFMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzzHEIF)
}
