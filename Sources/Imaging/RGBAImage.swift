import GalleryCore

/// 8-bit RGBA pixels with straight (not premultiplied) alpha, in memory Swift owns.
public struct RGBAImage: Sendable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Row-major RGBA bytes, `width * 4` per row.
    public var pixels: [UInt8]
    /// False when every pixel is opaque (lets encoders skip the alpha plane and
    /// the resampler skip premultiplication).
    public var hasAlpha: Bool

    /// Wraps existing pixels.
    public init(width: Int, height: Int, pixels: [UInt8], hasAlpha: Bool) {
        precondition(pixels.count == width * height * 4, "pixel buffer does not match its size")
        self.width = width
        self.height = height
        self.pixels = pixels
        self.hasAlpha = hasAlpha
    }

    /// Allocates `width × height` pixels and lets `fill` write them (no zeroing pass).
    public init(width: Int, height: Int, hasAlpha: Bool, fill: (UnsafeMutableBufferPointer<UInt8>) throws -> Void) rethrows {
        self.width = width
        self.height = height
        self.hasAlpha = hasAlpha
        self.pixels = try [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
            try fill(buffer)
            count = width * height * 4
        }
    }

    /// The size.
    public var size: PixelSize { PixelSize(width: width, height: height) }

    /// True if some pixel is not fully opaque.
    public static func anyTransparent(_ pixels: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 3
        while i < pixels.count {
            if pixels[i] != 255 { return true }
            i += 4
        }
        return false
    }
}

/// A decoded image with the colour profile it was stored with.
public struct DecodedImage: Sendable {
    /// The pixels (stored orientation).
    public var image: RGBAImage
    /// The embedded ICC profile, carried over to renditions so colours stay right.
    public var iccProfile: [UInt8]?

    /// Creates a decoded image.
    public init(image: RGBAImage, iccProfile: [UInt8]?) {
        self.image = image
        self.iccProfile = iccProfile
    }
}
