import GalleryCore

/// Tells the format from the first bytes, so a PNG named `.jpg` is still read right.
public enum FormatSniffer {
    /// The format, or an error naming the first bytes.
    public static func format(of bytes: UnsafeRawBufferPointer) throws(MetadataError) -> SourceFormat {
        let r = ByteReader(bytes: bytes)
        guard bytes.count > 0 else { throw .empty }
        if r.u8(0) == 0xFF, r.u8(1) == 0xD8, r.u8(2) == 0xFF { return .jpeg }
        if r.u8(0) == 0x89, r.matches(1, "PNG\r\n\u{1A}\n") { return .png }
        if r.matches(0, "GIF87a") || r.matches(0, "GIF89a") { return .gif }
        if r.matches(0, "RIFF"), r.matches(8, "WEBP") { return .webp }
        let first = (0..<min(4, bytes.count)).map { String(format2hex: bytes[$0]) }.joined(separator: " ")
        throw .unknownFormat(firstBytes: "0x" + first)
    }
}

extension String {
    init(format2hex byte: UInt8) {
        let s = String(byte, radix: 16, uppercase: true)
        self = s.count == 1 ? "0" + s : s
    }
}
