import GalleryCore

/// Resizes one image to several sizes, largest first, each from the smallest
/// image already made that still has at least 2× its size (the same headroom
/// rule as DCT scaling) rather than from the full-size original: a thumbnail
/// then costs a fraction of the taps, with no visible difference.
enum ResizeChain {
    /// Calls `body` with the index of each size in `sizes` and the image resized
    /// to it (in the order the chain makes them, largest first).
    static func resize(_ image: RGBAImage, to sizes: [PixelSize],
                       _ body: (Int, RGBAImage) throws(ImagingError) -> Void) throws(ImagingError) {
        var sources = [image]
        for index in sizes.indices.sorted(by: { sizes[$0].area > sizes[$1].area }) {
            let size = sizes[index]
            let source = sources.last { $0.width >= 2 * size.width && $0.height >= 2 * size.height } ?? image
            let resized = LanczosResampler.resize(source, width: size.width, height: size.height)
            if resized.width < source.width { sources.append(resized) }
            try body(index, resized)
        }
    }
}
