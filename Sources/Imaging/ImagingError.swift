/// Why an image could not be decoded or encoded. The caller adds the file name.
public enum ImagingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The codec refused the data.
    case undecodable(String)
    /// The data decoded but parts are missing or corrupt (e.g. a truncated JPEG).
    case damaged(String)
    /// Decoding would need more pixels than the configured limit.
    case tooLarge(pixels: Int, limit: Int)
    /// The encoder failed.
    case encodeFailed(String)

    /// A one-line reason.
    public var description: String {
        switch self {
        case .undecodable(let why): return why
        case .damaged(let why): return "damaged image data (\(why))"
        case .tooLarge(let pixels, let limit):
            return "too large: \(pixels / 1_000_000) MP exceeds the \(limit / 1_000_000) MP limit"
        case .encodeFailed(let why): return "encoding failed: \(why)"
        }
    }
}
