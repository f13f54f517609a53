import GalleryCore

/// One rendition to make: where its upright size comes from and how to encode it.
public struct RenditionJob: Sendable {
    /// The spec (format, quality, box).
    public var spec: RenditionSpec
    /// The upright output size (already fitted into the box, never upscaled).
    public var size: PixelSize
    /// False: resampled but not encoded (its bytes come back empty). The
    /// renditions of one photo are made together (the DCT scale is chosen
    /// for the largest, a smaller one is resampled from a larger one), so
    /// remaking one that is missing with all the others present, unencoded,
    /// gives the bytes a build of all of them gives.
    public var isWanted: Bool

    /// Creates a job.
    public init(spec: RenditionSpec, size: PixelSize, isWanted: Bool = true) {
        self.spec = spec
        self.size = size
        self.isWanted = isWanted
    }
}

/// Makes every rendition of one still photo from a single decode: the JPEG DCT
/// scale is chosen for the largest output, each output is resampled from that
/// one bitmap with Lanczos-3, turned upright, and encoded.
public enum RenditionMaker {
    /// Decodes `bytes` once (format already known from the metadata) and returns
    /// the encoded bytes of each job, in order. Each of `taps` is lent one
    /// still job's pixels, upright, before they are encoded (or in their
    /// place, when that job is not wanted): the faces stage and the
    /// pictures' looks (for near-duplicates) are made from them.
    public static func make(_ bytes: UnsafeRawBufferPointer, format: SourceFormat, storedSize: PixelSize,
                            orientation: Orientation, jobs: [RenditionJob], maximumPixels: Int,
                            taps: [PictureTap] = []) throws(ImagingError) -> [[UInt8]] {
        try checkPixelLimit(storedSize, maximumPixels: maximumPixels)
        var results = [[UInt8]](repeating: [], count: jobs.count)
        // Animated renditions: every frame, every size, in one pass over the file.
        let animated = jobs.indices.filter { jobs[$0].spec.animated }
        if animated.contains(where: { jobs[$0].isWanted }) {
            // Animations are WebP (`RenditionSpec.asAnimation`).
            guard case .webp(let quality) = jobs[animated[0]].spec.encoding else {
                throw .encodeFailed("an animation is encoded as WebP")
            }
            let files = try AnimationMaker.make(bytes, format: format, sizes: animated.map { jobs[$0].size }, quality: quality,
                                                maximumPixels: maximumPixels)
            for (index, file) in zip(animated, files) where jobs[index].isWanted { results[index] = file }
        }
        let stills = jobs.indices.filter { !jobs[$0].spec.animated }
        let tapped = taps.filter { stills.contains($0.job) }
        guard !tapped.isEmpty || stills.contains(where: { jobs[$0].isWanted }) else { return results }
        // One resampling per size and sample range. An AVIF job is encoded
        // from the pixels of the WebP or JPEG job of its size, in either
        // range (AV1 signals both), so it adds no resampling and changes no
        // other job's bytes.
        var outputs: [[Int]] = []
        for index in stills {
            let range = RenditionEncoder.sampleRange(for: jobs[index].spec.encoding)
            let takesAnyRange = jobs[index].spec.format == .avif
            if let shared = outputs.firstIndex(where: {
                jobs[$0[0]].size == jobs[index].size
                    && (takesAnyRange || RenditionEncoder.sampleRange(for: jobs[$0[0]].spec.encoding) == range)
            }) {
                outputs[shared].append(index)
            } else {
                outputs.append([index])
            }
        }
        func isNeeded(_ output: Int) -> Bool {
            outputs[output].contains { index in jobs[index].isWanted || tapped.contains { $0.job == index } }
        }
        func lend(_ output: Int, _ picture: @autoclosure () -> RGBPicture) {
            let lentTo = tapped.filter { outputs[output].contains($0.job) }
            guard !lentTo.isEmpty else { return }
            let lent = picture()
            for tap in lentTo { tap.take(lent) }
        }
        // Sizes in stored orientation: pixels are turned upright after resizing.
        let sizes = outputs.map { orientation.storedSize(ofDisplayed: jobs[$0[0]].size) }
        let denominator = DCTScale.denominator(stored: storedSize, targets: sizes)
        let resizeAndEncode = { (pixels: BorrowedPixels, owned: RGBAImage?, icc: [UInt8]?) throws(ImagingError) in
            try ResizeChain.resize(pixels, owned: owned, to: sizes) { (output, resized) throws(ImagingError) in
                guard isNeeded(output) else { return }
                let upright = OrientationTransform.apply(orientation, to: resized)
                lend(output, RGBPicture(upright))
                for index in outputs[output] where jobs[index].isWanted {
                    results[index] = try RenditionEncoder.encode(upright, as: jobs[index].spec.encoding, iccProfile: icc)
                }
            }
        }
        // The planar fast paths (JPEG, and HEIF, which libheif hands out
        // upright): YCbCr planes resampled as they are read.
        let ranges = outputs.map { RenditionEncoder.sampleRange(for: jobs[$0[0]].spec.encoding) }
        let encodePlanar = { (output: Int, image: YCbCrImage, icc: [UInt8]?) throws(ImagingError) -> [UInt8] in
            lend(output, RGBPicture(image))
            for index in outputs[output] where jobs[index].isWanted {
                results[index] = try RenditionEncoder.encode(image, as: jobs[index].spec.encoding, iccProfile: icc)
            }
            return []
        }
        switch format {
        case .jpeg:
            if try PlanarRenditionMaker.make(bytes, scaleDenominator: denominator, sizes: sizes, ranges: ranges,
                                             orientation: orientation, encode: encodePlanar) != nil {
                return results
            }
        case .heif where orientation == .up:
            // One open and one decode: planar when the picture allows, else RGB.
            _ = try HEIFCodec.renditions(bytes, maximumPixels: maximumPixels, sizes: sizes, ranges: ranges, encode: encodePlanar) {
                (pixels, icc) throws(ImagingError) in try resizeAndEncode(pixels, nil, icc)
            }
            return results
        default:
            break
        }
        try withStillPixels(bytes, format: format, scaleDenominator: denominator, largestTarget: sizes.max { $0.area < $1.area }!,
                            maximumPixels: maximumPixels, resizeAndEncode)
        return results
    }

