/// What a picture looks like, in about 35 bytes: a 64-bit perceptual hash
/// (two pictures of one scene a moment apart differ in a few bits; two
/// scenes in about half), how sharp it is, and its placeholder (a
/// ThumbHash). Made from a rendition's pixels as the build makes it
/// (`PictureLooks(_:)` in Imaging), kept in the state by content.
public struct PictureLooks: Sendable, Hashable {
    /// The DCT hash: the sign of each of the 8×8 lowest frequencies of a
    /// 32×32 grey copy against their median (the lowest, the mean, always 0).
    public var hash: UInt64
    /// The mean squared Laplacian of the grey picture, in hundredths:
    /// larger is sharper (a blurred frame of a burst has less).
    public var sharpness: UInt32
    /// The ThumbHash pages paint before the photo arrives (`ThumbHash`).
    public var placeholder: [UInt8]

    public init(hash: UInt64, sharpness: UInt32, placeholder: [UInt8] = []) {
        self.hash = hash
        self.sharpness = sharpness
        self.placeholder = placeholder
    }

    /// At most this many bits of two photos' hashes differ when they are
    /// near-duplicates (`docs/stacks.md` says how it was chosen).
    public static let nearDuplicateDistance = 12

    /// A hash with fewer bits set is of a picture with next to no structure
    /// (one flat colour: none): such pictures are never called alike.
    public static let fewestBits = 8

    /// How many of the hash's bits differ.
    public func distance(to other: PictureLooks) -> Int { (hash ^ other.hash).nonzeroBitCount }
}
