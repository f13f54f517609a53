import GalleryCore

/// Encodes a finished (resized, upright) image in the spec's format.
public enum RenditionEncoder {
    /// WebP method 4 (sigal's and Pillow's): measured with cwebp at quality 85
    /// on 12 MP previews (README, "Where the time goes"), method 2 gave 3% more
    /// bytes at 0.4 dB less and method 0 34% more bytes; method 6 is much
    /// slower for ~2% less.
    public static let webpMethod = 4

    /// The encoded bytes.
    public static func encode(_ image: RGBAImage, as encoding: Encoding, iccProfile: [UInt8]?) throws(ImagingError) -> [UInt8] {
        switch encoding {
        case .webp(let quality): return try WebPCodec.encode(image, quality: quality, method: webpMethod, iccProfile: iccProfile)
        case .jpeg(let quality): return try JPEGCodec.encode(image, quality: quality, progressive: false, iccProfile: iccProfile)
        case .avif(let quality, let speed): return try AVIFCodec.encode(image, quality: quality, speed: speed, iccProfile: iccProfile)
        case .h264: throw .encodeFailed("a still cannot be encoded as H.264 (videos are made by ffmpeg)")
        }
    }

    /// The sample range `encoding`'s encoder takes planes in. AVIF takes the
    /// WebP rendition's limited range, so one resampling serves both.
    public static func sampleRange(for encoding: Encoding) -> YCbCrImage.Range {
        encoding.format == .jpeg ? .full : .limited
    }

    /// The encoded bytes of a 4:2:0 picture (the JPEG fast path).
    public static func encode(_ image: YCbCrImage, as encoding: Encoding, iccProfile: [UInt8]?) throws(ImagingError) -> [UInt8] {
        switch encoding {
        case .webp(let quality): return try WebPCodec.encode(image, quality: quality, method: webpMethod, iccProfile: iccProfile)
        case .jpeg(let quality): return try JPEGCodec.encode(image, quality: quality, iccProfile: iccProfile)
        case .avif(let quality, let speed): return try AVIFCodec.encode(image, quality: quality, speed: speed, iccProfile: iccProfile)
        case .h264: throw .encodeFailed("a still cannot be encoded as H.264 (videos are made by ffmpeg)")
        }
    }
}
