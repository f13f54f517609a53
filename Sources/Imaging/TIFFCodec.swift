import CTIFF
import Foundation
import GalleryCore

/// Decodes the first page of a TIFF with libtiff's RGBA reader, which covers
/// every layout a scanner or editor writes: 1–16 bits, RGB, greyscale,
/// palette, CMYK, YCbCr; LZW, Deflate, JPEG, PackBits; strips and tiles.
/// The pixels stay in stored order (the Orientation tag is applied after
/// resizing, like EXIF orientation); libtiff's messages are collected, never
/// printed, and its first error is the reason given.
public enum TIFFCodec {
    /// The largest single allocation libtiff may make for one strip or tile.
    static let maximumSingleAllocation = 1 << 30

    /// The file read from memory, and what libtiff said about it.
    final class Source {
        let bytes: UnsafeRawBufferPointer
        var position = 0
        var firstError: String?

        init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }
    }

    public static func decode(_ bytes: UnsafeRawBufferPointer, maximumPixels: Int) throws(ImagingError) -> DecodedImage {
        let source = Source(bytes)
        let handle = Unmanaged.passUnretained(source).toOpaque()
        guard let options = TIFFOpenOptionsAlloc() else { throw .undecodable("libtiff could not allocate options") }
        defer { TIFFOpenOptionsFree(options) }
        TIFFOpenOptionsSetMaxSingleMemAlloc(options, tmsize_t(maximumSingleAllocation))
        TIFFOpenOptionsSetErrorHandlerExtR(options, { _, user, module, format, arguments in
            guard let user, let format, let arguments else { return 1 }
            let source = Unmanaged<Source>.fromOpaque(user).takeUnretainedValue()
            if source.firstError == nil {
                var buffer = [CChar](repeating: 0, count: 512)
                vsnprintf(&buffer, buffer.count, format, arguments)
                source.firstError = TIFFCodec.text(buffer)
            }
            return 1
        }, handle)
        TIFFOpenOptionsSetWarningHandlerExtR(options, { _, _, _, _, _ in 1 }, handle)

        let opened = TIFFClientOpenExt("memory", "rm", handle, { handle, buffer, size in
            // read
            guard let handle, let buffer, size > 0 else { return 0 }
            let source = Unmanaged<Source>.fromOpaque(handle).takeUnretainedValue()
            let count = max(0, min(Int(size), source.bytes.count - source.position))
            if count > 0, let base = source.bytes.baseAddress {
                buffer.copyMemory(from: base + source.position, byteCount: count)
            }
            source.position += count
            return tmsize_t(count)
        }, { _, _, _ in 0 /* write: read-only */ }, { handle, offset, whence in
            guard let handle else { return toff_t(UInt64.max) }
            let source = Unmanaged<Source>.fromOpaque(handle).takeUnretainedValue()
            let base: Int
            switch whence {
            case SEEK_CUR: base = source.position
            case SEEK_END: base = source.bytes.count
            default: base = 0
            }
            let (target, overflow) = base.addingReportingOverflow(Int(truncatingIfNeeded: offset))
            guard !overflow, target >= 0 else { return toff_t(UInt64.max) }
            source.position = target
            return toff_t(target)
        }, { _ in 0 /* close */ }, { handle in
            guard let handle else { return 0 }
            return toff_t(Unmanaged<Source>.fromOpaque(handle).takeUnretainedValue().bytes.count)
        }, { _, _, _ in 0 /* no mapping */ }, { _, _, _ in }, options)
        guard let tiff = opened else { throw .undecodable(reason(source, "not a readable TIFF")) }
        defer { TIFFClose(tiff) }

        var message = [CChar](repeating: 0, count: 1024)
        guard TIFFRGBAImageOK(tiff, &message) != 0 else {
            throw .undecodable("libtiff cannot read this layout: \(text(message))")
        }
        var image = TIFFRGBAImage()
        guard TIFFRGBAImageBegin(&image, tiff, 0, &message) != 0 else {
            throw .undecodable("libtiff cannot read this layout: \(text(message))")
        }
        defer { TIFFRGBAImageEnd(&image) }
        let width = Int(image.width), height = Int(image.height)
        guard width > 0, height > 0 else { throw .undecodable("TIFF image has no size") }
        guard width * height <= maximumPixels else { throw .tooLarge(pixels: width * height, limit: maximumPixels) }
        // Rows top first, in the order they are stored: the Orientation tag
        // is applied after resizing, with the other formats' orientation.
        image.req_orientation = UInt16(ORIENTATION_TOPLEFT)
        image.orientation = UInt16(ORIENTATION_TOPLEFT)
        // libtiff hands out alpha premultiplied (it premultiplies unassociated alpha itself).
        let hasAlphaSamples = image.alpha != 0
        var failed = false
        let rgba = RGBAImage(width: width, height: height, hasAlpha: hasAlphaSamples) { buffer in
            // ABGR in a native-endian UInt32 is R, G, B, A in memory on little-endian machines.
            let raster = UnsafeMutableRawPointer(buffer.baseAddress!).bindMemory(to: UInt32.self, capacity: width * height)
            failed = TIFFRGBAImageGet(&image, raster, UInt32(width), UInt32(height)) == 0
            if hasAlphaSamples {
                for o in stride(from: 0, to: width * height * 4, by: 4) { RGBAImage.unpremultiply(buffer, at: o) }
            }
        }
        if failed { throw .damaged(reason(source, "image data could not be read whole")) }
        let hasAlpha = hasAlphaSamples && rgba.pixels.withUnsafeBufferPointer { RGBAImage.anyTransparent($0) }
        var result = DecodedImage(image: rgba, iccProfile: iccProfile(tiff))
        result.image.hasAlpha = hasAlpha
        return result
    }

    /// The ICC profile tag (34675), if any.
    static func iccProfile(_ tiff: OpaquePointer) -> [UInt8]? {
        var count: UInt32 = 0
        var data: UnsafeMutableRawPointer?
        let found = withUnsafeMutablePointer(to: &count) { countPointer in
            withUnsafeMutablePointer(to: &data) { dataPointer in
                withVaList([countPointer, dataPointer]) { TIFFVGetField(tiff, UInt32(TIFFTAG_ICCPROFILE), $0) }
            }
        }
        guard found != 0, let data, count > 0, count < 4 << 20 else { return nil }
        return Array(UnsafeRawBufferPointer(start: data, count: Int(count)))
    }

    /// A NUL-terminated C message buffer as text.
    static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func reason(_ source: Source, _ fallback: String) -> String {
        source.firstError.map { "libtiff: \($0)" } ?? fallback
    }
}
