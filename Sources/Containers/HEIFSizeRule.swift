import GalleryCore
/// How much larger than its header a HEIF's coded pictures may be, one rule
/// for the metadata read (which refuses a lying stream) and the decoder
/// (which caps libheif's own size limit with it).
///
/// libheif sizes its buffers by what a stream or grid declares, not by the
/// `ispe` header the pixel limit is checked on, so a file whose header says
/// 48×32 could make it allocate gigabytes (found by FuzzHEIF). Real files
/// code a little more than they show (block padding, a stereo pair's second
/// view cropped away: 160×64 under 64×64), never more than about twice a
/// side. The metadata read applies it to width and height separately
/// (streams and grid canvases), which keeps what is decoded within about
/// four times the checked area; libheif's own limit only takes one number
/// for both sides, so the decoder's cap on it is a second line, not the guard.
public enum HEIFSizeRule {
    /// The largest HEVC coding block: padding any coded side may add.
    public static let codingBlock = 64

    /// The longest coded or decoded side (width or height) a header side of `side` allows.
    public static func allowedSide(forHeaderSide side: Int) -> Int { 2 * side + codingBlock }
}
