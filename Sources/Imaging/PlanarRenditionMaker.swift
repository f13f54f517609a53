import GalleryCore

/// The fast path for YCbCr and greyscale JPEGs (nearly every camera photo):
/// the decoder streams the file's own planes at the chosen DCT scale, each
/// plane is resampled as its rows arrive, and the 4:2:0 results go straight
/// into the encoders. Nothing is upsampled, converted to RGB and back, or held
/// at full size; chroma is filtered at its stored resolution, which is also
/// the resolution the outputs store it at.
public enum PlanarRenditionMaker {
    /// A source of planes: calls `start` with the layout, then `row` with
    /// (plane index, samples) for every row of every plane, each plane's rows
    /// in order; returns false, having called neither, when it cannot (and
    /// the caller takes the RGB path). `start` answers, per plane, how many
    /// of its latest rows must stay readable where they were handed out
    /// (the one being handed out included): the resamplers read them in
    /// place. `sourceRange` is the range its samples are in.
    public typealias PlaneStream = (_ start: (JPEGCodec.PlaneLayout) -> [Int],
                                    _ row: (Int, UnsafePointer<UInt8>) -> Void) throws(ImagingError) -> Bool

    /// The renditions of `sizes` (stored orientation), in order, in the
    /// sample `ranges` their encoders take, turned upright and encoded by
    /// `encode`; nil when the JPEG is not planar.
    public static func make(_ bytes: UnsafeRawBufferPointer, scaleDenominator: Int, sizes: [PixelSize], ranges: [YCbCrImage.Range],
                            orientation: Orientation,
                            encode: (Int, YCbCrImage, [UInt8]?) throws(ImagingError) -> [UInt8]) throws(ImagingError) -> [[UInt8]]? {
        var icc: [UInt8]?
        let made = try make(sizes: sizes, ranges: ranges, orientation: orientation, sourceRange: .full, stream: { (start, row) throws(ImagingError) in
            try JPEGCodec.streamPlanes(bytes, scaleDenominator: scaleDenominator, icc: &icc, start: start, row: row)
        }, encode: { (index, image) throws(ImagingError) in try encode(index, image, icc) })
        return made
    }

    /// Most samples one resampler's ring of source rows may hold (64 Mi
    /// bytes): a 100-megapixel photo needs a few million.
    static let largestRing = 64 << 20

    /// The same from any plane stream (a JPEG's, a HEIF's).
    public static func make(sizes: [PixelSize], ranges: [YCbCrImage.Range], orientation: Orientation, sourceRange: YCbCrImage.Range,
                            stream: PlaneStream,
                            encode: (Int, YCbCrImage) throws(ImagingError) -> [UInt8]) throws(ImagingError) -> [[UInt8]]? {
        precondition(ranges.count == sizes.count, "one range per size")
        // The resize chain's plan; an output is only derived from one in the
        // same sample range.
        let (order, parents) = ResizeChain.plan(sizes) { ranges[$0] == ranges[$1] }
        let streamed = order.filter { parents[$0] == nil }

        var resamplers: [[PlaneResampler]] = []   // per streamed size: one per source plane
        var greyscale = false
        var refused: ImagingError?
        let planar = try stream({ layout in
            greyscale = layout.planes.count == 1
            // A plane far taller than its output (a decoded size that does not
            // match the header the sizes came from) needs a ring of rows per
            // output row: bounded here, or a hostile file asks for gigabytes.
            for index in streamed {
                let target = sizes[index]
                for source in layout.planes {
                    let ring = PlaneResampler.ringSamples(sourceWidth: source.width, sourceHeight: source.height,
                                                          height: max(1, target.height))
                    if (ring ?? .max) > Self.largestRing {
                        refused = .damaged("a \(source.width)x\(source.height) plane for a \(target.width)x\(target.height) picture")
                        return []
                    }
                }
            }
            resamplers = streamed.map { index in
                let luma = sizes[index], chroma = YCbCrImage.chromaSize(of: luma)
                let map = YCbCrImage.Range.map(from: sourceRange, to: ranges[index])
                return layout.planes.enumerated().map { plane, source in
                    let target = plane == 0 ? luma : chroma
                    let (scale, offset) = plane == 0 ? map.luma : map.chroma
                    return PlaneResampler(sourceWidth: source.width, sourceHeight: source.height,
                                          width: target.width, height: target.height, sampleScale: scale, sampleOffset: offset)
                }
            }
            return layout.planes.indices.map { plane in resamplers.map { $0[plane].rowsRead }.max() ?? 1 }
        }, { plane, samples in
            for set in resamplers { set[plane].push(borrowing: samples) }
        })
        if let refused { throw refused }
        guard planar else { return nil }
        // Every row came (a decoder that stops early without an error would
        // leave the last output rows to rows no longer there).
        if resamplers.contains(where: { $0.contains { !$0.hasEveryRow } }) {
            throw .damaged("the decoder ended before the last row of a plane")
        }

        var images = [YCbCrImage?](repeating: nil, count: sizes.count)
        for (index, set) in zip(streamed, resamplers) {
            let luma = set[0].finish()
            if greyscale {
                let chroma = YCbCrImage.chromaSize(of: luma.size)
                let neutral = Plane(width: chroma.width, height: chroma.height, filledWith: 128)  // 128 in either range
                images[index] = YCbCrImage(luma: luma, blue: neutral, red: neutral, range: ranges[index])
            } else {
                images[index] = YCbCrImage(luma: luma, blue: set[1].finish(), red: set[2].finish(), range: ranges[index])
            }
        }
        resamplers = []
        for index in order {
            guard let parent = parents[index], let source = images[parent] else { continue }
            images[index] = resize(source, to: sizes[index])
        }
        var results = [[UInt8]](repeating: [], count: sizes.count)
        for index in sizes.indices {
            guard let image = images[index] else { continue }
            results[index] = try encode(index, image.oriented(orientation))
        }
        return results
    }

    /// Resamples every plane of a finished image.
    static func resize(_ image: YCbCrImage, to size: PixelSize) -> YCbCrImage {
        if image.size == size { return image }
        let chroma = YCbCrImage.chromaSize(of: size)
        func plane(_ source: Plane, _ target: PixelSize) -> Plane {
            let resampler = PlaneResampler(sourceWidth: source.width, sourceHeight: source.height,
                                           width: target.width, height: target.height)
            resampler.push(source)
            return resampler.finish()
        }
        return YCbCrImage(luma: plane(image.luma, size), blue: plane(image.blue, chroma), red: plane(image.red, chroma),
                          range: image.range)
    }
}
