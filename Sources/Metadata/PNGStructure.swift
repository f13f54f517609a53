import GalleryCore
import Containers

/// What a PNG's chunks say: size from IHDR, EXIF from eXIf, frames from acTL.
struct PNGStructure {
    var size: PixelSize
    var exif: UnsafeRawBufferPointer?
    /// An uncompressed XMP packet (iTXt `XML:com.adobe.xmp`).
    var xmp: UnsafeRawBufferPointer?
    var frameCount: Int = 1

    init(_ bytes: UnsafeRawBufferPointer) throws(MetadataError) {
        let r = ByteReader(bytes: bytes)
        guard r.matches(12, "IHDR"), let width = r.u32be(16), let height = r.u32be(20) else {
            throw .malformed("PNG header is cut short")
        }
        guard width > 0, height > 0 else { throw .invalidSize(width: width, height: height) }
        size = PixelSize(width: width, height: height)
        var offset = 8
        // Chunks after the image data are allowed to hold eXIf, so walk them all;
        // it is cheap (lengths only) and bounded by the file size.
        while let length = r.u32be(offset), r.slice(offset + 4, 4) != nil {
            let body = offset + 8
            if r.matches(offset + 4, "eXIf"), exif == nil, let data = r.slice(body, min(length, max(0, r.count - body))) {
                exif = data
            } else if r.matches(offset + 4, "iTXt"), xmp == nil, r.matches(body, "XML:com.adobe.xmp\0"),
                      let chunk = r.slice(body, min(length, max(0, r.count - body))) {
                xmp = Self.uncompressedInternationalText(chunk)
            } else if r.matches(offset + 4, "acTL"), let frames = r.u32be(body), frames > 0 {
                frameCount = frames
            } else if r.matches(offset + 4, "IEND") {
                break
            }
            let next = body + length + 4
            guard next > offset else { break }
            offset = next
        }
    }

    /// The text of an iTXt chunk (keyword, NUL, compression flag and method,
    /// language tag, NUL, translated keyword, NUL, text) when not compressed.
    static func uncompressedInternationalText(_ chunk: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        guard let keywordEnd = chunk.firstIndex(of: 0), keywordEnd + 2 < chunk.count, chunk[keywordEnd + 1] == 0 else { return nil }
        guard let languageEnd = chunk[(keywordEnd + 3)...].firstIndex(of: 0),
              let translatedEnd = chunk[(languageEnd + 1)...].firstIndex(of: 0) else { return nil }
        return UnsafeRawBufferPointer(rebasing: chunk[(translatedEnd + 1)...])
    }
}
