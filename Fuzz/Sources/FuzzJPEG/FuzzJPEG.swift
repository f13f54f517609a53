import Imaging

/// The JPEG path: libjpeg's header reader and a 1/8-scale decode through the
/// setjmp error trap, on arbitrary bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEG(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    _ = try? JPEGCodec.decode(bytes, scaleDenominator: 8, maximumPixels: 1 << 22)
    return 0
}

/// SwiftPM renames an executable's entry point to `FuzzJPEG_main`; it hands
/// control to libFuzzer's driver with the function above.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                     _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt

@_cdecl("FuzzJPEG_main")
public func fuzzJPEGMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments, fuzzJPEG)
}
