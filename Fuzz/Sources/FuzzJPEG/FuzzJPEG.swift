import FuzzSupport
import Imaging

/// The JPEG path: libjpeg's header reader and a 1/8-scale decode through the
/// setjmp error trap, on arbitrary bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEG(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    _ = try? JPEGCodec.decode(bytes, scaleDenominator: 8, maximumPixels: 1 << 22)
    return 0
}


/// The entry point SwiftPM expects (`FuzzJPEG_main`): hands control to libFuzzer.
@_cdecl("FuzzJPEG_main")
public func fuzzJPEGMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzzJPEG)
}
