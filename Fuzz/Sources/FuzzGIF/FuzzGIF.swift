import FuzzSupport
import Imaging

/// The GIF decoder and compositor on arbitrary bytes, with a small pixel limit
/// so the fuzzer explores structure rather than allocation.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGIF(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    var frames = 0
    _ = try? GIFAnimation.forEachFrame(bytes, maximumPixels: 1 << 20, frameLimit: 64) { image, _ in
        frames += image.width > 0 ? 1 : 0
    }
    return 0
}


/// The entry point SwiftPM expects (`FuzzGIF_main`): hands control to libFuzzer.
@_cdecl("FuzzGIF_main")
public func fuzzGIFMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzzGIF)
}
