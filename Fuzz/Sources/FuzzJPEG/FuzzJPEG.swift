import FuzzSupport
import GalleryCore
import Imaging

/// The JPEG paths on arbitrary bytes: libjpeg's header reader and a 1/8-scale
/// RGBA decode through the setjmp error trap, then (for what that accepts)
/// the planar path the build uses: streamed raw planes, the plane resampler
/// and both planar encoders.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEG(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    guard let decoded = try? JPEGCodec.decode(bytes, scaleDenominator: 8, maximumPixels: 1 << 22) else { return 0 }
    // At 1/8 the stored size is at most 8× each side: a bound that keeps the
    // build's pixel guard honest.
    let stored = PixelSize(width: decoded.image.width * 8, height: decoded.image.height * 8)
    let jobs = [OutputFormat.jpeg, .webp].map { format in
        RenditionJob(spec: RenditionSpec(role: .thumbnail, box: PixelSize(width: 16, height: 12), encoding: .still(format, quality: 80)),
                     size: PixelSize(width: 16, height: 12))
    }
    _ = try? RenditionMaker.make(bytes, format: .jpeg, storedSize: stored, orientation: .right, jobs: jobs, maximumPixels: 1 << 28)
    return 0
}


/// The entry point SwiftPM expects (`FuzzJPEG_main`): hands control to libFuzzer.
@_cdecl("FuzzJPEG_main")
public func fuzzJPEGMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzzJPEG)
}
