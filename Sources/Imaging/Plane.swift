import CResample
import GalleryCore

/// One channel of 8-bit samples (a JPEG's Y, Cb or Cr), row-major, `width`
/// bytes a row, in memory Swift owns.
public struct Plane: Sendable {
    /// Width in samples.
    public var width: Int
    /// Height in rows.
    public var height: Int
    /// `width × height` samples.
    public var samples: [UInt8]

    /// Wraps existing samples.
    public init(width: Int, height: Int, samples: [UInt8]) {
        precondition(samples.count == width * height, "plane buffer does not match its size")
        self.width = width
        self.height = height
        self.samples = samples
    }

    /// A plane of one value (the chroma of a greyscale photo).
    public init(width: Int, height: Int, filledWith value: UInt8) {
        self.init(width: width, height: height, samples: [UInt8](repeating: value, count: width * height))
    }

    /// The size.
    public var size: PixelSize { PixelSize(width: width, height: height) }

    /// The plane turned upright. The stored index of an upright sample is
    /// affine in (x, y): `CResample` walks it (a quarter turn by 8 × 8
    /// blocks transposed in registers, a mirror row by row).
    public func oriented(_ orientation: Orientation) -> Plane {
        if orientation == .up { return self }
        let stored = size
        let shown = orientation.displaySize(ofStored: stored)
        func index(_ x: Int, _ y: Int) -> Int {
            let pixel = orientation.sourcePixel(x: x, y: y, stored: stored)
            return pixel.y * stored.width + pixel.x
        }
        let origin = index(0, 0)
        // A side of one sample is never stepped along.
        let stepX = shown.width > 1 ? index(1, 0) - origin : 0
        let stepY = shown.height > 1 ? index(0, 1) - origin : 0
        let result = [UInt8](unsafeUninitializedCapacity: shown.width * shown.height) { buffer, count in
            samples.withUnsafeBufferPointer { source in
                gg_resample_turn(source.baseAddress!, origin, stepX, stepY, buffer.baseAddress!, Int32(shown.width), Int32(shown.height))
            }
            count = shown.width * shown.height
        }
        return Plane(width: shown.width, height: shown.height, samples: result)
    }
}

/// A picture as JPEG and WebP store it: Y at full size, Cb and Cr at half size
/// in both directions (4:2:0, `ceil(width / 2) × ceil(height / 2)`).
public struct YCbCrImage: Sendable {
    /// How sample values map to colours (BT.601 either way).
    public enum Range: Sendable {
        /// 0...255 for Y, Cb and Cr: what JPEG stores.
        case full
        /// Y 16...235, chroma 16...240: what VP8 (lossy WebP) stores.
        case limited

        /// The affine map from full-range samples to this range, for luma
        /// and for chroma: (scale, offset).
        var fromFull: (luma: (Float, Float), chroma: (Float, Float)) {
            switch self {
            case .full: return ((1, 0), (1, 0))
            case .limited: return ((219 / 255, 16), (224 / 255, 128 - 128 * 224 / 255))
            }
        }

        /// The affine map from samples in `source` range to `target` range.
        static func map(from source: Range, to target: Range) -> (luma: (Float, Float), chroma: (Float, Float)) {
            let into = target.fromFull
            guard source == .limited else { return into }
            // limited → full, then full → target.
            func compose(_ inverse: (Float, Float), _ forward: (Float, Float)) -> (Float, Float) {
                (inverse.0 * forward.0, inverse.1 * forward.0 + forward.1)
            }
            let lumaToFull: (Float, Float) = (255 / 219, -16 * 255 / 219)
            let chromaToFull: (Float, Float) = (255 / 224, 128 - 128 * 255 / 224)
            return (compose(lumaToFull, into.luma), compose(chromaToFull, into.chroma))
        }
    }

    /// Luma.
    public var luma: Plane
    /// Blue-difference chroma.
    public var blue: Plane
    /// Red-difference chroma.
    public var red: Plane
    /// The sample range.
    public var range: Range

    /// Creates an image; the chroma planes must be the 4:2:0 size of `luma`.
    public init(luma: Plane, blue: Plane, red: Plane, range: Range = .full) {
        precondition(blue.size == YCbCrImage.chromaSize(of: luma.size) && red.size == blue.size, "chroma is not 4:2:0")
        self.luma = luma
        self.blue = blue
        self.red = red
        self.range = range
    }

    /// Width in pixels.
    public var width: Int { luma.width }
    /// Height in pixels.
    public var height: Int { luma.height }
    /// The size.
    public var size: PixelSize { luma.size }

    /// The chroma plane size for an image of `size`.
    public static func chromaSize(of size: PixelSize) -> PixelSize {
        PixelSize(width: (size.width + 1) / 2, height: (size.height + 1) / 2)
    }

    /// The image turned upright (each plane on its own: 4:2:0 sizes stay 4:2:0
    /// because ceil(n / 2) commutes with swapping width and height).
    public func oriented(_ orientation: Orientation) -> YCbCrImage {
        if orientation == .up { return self }
        return YCbCrImage(luma: luma.oriented(orientation), blue: blue.oriented(orientation), red: red.oriented(orientation),
                          range: range)
    }
}