    /// Refuses a picture of more than `maximumPixels` from its header's size,
    /// before anything is decoded (the planar JPEG path allocates by it).
    public static func checkPixelLimit(_ storedSize: PixelSize, maximumPixels: Int) throws(ImagingError) {
        guard storedSize.area <= maximumPixels else { throw .tooLarge(pixels: storedSize.area, limit: maximumPixels) }
    }

    /// Decodes a still (or an animation's first frame) and lends its pixels
    /// (stored orientation, except HEIF and JPEG XL, which their decoders turn upright) to
    /// `body` with the ICC profile to carry. HEIF and RAW pixels stay in
    /// their decoder's buffer; the rest are decoded into an image `body` also
    /// gets, so a rendition of the same size is that image itself.
    static func withStillPixels(_ bytes: UnsafeRawBufferPointer, format: SourceFormat, scaleDenominator: Int, largestTarget: PixelSize,
                                maximumPixels: Int,
                                _ body: (BorrowedPixels, RGBAImage?, [UInt8]?) throws(ImagingError) -> Void) throws(ImagingError) {
        switch format {
        case .heif:
            try HEIFCodec.withDecoded(bytes, maximumPixels: maximumPixels) { (pixels, icc) throws(ImagingError) in try body(pixels, nil, icc) }
        case .jxl:
            try JXLCodec.withDecoded(bytes, maximumPixels: maximumPixels) { (pixels, icc) throws(ImagingError) in try body(pixels, nil, icc) }
        case .raw:
            try RawCodec.withDecoded(bytes, largestTarget: largestTarget, maximumPixels: maximumPixels) { (pixels, icc) throws(ImagingError) in
                try body(pixels, nil, icc)
            }
        default:
            let decoded = try decode(bytes, format: format, scaleDenominator: scaleDenominator, maximumPixels: maximumPixels)
            try decoded.image.withBorrowedPixels { (pixels) throws(ImagingError) in try body(pixels, decoded.image, decoded.iccProfile) }
        }
    }

    /// Decodes a still (or an animation's first frame) into an image it owns;
    /// JPEGs at 1/`scaleDenominator` (see `DCTScale`).
    public static func decode(_ bytes: UnsafeRawBufferPointer, format: SourceFormat, scaleDenominator: Int,
                              maximumPixels: Int) throws(ImagingError) -> DecodedImage {
        switch format {
        case .jpeg: return try JPEGCodec.decode(bytes, scaleDenominator: scaleDenominator, maximumPixels: maximumPixels)
        case .png: return try PNGCodec.decode(bytes, maximumPixels: maximumPixels)
        case .webp: return try WebPCodec.decode(bytes, maximumPixels: maximumPixels)
        case .gif: return try GIFAnimation.decodeFirstFrame(bytes, maximumPixels: maximumPixels)
        case .tiff: return try TIFFCodec.decode(bytes, maximumPixels: maximumPixels)
        case .video: throw .undecodable("a video's pictures come from ffmpeg")
        case .heif, .jxl, .raw:
            var copy: DecodedImage?
            try withStillPixels(bytes, format: format, scaleDenominator: scaleDenominator,
                                largestTarget: PixelSize(width: Int.max / 4, height: Int.max / 4),
                                maximumPixels: maximumPixels) { (pixels, _, icc) throws(ImagingError) in
                copy = DecodedImage(image: RGBAImage(copying: pixels), iccProfile: icc)
            }
            guard let copy else { throw .undecodable("no image") }
            return copy
        }
    }
}
