import GalleryCore

/// Cuts a person's avatar out of a photo: the photo decoded (a JPEG at the
/// DCT scale that still leaves the square larger than the largest avatar),
/// turned upright as its renditions are, the square cut out, resampled with
/// Lanczos-3 to each side and encoded like the other stills.
public enum AvatarCropper {
    /// The encoded avatars, one per side, from the photo in `bytes`.
    public static func make(_ bytes: UnsafeRawBufferPointer, format: SourceFormat, storedSize: PixelSize, orientation: Orientation,
                            avatar: Avatar, maximumPixels: Int) throws(ImagingError) -> [[UInt8]] {
        try RenditionMaker.checkPixelLimit(storedSize, maximumPixels: maximumPixels)
        let largest = avatar.sides.max() ?? Avatar.displaySide
        // The whole picture at the scale where the square is `largest` pixels across: what the decode must keep.
        let factor = Double(largest) / max(1e-9, avatar.square.width * Double(orientation.displaySize(ofStored: storedSize).width))
        let target = PixelSize(width: max(1, Int((Double(storedSize.width) * factor).rounded(.up))),
                               height: max(1, Int((Double(storedSize.height) * factor).rounded(.up))))
        let denominator = format == .jpeg ? DCTScale.denominator(stored: storedSize, largestTarget: target) : 1
        let decoded = try RenditionMaker.decode(bytes, format: format, scaleDenominator: denominator, maximumPixels: maximumPixels)
        let upright = OrientationTransform.apply(orientation, to: decoded.image)
        let box = avatar.square.pixels(in: upright.size)
        let side = min(box.width, box.height)
        let square = crop(upright, x: box.x, y: box.y, side: side)
        return try avatar.sides.map { (wanted) throws(ImagingError) -> [UInt8] in
            let resized = LanczosResampler.resize(square, width: min(wanted, side), height: min(wanted, side))
            return try RenditionEncoder.encode(resized, as: avatar.encoding, iccProfile: decoded.iccProfile)
        }
    }

    /// The `side`×`side` square of `image` whose top left corner is (`x`, `y`), kept inside it.
    static func crop(_ image: RGBAImage, x: Int, y: Int, side: Int) -> RGBAImage {
        let side = max(1, min(side, image.width, image.height))
        let left = max(0, min(x, image.width - side)), top = max(0, min(y, image.height - side))
        return RGBAImage(width: side, height: side, hasAlpha: image.hasAlpha) { out in
            image.pixels.withUnsafeBufferPointer { source in
                for row in 0..<side {
                    let from = ((top + row) * image.width + left) * 4
                    out.baseAddress!.advanced(by: row * side * 4).update(from: source.baseAddress!.advanced(by: from), count: side * 4)
                }
            }
        }
    }
}
