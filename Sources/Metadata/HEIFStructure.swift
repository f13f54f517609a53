import CHEIF
import Foundation
import GalleryCore
import Containers

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

        xmp = Self.firstMetadataBlock(handle, type: "mime", maximum: WordsReader.maximumXMPBytes) { id, _ in
            heif_image_handle_get_metadata_content_type(handle, id).map { String(cString: $0) } == "application/rdf+xml"
        }
        exif = Self.firstMetadataBlock(handle, type: "Exif", maximum: Self.maximumExifBytes) { _, block in
            // The item starts with a big-endian offset from byte 4 to the TIFF header.
            guard block.count > 4 else { return false }
            let offset = Int(block[0]) << 24 | Int(block[1]) << 16 | Int(block[2]) << 8 | Int(block[3])
            return offset < block.count - 4
        }.map { block in
            let offset = Int(block[0]) << 24 | Int(block[1]) << 16 | Int(block[2]) << 8 | Int(block[3])
            return Array(block[(4 + offset)...])
        }
    }

    /// The first metadata item of `type` no larger than `maximum` that
    /// `accepts` (shown its id, then its bytes), read whole.
    static func firstMetadataBlock(_ handle: OpaquePointer, type: String, maximum: Int,
                                   accepts: (heif_item_id, [UInt8]) -> Bool) -> [UInt8]? {
        let count = Int(heif_image_handle_get_number_of_metadata_blocks(handle, type))
        guard count > 0 else { return nil }
        var ids = [heif_item_id](repeating: 0, count: count)
        let listed = Int(heif_image_handle_get_list_of_metadata_block_IDs(handle, type, &ids, Int32(count)))
        for id in ids.prefix(listed) {
            let length = heif_image_handle_get_metadata_size(handle, id)
            guard length > 0, length <= maximum else { continue }
            var block = [UInt8](repeating: 0, count: length)
            guard heif_image_handle_get_metadata(handle, id, &block).code == heif_error_Ok, accepts(id, block) else { continue }
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
