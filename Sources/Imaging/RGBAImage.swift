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

    /// Undoes premultiplied alpha of the pixel at byte `offset`, rounding
    /// (decoders that hand out premultiplied colour: libtiff, some HEIFs).
    public static func unpremultiply(_ pixels: UnsafeMutableBufferPointer<UInt8>, at offset: Int) {
        let a = Int(pixels[offset + 3])
        guard a > 0, a < 255 else { return }
        for c in 0..<3 { pixels[offset + c] = UInt8(min(255, (Int(pixels[offset + c]) * 255 + a / 2) / a)) }
    }

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

/// 8-bit RGB or RGBA rows that someone else owns (a decoder's output buffer,
/// possibly with padding after each row), borrowed for the length of a call
/// so a full-size picture is never copied just to be resized.
public struct BorrowedPixels {
    /// The first byte of the first row.
    public var base: UnsafePointer<UInt8>
    /// Width in pixels.
    public var width: Int
    /// Height in rows.
    public var height: Int
    /// Bytes from one row to the next (at least `width × channels`).
    public var rowBytes: Int
    /// 3 (RGB) or 4 (RGBA).
    public var channels: Int
    /// Some pixel is not opaque (only with 4 channels).
    public var hasAlpha: Bool

    /// Describes borrowed rows.
    public init(base: UnsafePointer<UInt8>, width: Int, height: Int, rowBytes: Int, channels: Int, hasAlpha: Bool) {
        precondition(channels == 3 || channels == 4, "RGB or RGBA only")
        precondition(rowBytes >= width * channels, "rows overlap")
        precondition(!hasAlpha || channels == 4, "alpha needs four channels")
        self.base = base
        self.width = width
        self.height = height
        self.rowBytes = rowBytes
        self.channels = channels
        self.hasAlpha = hasAlpha
    }

    /// The size.
    public var size: PixelSize { PixelSize(width: width, height: height) }
}

extension RGBAImage {
    /// Calls `body` with this image's pixels as borrowed rows.
    public func withBorrowedPixels<T, E: Error>(_ body: (BorrowedPixels) throws(E) -> T) throws(E) -> T {
        let result: Result<T, E> = pixels.withUnsafeBufferPointer { buffer in
            // An empty image still needs a valid pointer.
            guard let base = buffer.baseAddress else {
                return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4) { scratch in
                    Result { () throws(E) in
                        try body(BorrowedPixels(base: UnsafePointer(scratch.baseAddress!), width: width, height: height,
                                                rowBytes: width * 4, channels: 4, hasAlpha: hasAlpha))
                    }
                }
            }
            return Result { () throws(E) in
                try body(BorrowedPixels(base: base, width: width, height: height, rowBytes: width * 4, channels: 4, hasAlpha: hasAlpha))
            }
        }
        return try result.get()
    }
}

extension RGBAImage {
    /// An owned RGBA copy of borrowed rows (for callers that keep the pixels).
    public init(copying source: BorrowedPixels) {
        self.init(width: source.width, height: source.height, hasAlpha: source.hasAlpha) { out in
            for y in 0..<source.height {
                let row = source.base + y * source.rowBytes
                let target = out.baseAddress! + y * source.width * 4
                if source.channels == 4 {
                    target.update(from: row, count: source.width * 4)
                } else {
                    for x in 0..<source.width {
                        target[x * 4] = row[x * 3]
                        target[x * 4 + 1] = row[x * 3 + 1]
                        target[x * 4 + 2] = row[x * 3 + 2]
                        target[x * 4 + 3] = 255
                    }
                }
            }
        }
    }
}
