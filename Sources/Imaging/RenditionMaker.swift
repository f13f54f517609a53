import GalleryCore

/// One rendition to make: where its upright size comes from and how to encode it.
public struct RenditionJob: Sendable {
    /// The spec (format, quality, box).
    public var spec: RenditionSpec
    /// The upright output size (already fitted into the box, never upscaled).
    public var size: PixelSize

    /// Creates a job.
    public init(spec: RenditionSpec, size: PixelSize) {
        self.spec = spec
        self.size = size
    }
}

/// Makes every rendition of one still photo from a single decode: the JPEG DCT
/// scale is chosen for the largest output, each output is resampled from that
/// one bitmap with Lanczos-3, turned upright, and encoded.
public enum RenditionMaker {
    /// Decodes `bytes` once (format already known from the metadata) and returns
    /// the encoded bytes of each job, in order.
    public static func make(_ bytes: UnsafeRawBufferPointer, format: SourceFormat, storedSize: PixelSize,
                            orientation: Orientation, jobs: [RenditionJob], maximumPixels: Int) throws(ImagingError) -> [[UInt8]] {
        guard storedSize.area <= maximumPixels else { throw .tooLarge(pixels: storedSize.area, limit: maximumPixels) }
        let largest = jobs.reduce(PixelSize(width: 1, height: 1)) { acc, job in
            let stored = orientation.swapsDimensions ? job.size.transposed : job.size
            return PixelSize(width: max(acc.width, stored.width), height: max(acc.height, stored.height))
        }
        let decoded = try decode(bytes, format: format, storedSize: storedSize, largestTarget: largest, maximumPixels: maximumPixels)
        return try jobs.map { job throws(ImagingError) -> [UInt8] in
            let stored = orientation.swapsDimensions ? job.size.transposed : job.size
            let resized = LanczosResampler.resize(decoded.image, width: stored.width, height: stored.height)
            let upright = OrientationTransform.apply(orientation, to: resized)
            return try RenditionEncoder.encode(upright, format: job.spec.format, quality: job.spec.quality, iccProfile: decoded.iccProfile)
        }
    }

    /// Decodes a still (or an animation's first frame), JPEGs at the DCT scale
    /// that keeps at least twice `largestTarget`.
    public static func decode(_ bytes: UnsafeRawBufferPointer, format: SourceFormat, storedSize: PixelSize,
                              largestTarget: PixelSize, maximumPixels: Int) throws(ImagingError) -> DecodedImage {
        switch format {
        case .jpeg:
            let denominator = DCTScale.denominator(stored: storedSize, largestTarget: largestTarget)
            return try JPEGCodec.decode(bytes, scaleDenominator: denominator, maximumPixels: maximumPixels)
        case .png: return try PNGCodec.decode(bytes, maximumPixels: maximumPixels)
        case .webp: return try WebPCodec.decode(bytes, maximumPixels: maximumPixels)
        case .gif: return try GIFAnimation.decodeFirstFrame(bytes, maximumPixels: maximumPixels)
        }
    }
}
