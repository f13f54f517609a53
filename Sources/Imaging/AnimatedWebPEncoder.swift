import CWebP
import GalleryCore

/// Builds one animated WebP from frames fed one at a time (libwebp's
/// `WebPAnimEncoder` finds the changed sub-rectangles and blending itself).
final class AnimatedWebPEncoder {
    private let encoder: OpaquePointer
    private var config: WebPConfig
    private var timestamp = 0
    let size: PixelSize

    init(size: PixelSize, quality: Int) throws(ImagingError) {
        let config = try WebPCodec.config(quality: quality, method: RenditionEncoder.webpMethod)
        var options = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&options) != 0 else { throw .encodeFailed("libwebp version mismatch") }
        // Let the encoder pick lossy or lossless per frame, whichever is
        // smaller: GIF art (flat palettes, sharp edges) is often smaller and
        // exact as lossless, photos smaller as lossy.
        options.allow_mixed = 1
        guard let encoder = WebPAnimEncoderNew(Int32(size.width), Int32(size.height), &options) else {
            throw .encodeFailed("cannot start the animation encoder")
        }
        self.encoder = encoder
        self.size = size
        self.config = config
    }

    deinit { WebPAnimEncoderDelete(encoder) }

    /// Adds a frame shown for `duration` milliseconds.
    func add(_ frame: RGBAImage, duration: Int) throws(ImagingError) {
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else { throw .encodeFailed("libwebp version mismatch") }
        picture.width = Int32(frame.width)
        picture.height = Int32(frame.height)
        picture.use_argb = 1  // the animation encoder works on ARGB
        defer { WebPPictureFree(&picture) }
        let imported = frame.pixels.withUnsafeBufferPointer { WebPPictureImportRGBA(&picture, $0.baseAddress, Int32(frame.width * 4)) }
        guard imported != 0 else { throw .encodeFailed("out of memory importing a frame") }
        guard WebPAnimEncoderAdd(encoder, &picture, Int32(timestamp), &config) != 0 else {
            throw .encodeFailed(String(cString: WebPAnimEncoderGetError(encoder)))
        }
        timestamp += max(1, duration)
    }

    /// The finished file, playing `loopCount` times (0 = forever).
    func finish(loopCount: Int) throws(ImagingError) -> [UInt8] {
        guard WebPAnimEncoderAdd(encoder, nil, Int32(timestamp), nil) != 0 else {
            throw .encodeFailed(String(cString: WebPAnimEncoderGetError(encoder)))
        }
        var data = WebPData()
        defer { WebPDataClear(&data) }
        guard WebPAnimEncoderAssemble(encoder, &data) != 0 else {
            throw .encodeFailed(String(cString: WebPAnimEncoderGetError(encoder)))
        }
        // Set the loop count in the assembled container.
        guard let mux = WebPMuxCreate(&data, 1) else { throw .encodeFailed("cannot reopen the animation") }
        defer { WebPMuxDelete(mux) }
        var params = WebPMuxAnimParams()
        var output = WebPData()
        defer { WebPDataClear(&output) }
        guard WebPMuxGetAnimationParams(mux, &params) == WEBP_MUX_OK else {
            // Every frame was identical: the encoder merged them into a still.
            guard let bytes = data.bytes else { throw .encodeFailed("empty animation") }
            return Array(UnsafeBufferPointer(start: bytes, count: data.size))
        }
        params.loop_count = Int32(max(0, min(loopCount, 65_535)))
        guard WebPMuxSetAnimationParams(mux, &params) == WEBP_MUX_OK, WebPMuxAssemble(mux, &output) == WEBP_MUX_OK,
              let bytes = output.bytes else { throw .encodeFailed("cannot set the loop count") }
        return Array(UnsafeBufferPointer(start: bytes, count: output.size))
    }
}
