import GalleryCore
import Containers

/// Tells the format from the first bytes, so a PNG named `.jpg` is still read
/// right. The name decides only where the bytes cannot: many RAW formats (NEF,
/// ARW, DNG, PEF, …) are TIFF files on the outside.
public enum FormatSniffer {
    /// HEIF/AVIF `ftyp` brands (major or compatible) of still images.
    static let heifBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "avif", "avis", "miaf"]

    /// The format, or an error naming the first bytes.
    public static func format(of bytes: UnsafeRawBufferPointer, fileName: String? = nil) throws(MetadataError) -> SourceFormat {
        let r = ByteReader(bytes: bytes)
        guard bytes.count > 0 else { throw .empty }
        if r.u8(0) == 0xFF, r.u8(1) == 0xD8, r.u8(2) == 0xFF { return .jpeg }
        if r.u8(0) == 0x89, r.matches(1, "PNG\r\n\u{1A}\n") { return .png }
        if r.matches(0, "GIF87a") || r.matches(0, "GIF89a") { return .gif }
        if r.matches(0, "RIFF"), r.matches(8, "WEBP") { return .webp }
        // JPEG XL: a bare codestream, or the container's signature box.
        if r.u8(0) == 0xFF, r.u8(1) == 0x0A { return .jxl }
        if r.u32be(0) == 12, r.matches(4, "JXL "), r.u8(8) == 0x0D, r.u8(9) == 0x0A, r.u8(10) == 0x87, r.u8(11) == 0x0A { return .jxl }
        if r.matches(4, "ftyp"), let brands = ftypBrands(r) {
            if brands.contains("crx ") { return .raw }  // Canon CR3
            if !heifBrands.isDisjoint(with: brands) { return .heif }
        }
        // RAW formats with a signature of their own: Olympus ORF, Panasonic
        // RW2, Fujifilm RAF, Sigma X3F, Minolta MRW.
        if r.matches(0, "IIRO") || r.matches(0, "IIRS") || r.matches(0, "MMOR") || r.matches(0, "IIU\0")
            || r.matches(0, "FUJIFILMCCD-RAW") || r.matches(0, "FOVb") || r.matches(0, "\0MRM") {
            return .raw
        }
        if r.matches(0, "II*\0") || r.matches(0, "MM\0*") {
            if r.matches(8, "CR") { return .raw }  // Canon CR2
            return fileName.map(SourceFileTypes.isRaw) == true ? .raw : .tiff
        }
        let first = (0..<min(4, bytes.count)).map { String(format2hex: bytes[$0]) }.joined(separator: " ")
        throw .unknownFormat(firstBytes: "0x" + first)
    }

    /// The major and compatible brands of an ISO base media `ftyp` box at the start.
    static func ftypBrands(_ r: ByteReader) -> Set<String>? {
        guard let size = r.u32be(0), size >= 16, size <= 4096, size <= r.count else { return nil }
        var brands: Set<String> = []
        for offset in stride(from: 8, to: size - 3, by: 4) where offset != 12 {  // offset 12: the minor version
            guard let slice = r.slice(offset, 4) else { break }
            brands.insert(String(decoding: slice, as: UTF8.self))
        }
        return brands
    }
}

extension String {
    init(format2hex byte: UInt8) {
        let s = String(byte, radix: 16, uppercase: true)
        self = s.count == 1 ? "0" + s : s
    }
}
