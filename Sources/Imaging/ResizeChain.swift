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
        try image.withBorrowedPixels { (pixels) throws(ImagingError) in
            try resize(pixels, owned: image, to: sizes, body)
        }
    }

    /// The same from borrowed rows (a decoder's buffer, never copied whole).
    static func resize(_ image: BorrowedPixels, owned: RGBAImage? = nil, to sizes: [PixelSize],
                       _ body: (Int, RGBAImage) throws(ImagingError) -> Void) throws(ImagingError) {
        let (order, parents) = plan(sizes)
        let parentsNeeded = Set(parents.compactMap { $0 })
        var made: [Int: RGBAImage] = [:]
        for index in order {
            let size = sizes[index]
            let resized: RGBAImage
            if let parent = parents[index].flatMap({ made[$0] }) {
                resized = LanczosResampler.resize(parent, width: size.width, height: size.height)
            } else if let owned, owned.size == size {
                resized = owned
            } else if image.size == size {
                resized = RGBAImage(copying: image)  // a full-size conversion: nothing to filter
            } else {
                resized = LanczosResampler.resize(image, width: size.width, height: size.height)
            }
            if parentsNeeded.contains(index) { made[index] = resized }
            try body(index, resized)
        }
    }
}
