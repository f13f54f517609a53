/// ASCII text folded the way slugs and search tokens fold it.
public enum ASCIIFolding {
    /// `byte` lowercased when it is an ASCII letter or digit; nil for anything
    /// else (a separator). What Foundation's case folding gives for ASCII.
    @inline(__always)
    public static func letterOrDigit(_ byte: UInt8) -> UInt8? {
        let lower = byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
        return (lower >= 0x61 && lower <= 0x7A) || (lower >= 0x30 && lower <= 0x39) ? lower : nil
    }
}
