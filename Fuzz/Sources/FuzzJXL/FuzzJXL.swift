import FuzzSupport

/// The JPEG XL path on arbitrary bytes: the header and metadata boxes read
/// through libjxl (Brotli-compressed ones unpacked) and the EXIF reader, then
/// for what that accepts a decode through libjxl into a small rendition.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJXL(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzzStillPath(UnsafeRawBufferPointer(start: data, count: size), fileName: "fuzz.jxl", format: .jxl, output: .webp)
    return 0
}

/// The entry point SwiftPM expects (`FuzzJXL_main`): hands control to libFuzzer.
@_cdecl("FuzzJXL_main")
public func fuzzJXLMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzzJXL)
}
