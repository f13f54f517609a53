import GalleryCore

/// Regenerates an animation at every rendition size: each frame is composited
/// (GIF disposal and transparency rules, or `WebPAnimDecoder`), resized in
/// premultiplied alpha, and streamed into one animated-WebP encoder per size,
/// with the source's frame durations and loop count. Only one composited
/// canvas is alive at a time.
public enum AnimationMaker {
    /// Encoded animated WebP files, one per size, in the order given.
    public static func make(_ bytes: UnsafeRawBufferPointer, format: SourceFormat, sizes: [PixelSize], quality: Int,
                            maximumPixels: Int) throws(ImagingError) -> [[UInt8]] {
        let encoders = try sizes.map { size throws(ImagingError) in try AnimatedWebPEncoder(size: size, quality: quality) }
        func handle(_ canvas: RGBAImage, _ duration: Int) throws(ImagingError) {
            try ResizeChain.resize(canvas, to: sizes) { (index, frame) throws(ImagingError) in
                try encoders[index].add(frame, duration: duration)
            }
        }
        let info: GIFAnimation.Info
        switch format {
        case .gif: info = try GIFAnimation.forEachFrame(bytes, maximumPixels: maximumPixels, handle)
        case .webp: info = try WebPAnimation.forEachFrame(bytes, maximumPixels: maximumPixels, handle)
        default: throw .undecodable("\(format.rawValue) is not an animation format")
        }
        // The loop count is only certain once the whole file is read.
        return try encoders.map { encoder throws(ImagingError) in try encoder.finish(loopCount: info.loopCount) }
    }
}
