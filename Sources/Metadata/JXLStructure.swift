import CJXL
import Containers
import Foundation
import GalleryCore

/// A JPEG XL file's header, read through libjxl without decoding pixels:
/// its size as shown (libjxl turns the pixels upright, so the size is the
/// upright one and the reader reports `.up`), and, in the container form,
/// its `Exif` and `xml ` boxes (Brotli-compressed ones unpacked by libjxl).
struct JXLStructure {
    var size: PixelSize
    /// The EXIF payload from its TIFF header on, if any.
    var exif: [UInt8]?
    var xmp: [UInt8]?

    /// The largest metadata box read; real ones are a few KiB.
    static let maximumBoxBytes = 1 << 20

    init(_ bytes: UnsafeRawBufferPointer) throws(MetadataError) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { throw .empty }
        guard let decoder = JxlDecoderCreate(nil) else { throw .malformed("libjxl could not allocate a decoder") }
        defer { JxlDecoderDestroy(decoder) }
        let events = Int32(JXL_DEC_BASIC_INFO.rawValue | JXL_DEC_BOX.rawValue)
        guard JxlDecoderSubscribeEvents(decoder, events) == JXL_DEC_SUCCESS,
              JxlDecoderSetInput(decoder, base.assumingMemoryBound(to: UInt8.self), bytes.count) == JXL_DEC_SUCCESS else {
            throw .malformed("libjxl refused the file")
        }
        JxlDecoderCloseInput(decoder)
        // cjxl and others store the EXIF Brotli-compressed (`brob`): libjxl unpacks it.
        _ = JxlDecoderSetDecompressBoxes(decoder, 1)
        var info: JxlBasicInfo?
        var reading: (type: String, box: BoxBuffer)?
        var exif: [UInt8]?, xmp: [UInt8]?
        func finishBox() {
            guard let current = reading else { return }
            reading = nil
            guard let payload = current.box.finish(decoder) else { return }
            if current.type == "Exif" {
                // A 4-byte offset to the TIFF header, then the EXIF.
                guard payload.count > 4 else { return }
                let offset = payload.prefix(4).reduce(0) { $0 << 8 | Int($1) }
                if offset >= 0, 4 + offset < payload.count { exif = Array(payload[(4 + offset)...]) }
            } else {
                xmp = payload
            }
        }
        loop: while true {
            switch JxlDecoderProcessInput(decoder) {
            case JXL_DEC_BASIC_INFO:
                var header = JxlBasicInfo()
                guard JxlDecoderGetBasicInfo(decoder, &header) == JXL_DEC_SUCCESS else { break loop }
                info = header
            case JXL_DEC_BOX:
                finishBox()
                var type = JxlBoxType(0, 0, 0, 0)
                guard JxlDecoderGetBoxType(decoder, &type, 1) == JXL_DEC_SUCCESS else { break loop }
                let name = withUnsafeBytes(of: type) { String(decoding: $0.map { UInt8(bitPattern: Int8(bitPattern: $0)) }, as: UTF8.self) }
                if name == "Exif" || name == "xml " {
                    let box = BoxBuffer(limit: Self.maximumBoxBytes)
                    if box.start(decoder) { reading = (name, box) }
                }
            case JXL_DEC_BOX_NEED_MORE_OUTPUT:
                // Too large to be real metadata: dropped.
                if let current = reading, !current.box.grow(decoder) { _ = JxlDecoderReleaseBoxBuffer(decoder); reading = nil }
            default:
                break loop
            }
        }
        finishBox()
        guard let info, info.xsize > 0, info.ysize > 0 else { throw .malformed("JPEG XL header unreadable") }
        let turned = info.orientation.rawValue >= JXL_ORIENT_TRANSPOSE.rawValue
        size = PixelSize(width: Int(turned ? info.ysize : info.xsize), height: Int(turned ? info.xsize : info.ysize))
        self.exif = exif
        self.xmp = xmp
    }
}

/// Memory libjxl writes a box into, grown as it asks, never past `limit`.
private final class BoxBuffer {
    private var storage: UnsafeMutableRawPointer?
    private var capacity = 0
    private var written = 0
    private let limit: Int

    init(limit: Int) { self.limit = limit }
    deinit { free(storage) }

    /// Hands libjxl the first 64 KiB.
    func start(_ decoder: OpaquePointer) -> Bool { resize(decoder, to: min(limit, 64 << 10)) }

    /// Doubles the room (false past `limit`).
    func grow(_ decoder: OpaquePointer) -> Bool {
        written = capacity - JxlDecoderReleaseBoxBuffer(decoder)
        guard capacity < limit else { return false }
        return resize(decoder, to: min(limit, capacity * 2))
    }

    /// The box's bytes, once libjxl has moved on.
    func finish(_ decoder: OpaquePointer) -> [UInt8]? {
        let total = capacity - JxlDecoderReleaseBoxBuffer(decoder)
        guard let storage, total > 0 else { return nil }
        return Array(UnsafeRawBufferPointer(start: storage, count: total))
    }

    private func resize(_ decoder: OpaquePointer, to size: Int) -> Bool {
        guard let grown = realloc(storage, size) else { return false }
        storage = grown
        capacity = size
        let next = grown.advanced(by: written).assumingMemoryBound(to: UInt8.self)
        return JxlDecoderSetBoxBuffer(decoder, next, size - written) == JXL_DEC_SUCCESS
    }
}
