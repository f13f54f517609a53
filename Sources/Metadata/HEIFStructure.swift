import CHEIF
import Foundation
import GalleryCore

/// A HEIF/AVIF file's primary image, read through libheif without decoding
/// pixels: its size as shown (the stored `ispe` size with the HEIF transforms
/// `irot`/`imir`/`clap` applied) and its `Exif` item.
///
/// EXIF Orientation is informational in HEIF: libheif already applies the
/// transforms when decoding, and applying the EXIF tag as well would turn the
/// picture twice (libheif #498, #227, #680). So the size here is upright and
/// the metadata reader reports `.up`.
struct HEIFStructure {
    /// Upright size of the primary image.
    var size: PixelSize
    /// The EXIF payload from its TIFF header on, if any.
    var exif: [UInt8]?
    /// The XMP item (`mime` of type application/rdf+xml).
    var xmp: [UInt8]?

    /// The largest Exif item read; real ones are a few KiB.
    static let maximumExifBytes = 1 << 20

    init(_ bytes: UnsafeRawBufferPointer) throws(MetadataError) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { throw .empty }
        if let violation = HEIFCodedSize.violation(bytes) { throw .malformed(violation) }
        guard let context = heif_context_alloc() else { throw .malformed("libheif could not allocate a context") }
        defer { heif_context_free(context) }
        try Self.check(heif_context_read_from_memory_without_copy(context, base, bytes.count, nil))
        var handle: OpaquePointer?
        try Self.check(heif_context_get_primary_image_handle(context, &handle))
        guard let handle else { throw .malformed("HEIF file has no primary image") }
        defer { heif_image_handle_release(handle) }
        let width = Int(heif_image_handle_get_width(handle)), height = Int(heif_image_handle_get_height(handle))
        guard width > 0, height > 0 else { throw .invalidSize(width: width, height: height) }
        size = PixelSize(width: width, height: height)

        xmp = Self.xmpItem(handle)
        let count = Int(heif_image_handle_get_number_of_metadata_blocks(handle, "Exif"))
        guard count > 0 else { return }
        var ids = [heif_item_id](repeating: 0, count: count)
        let listed = Int(heif_image_handle_get_list_of_metadata_block_IDs(handle, "Exif", &ids, Int32(count)))
        for id in ids.prefix(listed) {
            let length = heif_image_handle_get_metadata_size(handle, id)
            guard length > 4, length <= Self.maximumExifBytes else { continue }
            var block = [UInt8](repeating: 0, count: length)
            guard heif_image_handle_get_metadata(handle, id, &block).code == heif_error_Ok else { continue }
            // The item starts with a big-endian offset from byte 4 to the TIFF header.
            let offset = Int(block[0]) << 24 | Int(block[1]) << 16 | Int(block[2]) << 8 | Int(block[3])
            guard offset >= 0, offset < length - 4 else { continue }
            exif = Array(block[(4 + offset)...])
            return
        }
    }

    /// The first XMP metadata item of `handle`, if any and not oversized.
    static func xmpItem(_ handle: OpaquePointer) -> [UInt8]? {
        let count = Int(heif_image_handle_get_number_of_metadata_blocks(handle, "mime"))
        guard count > 0 else { return nil }
        var ids = [heif_item_id](repeating: 0, count: count)
        let listed = Int(heif_image_handle_get_list_of_metadata_block_IDs(handle, "mime", &ids, Int32(count)))
        for id in ids.prefix(listed) {
            guard let type = heif_image_handle_get_metadata_content_type(handle, id), String(cString: type) == "application/rdf+xml" else { continue }
            let length = heif_image_handle_get_metadata_size(handle, id)
            guard length > 0, length <= WordsReader.maximumXMPBytes else { continue }
            var block = [UInt8](repeating: 0, count: length)
            guard heif_image_handle_get_metadata(handle, id, &block).code == heif_error_Ok else { continue }
            return block
        }
        return nil
    }

    /// Turns a libheif status into a `MetadataError` with libheif's own reason.
    static func check(_ error: heif_error) throws(MetadataError) {
        guard error.code != heif_error_Ok else { return }
        let reason = error.message.map { String(cString: $0) } ?? "error \(error.code.rawValue)"
        throw .malformed("HEIF file not readable by libheif: \(reason.trimmingCharacters(in: .whitespacesAndNewlines))")
    }
}
