import GalleryCore
import Containers

/// The hash that names a photo's renditions and tells duplicates apart.
///
/// For a JPEG it covers what decides the pixels, not the words: every
/// segment except the APPn and COM ones (tables, frame, scans), the ICC
/// profile (APP2) and the EXIF orientation. Writing a caption, keywords or a
/// rating into the file (Lightroom's "Save metadata to file" rewrites XMP,
/// IPTC and EXIF) then keeps the name: the pages change, no image is
/// re-encoded. Other formats are hashed whole.
public enum ContentIdentity {
    /// Bumped when what is hashed changes (it is part of every rendition's name).
    public static let version = 2

    public static func hash(_ bytes: UnsafeRawBufferPointer, format: SourceFormat, orientation: Orientation) -> ContentHash {
        guard format == .jpeg, let pixels = jpegPixelHash(bytes, orientation: orientation) else { return StableHash.contentHash(of: bytes) }
        return pixels
    }

    static func jpegPixelHash(_ bytes: UnsafeRawBufferPointer, orientation: Orientation) -> ContentHash? {
        let r = ByteReader(bytes: bytes)
        guard r.u8(0) == 0xFF, r.u8(1) == 0xD8 else { return nil }
        var hasher = StableHash()
        hasher.update("jpeg-pixels v\(version) orientation \(orientation.rawValue)")
        var offset = 2
        while offset + 4 <= r.count {
            guard r.u8(offset) == 0xFF, let marker = r.u8(offset + 1) else { return nil }
            if marker == 0xFF { offset += 1; continue }
            if marker == 0xDA {
                // The first scan and everything after it (entropy-coded data,
                // further tables and scans, EOI, and whatever trails): pixels.
                hasher.update(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
                return hasher.contentHash()
            }
            guard let length = r.u16be(offset + 2), length >= 2, let segment = r.slice(offset, 2 + length) else { return nil }
            let isApplication = (0xE0...0xEF).contains(marker)
            // Kept: the ICC profile (colours) and Adobe's APP14 (its colour
            // transform decides how CMYK/YCCK data decodes).
            let decidesPixels = (marker == 0xE2 && r.matches(offset + 4, "ICC_PROFILE\0")) || (marker == 0xEE && r.matches(offset + 4, "Adobe"))
            if (!isApplication && marker != 0xFE) || decidesPixels { hasher.update(segment) }
            offset += 2 + length
        }
        return nil
    }
}
