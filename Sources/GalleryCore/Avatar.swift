/// A person's face as a round avatar: a square cut from one photo around
/// their tagged face, in a size for 1× screens and one for 2×. Named by the
/// photo's content, the square and the encoding, like every rendition: made
/// once, cached for good by browsers, pruned when nothing names it.
public struct Avatar: Hashable, Sendable {
    /// The square, in fractions of the upright photo.
    public var square: NormalizedRect
    /// Each size's side in pixels, the 1× first (never larger than the square in the photo).
    public var sides: [Int]
    /// Each size's file, relative to OUT.
    public var paths: [String]
    /// How it is encoded (the site's still encoding).
    public var encoding: Encoding

    /// The side the site shows an avatar at, in CSS pixels.
    public static let displaySide = 112
    /// Bumped whenever cutting or encoding an avatar changes its bytes.
    public static let version = 1

    /// The avatar of the face at `face` (upright fractions) in a photo of
    /// `displaySize` whose content hash is `contentHash`.
    public init(contentHash: ContentHash, displaySize: PixelSize, face: NormalizedRect, encoding: Encoding) {
        self.init(photoName: contentHash.description, displaySize: displaySize, face: face, encoding: encoding)
    }

    /// The avatar of a photo named otherwise than by its content hash (a
    /// review page's, which is never published).
    public init(photoName: String, displaySize: PixelSize, face: NormalizedRect, encoding: Encoding) {
        square = face.avatarSquare(in: displaySize)
        let available = max(1, Int((square.width * Double(displaySize.width)).rounded(.down)))
        var sides = [min(Self.displaySide, available)]
        if available > sides[0] { sides.append(min(Self.displaySide * 2, available)) }
        self.sides = sides
        self.encoding = encoding
        let spec = RenditionSpec(role: .thumbnail, box: PixelSize(width: sides[0], height: sides[0]), encoding: encoding)
        // The square at a ten-thousandth of the photo: a stable name for a stable choice.
        let where_ = [square.x, square.y, square.width, square.height].map { String(Int(($0 * 10_000).rounded())) }.joined(separator: ",")
        let key = "avatar\(Self.version)-\(spec.key)-\(where_)"
        paths = sides.map { side in
            spec.relativePath(named: photoName + key, size: PixelSize(width: side, height: side))
        }
    }
}
