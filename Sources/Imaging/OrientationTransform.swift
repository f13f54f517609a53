import GalleryCore

/// Turns stored pixels upright according to the EXIF orientation. Done after
/// resizing, where there are far fewer pixels to move.
public enum OrientationTransform {
    /// The upright image.
    public static func apply(_ orientation: Orientation, to image: RGBAImage) -> RGBAImage {
        if orientation == .up { return image }
        let stored = image.size
        let shown = orientation.displaySize(ofStored: stored)
        return RGBAImage(width: shown.width, height: shown.height, hasAlpha: image.hasAlpha) { output in
            image.pixels.withUnsafeBytes { raw in
                let source = raw.bindMemory(to: UInt32.self)
                let target = UnsafeMutableRawBufferPointer(output).bindMemory(to: UInt32.self)
                for y in 0..<shown.height {
                    for x in 0..<shown.width {
                        let s = orientation.sourcePixel(x: x, y: y, stored: stored)
                        target[y * shown.width + x] = source[s.y * stored.width + s.x]
                    }
                }
            }
        }
    }
}
