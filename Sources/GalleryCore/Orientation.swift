/// The EXIF Orientation tag: how the stored pixels must be turned to be seen upright.
public enum Orientation: Int, Sendable, Codable, CaseIterable {
    /// Stored upright.
    case up = 1
    /// Mirrored left to right.
    case upMirrored = 2
    /// Rotated 180°.
    case down = 3
    /// Mirrored top to bottom.
    case downMirrored = 4
    /// Mirrored along the top-left/bottom-right diagonal (transposed).
    case leftMirrored = 5
    /// Must be turned 90° clockwise to be upright.
    case right = 6
    /// Transverse: mirrored along the other diagonal.
    case rightMirrored = 7
    /// Must be turned 90° counter-clockwise to be upright.
    case left = 8

    /// True when width and height swap on display.
    public var swapsDimensions: Bool { rawValue >= 5 }

    /// The displayed size of a stored image of `stored` size.
    public func displaySize(ofStored stored: PixelSize) -> PixelSize {
        swapsDimensions ? stored.transposed : stored
    }

    /// The stored size that displays as `displayed` (pixels are resized in
    /// stored orientation and turned upright afterwards).
    public func storedSize(ofDisplayed displayed: PixelSize) -> PixelSize {
        swapsDimensions ? displayed.transposed : displayed
    }

    /// For an output pixel (x, y) of the upright image, the stored pixel it comes
    /// from. `stored` is the stored (pre-orientation) size W×H.
    @inline(__always)
    public func sourcePixel(x: Int, y: Int, stored: PixelSize) -> (x: Int, y: Int) {
        let w = stored.width, h = stored.height
        switch self {
        case .up: return (x, y)
        case .upMirrored: return (w - 1 - x, y)
        case .down: return (w - 1 - x, h - 1 - y)
        case .downMirrored: return (x, h - 1 - y)
        case .leftMirrored: return (y, x)
        case .right: return (y, h - 1 - x)
        case .rightMirrored: return (w - 1 - y, h - 1 - x)
        case .left: return (w - 1 - y, x)
        }
    }
}
