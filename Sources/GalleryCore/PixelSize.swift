/// A width and height in pixels.
public struct PixelSize: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// Creates a size.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Width and height exchanged (what a 90° rotation does).
    public var transposed: PixelSize { PixelSize(width: height, height: width) }

    /// Number of pixels.
    public var area: Int { width * height }

    /// True when wider than tall.
    public var isLandscape: Bool { width > height }

    /// The largest size with this aspect ratio that fits in `box`, never larger than self
    /// (renditions are never upscaled). Each side is at least 1 pixel.
    public func fitting(in box: PixelSize) -> PixelSize {
        guard width > 0, height > 0 else { return self }
        let scale = min(Double(box.width) / Double(width), Double(box.height) / Double(height), 1)
        if scale >= 1 { return self }
        return PixelSize(
            width: max(1, Int((Double(width) * scale).rounded())),
            height: max(1, Int((Double(height) * scale).rounded()))
        )
    }

    /// `WIDTHxHEIGHT`.
    public var description: String { "\(width)x\(height)" }

    /// Parses `WIDTHxHEIGHT` (both positive); nil otherwise.
    public init?(parsing text: Substring) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0, w <= 65_535, h <= 65_535 else {
            return nil
        }
        self.init(width: w, height: h)
    }
}
