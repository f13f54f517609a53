/// Why a file's metadata could not be read. Each case says what a person needs
/// to know; the caller adds the file name.
public enum MetadataError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes are not a format gallerygen reads.
    case unknownFormat(firstBytes: String)
    /// The file is empty.
    case empty
    /// The container is cut short or malformed.
    case malformed(String)
    /// A zero or absurd pixel size.
    case invalidSize(width: Int, height: Int)

    /// A one-line reason.
    public var description: String {
        switch self {
        case .unknownFormat(let first): return "not a photo format gallerygen reads (JPEG, PNG, GIF, WebP, HEIC/AVIF, JPEG XL, TIFF, RAW); starts with \(first)"
        case .empty: return "empty file"
        case .malformed(let why): return why
        case .invalidSize(let w, let h): return "invalid pixel size \(w)x\(h)"
        }
    }
}
