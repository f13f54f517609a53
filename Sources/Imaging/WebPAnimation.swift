import CWebP
import GalleryCore

/// Frame-by-frame access to animated WebP through `WebPAnimDecoder`, which
/// returns fully composited canvases.
public enum WebPAnimation {
    /// Calls `body` with each composited canvas and its duration in milliseconds,
    /// stopping after `frameLimit` frames. One canvas is alive at a time.
    /// Returns the canvas size and loop count (0 = forever).
    @discardableResult
    public static func forEachFrame(_ bytes: UnsafeRawBufferPointer, maximumPixels: Int, frameLimit: Int = .max,
                                    _ body: (RGBAImage, Int) throws(ImagingError) -> Void) throws(ImagingError) -> GIFAnimation.Info {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { throw .undecodable("empty file") }
        var options = WebPAnimDecoderOptions()
        guard WebPAnimDecoderOptionsInit(&options) != 0 else { throw .undecodable("libwebp version mismatch") }
        options.color_mode = MODE_RGBA
        options.use_threads = 0
        var data = WebPData(bytes: base, size: bytes.count)
        guard let decoder = WebPAnimDecoderNew(&data, &options) else { throw .undecodable("animated WebP is malformed") }
        defer { WebPAnimDecoderDelete(decoder) }
        var info = WebPAnimInfo()
        guard WebPAnimDecoderGetInfo(decoder, &info) != 0 else { throw .undecodable("animated WebP is malformed") }
        let width = Int(info.canvas_width), height = Int(info.canvas_height)
        guard width > 0, height > 0 else { throw .undecodable("animated WebP declares no pixels") }
        guard width * height <= maximumPixels else { throw .tooLarge(pixels: width * height, limit: maximumPixels) }
        var previousEnd: Int32 = 0
        var count = 0
        while count < frameLimit, WebPAnimDecoderHasMoreFrames(decoder) != 0 {
            var buffer: UnsafeMutablePointer<UInt8>?
            var timestamp: Int32 = 0
            guard WebPAnimDecoderGetNext(decoder, &buffer, &timestamp) != 0, let buffer else {
                throw .damaged("animated WebP frame \(count + 1) cannot be decoded")
            }
            let pixels = Array(UnsafeBufferPointer(start: buffer, count: width * height * 4))
            let transparent = pixels.withUnsafeBufferPointer(RGBAImage.anyTransparent)
            // The decoder's timestamp is the frame's end time. Browsers show
            // frames of 10 ms or less for 100 ms, as for GIF.
            let raw = Int(timestamp - previousEnd)
            let duration = raw <= 10 ? 100 : raw
            previousEnd = timestamp
            try body(RGBAImage(width: width, height: height, pixels: pixels, hasAlpha: transparent), duration)
            count += 1
        }
        guard count > 0 else { throw .undecodable("animated WebP has no frame") }
        return GIFAnimation.Info(size: PixelSize(width: width, height: height), loopCount: Int(info.loop_count))
    }
}
