import GalleryCore
import Containers

/// What the JPEG marker segments say, found by walking them up to the first scan.
struct JPEGStructure {
    var size: PixelSize
    var exif: UnsafeRawBufferPointer?
    /// The XMP packet (APP1 `http://ns.adobe.com/xap/1.0/`).
    var xmp: UnsafeRawBufferPointer?
    /// The Photoshop image resources (APP13 `Photoshop 3.0`), which hold IPTC.
    var photoshop: UnsafeRawBufferPointer?

    /// Walks SOI, APPn and SOFn segments. Only headers are touched, never
    /// entropy-coded data.
    init(_ bytes: UnsafeRawBufferPointer) throws(MetadataError) {
        let r = ByteReader(bytes: bytes)
        var offset = 2
        var exif: UnsafeRawBufferPointer?
        var xmp: UnsafeRawBufferPointer?, photoshop: UnsafeRawBufferPointer?
        let xmpSignature = "http://ns.adobe.com/xap/1.0/\0", photoshopSignature = "Photoshop 3.0\0"
        while true {
            // Markers may be preceded by any number of 0xFF fill bytes.
            guard var marker = r.u8(offset) else { throw .malformed("JPEG ends before its frame header") }
            guard marker == 0xFF else { throw .malformed("JPEG marker expected at byte \(offset)") }
            while marker == 0xFF {
                offset += 1
                guard let next = r.u8(offset) else { throw .malformed("JPEG ends before its frame header") }
                marker = next
            }
            offset += 1
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { continue }
            if marker == 0xD9 || marker == 0xDA { throw .malformed("JPEG has no frame header before its image data") }
            guard let length = r.u16be(offset), length >= 2 else { throw .malformed("JPEG segment length is broken at byte \(offset)") }
            let body = offset + 2
            let bodyLength = length - 2
            if marker == 0xE1, exif == nil, r.matches(body, "Exif\0\0"), let payload = r.slice(body, min(bodyLength, r.count - body)) {
                exif = payload
            } else if marker == 0xE1, xmp == nil, r.matches(body, xmpSignature) {
                xmp = r.slice(body + xmpSignature.utf8.count, max(0, min(bodyLength, r.count - body) - xmpSignature.utf8.count))
            } else if marker == 0xED, photoshop == nil, r.matches(body, photoshopSignature) {
                photoshop = r.slice(body + photoshopSignature.utf8.count, max(0, min(bodyLength, r.count - body) - photoshopSignature.utf8.count))
            }
            let isFrame = (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
            if isFrame {
                guard let height = r.u16be(body + 1), let width = r.u16be(body + 3) else {
                    throw .malformed("JPEG frame header is cut short")
                }
                guard width > 0, height > 0 else { throw .invalidSize(width: width, height: height) }
                self.size = PixelSize(width: width, height: height)
                self.exif = exif
                self.xmp = xmp
                self.photoshop = photoshop
                return
            }
            offset = body + bodyLength
        }
    }
}
