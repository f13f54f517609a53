import GalleryCore

/// Chooses libjpeg's DCT scaling: the smallest decode (1/8, 1/4, 1/2 or full)
/// that still keeps at least twice the largest target in both directions, because
/// DCT scaling is a block average that aliases and the resampler needs headroom.
/// Only power-of-two factors are used: other n/8 factors are not SIMD-accelerated.
public enum DCTScale {
    /// Denominator 1, 2, 4 or 8 for a `stored`-size JPEG and every target (in
    /// stored orientation) it must feed: the bounding box of the targets decides.
    public static func denominator(stored: PixelSize, targets: [PixelSize]) -> Int {
        denominator(stored: stored, largestTarget: targets.reduce(PixelSize(width: 1, height: 1)) {
            PixelSize(width: max($0.width, $1.width), height: max($0.height, $1.height))
        })
    }

    /// Denominator 1, 2, 4 or 8 for a `stored`-size JPEG and a target in stored orientation.
    public static func denominator(stored: PixelSize, largestTarget: PixelSize) -> Int {
        for denominator in [8, 4, 2] {
            let w = (stored.width + denominator - 1) / denominator
            let h = (stored.height + denominator - 1) / denominator
            if w >= 2 * largestTarget.width, h >= 2 * largestTarget.height { return denominator }
        }
        return 1
    }
}
