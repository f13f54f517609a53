import GalleryCore

/// Resizes one image to several sizes, largest first, each from the smallest
/// image already made that still has at least 2× its size (the same headroom
/// rule as DCT scaling) rather than from the full-size original: a thumbnail
/// then costs a fraction of the taps, with no visible difference.
enum ResizeChain {
    /// The order to make `sizes` in (largest first) and, for each size, the
    /// index of the earlier size it is resampled from, or nil for the source.
    /// `canDerive(parent, child)` can forbid a pairing (the planar path keeps
    /// full- and limited-range images apart).
    static func plan(_ sizes: [PixelSize], canDerive: (Int, Int) -> Bool = { _, _ in true }) -> (order: [Int], parents: [Int?]) {
        let order = sizes.indices.sorted { sizes[$0].area > sizes[$1].area }
        var parents = [Int?](repeating: nil, count: sizes.count)
        for (position, index) in order.enumerated() {
            let size = sizes[index]
            parents[index] = order[..<position].last {
                canDerive($0, index) && sizes[$0].width >= 2 * size.width && sizes[$0].height >= 2 * size.height
            }
        }
        return (order, parents)
    }

    /// Calls `body` with the index of each size in `sizes` and the image resized
    /// to it (in the order the chain makes them, largest first).
    static func resize(_ image: RGBAImage, to sizes: [PixelSize],
                       _ body: (Int, RGBAImage) throws(ImagingError) -> Void) throws(ImagingError) {
        let (order, parents) = plan(sizes)
        let parentsNeeded = Set(parents.compactMap { $0 })
        var made: [Int: RGBAImage] = [:]
        for index in order {
            let source = parents[index].flatMap { made[$0] } ?? image
            let resized = LanczosResampler.resize(source, width: sizes[index].width, height: sizes[index].height)
            if parentsNeeded.contains(index) { made[index] = resized }
            try body(index, resized)
        }
    }
}
