/// Cleans text that comes from a file (EXIF, names): decodes UTF-8 with
/// replacement, drops control and format characters, trims, and bounds the length.
public enum UntrustedText {
    /// The cleaned string, or nil when nothing printable is left.
    public static func clean<Bytes: Collection>(_ bytes: Bytes, maximumLength: Int = 120) -> String? where Bytes.Element == UInt8 {
        let decoded = String(decoding: bytes, as: UTF8.self)
        var scalars = String.UnicodeScalarView()
        for scalar in decoded.unicodeScalars {
            let category = scalar.properties.generalCategory
            if category == .control || category == .format { continue }
            scalars.append(scalar)
        }
        var text = Substring(String(scalars))
        while let first = text.first, first.isWhitespace { text = text.dropFirst() }
        while let last = text.last, last.isWhitespace { text = text.dropLast() }
        let result = text.count > maximumLength ? String(text.prefix(maximumLength)) : String(text)
        return result.isEmpty ? nil : result
    }
}
