import GalleryCore
/// Bounds-checked big/little-endian reads over a byte buffer: every container
/// walker uses it so no hostile length can read past the end.
public struct ByteReader {
    public let bytes: UnsafeRawBufferPointer

    public init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    public var count: Int { bytes.count }

    public func u8(_ offset: Int) -> Int? {
        guard offset >= 0, offset < bytes.count else { return nil }
        return Int(bytes[offset])
    }

    public func u16be(_ offset: Int) -> Int? {
        guard let a = u8(offset), let b = u8(offset + 1) else { return nil }
        return a << 8 | b
    }

    public func u16le(_ offset: Int) -> Int? {
        guard let a = u8(offset), let b = u8(offset + 1) else { return nil }
        return b << 8 | a
    }

    public func u32be(_ offset: Int) -> Int? {
        guard let a = u16be(offset), let b = u16be(offset + 2) else { return nil }
        return a << 16 | b
    }

    public func u32le(_ offset: Int) -> Int? {
        guard let a = u16le(offset), let b = u16le(offset + 2) else { return nil }
        return b << 16 | a
    }

    public func matches(_ offset: Int, _ ascii: String) -> Bool {
        let expected = Array(ascii.utf8)
        guard offset >= 0, offset + expected.count <= bytes.count else { return false }
        for (i, byte) in expected.enumerated() where bytes[offset + i] != byte { return false }
        return true
    }

    public func slice(_ offset: Int, _ length: Int) -> UnsafeRawBufferPointer? {
        guard offset >= 0, length >= 0, offset <= bytes.count, length <= bytes.count - offset else { return nil }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + length])
    }
}
