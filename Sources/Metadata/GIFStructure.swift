import GalleryCore
import Containers

/// A GIF's logical screen and frame count, found by walking its blocks without
/// decompressing any image data.
struct GIFStructure {
    var size: PixelSize
    var frameCount: Int

    init(_ bytes: UnsafeRawBufferPointer) throws(MetadataError) {
        let r = ByteReader(bytes: bytes)
        guard let screenWidth = r.u16le(6), let screenHeight = r.u16le(8), let start = Self.blocksStart(r) else {
            throw .malformed("GIF header is cut short")
        }
        var frames = 0
        var firstFrame: PixelSize?
        Self.forEachBlock(r, from: start) { introducer, offset, _ in
            guard introducer == 0x2C else { return }
            // A frame cut short still counts if it started: browsers show what arrived.
            frames += 1
            if firstFrame == nil, let w = r.u16le(offset + 5), let h = r.u16le(offset + 7) { firstFrame = PixelSize(width: w, height: h) }
        }
        guard frames > 0 else { throw .malformed("GIF has no image") }
        // A 0×0 logical screen means "use the first frame's size" (as browsers do).
        var size = PixelSize(width: screenWidth, height: screenHeight)
        if size.width == 0 || size.height == 0, let first = firstFrame { size = first }
        guard size.width > 0, size.height > 0 else { throw .invalidSize(width: size.width, height: size.height) }
        self.size = size
        self.frameCount = frames
    }

    /// The offset of the first block: after the 13-byte header and the
    /// global palette. Nil when the header is cut short.
    static func blocksStart(_ r: ByteReader) -> Int? {
        guard let flags = r.u8(10) else { return nil }
        return 13 + (flags & 0x80 != 0 ? 3 << ((flags & 7) + 1) : 0)
    }

    /// Calls `visit` with each extension (0x21) and image (0x2C) block: its
    /// introducer, start, and end (nil when the block runs past the data,
    /// which ends the walk). Stops at the trailer or anything else. Returns
    /// where the walk stopped.
    @discardableResult
    static func forEachBlock(_ r: ByteReader, from start: Int, _ visit: (_ introducer: Int, _ start: Int, _ end: Int?) -> Void) -> Int {
        func skipSubBlocks(_ start: Int) -> Int? {
            var o = start
            while let n = r.u8(o) {
                o += 1 + n
                if n == 0 { return o }
            }
            return nil
        }
        var offset = start
        while let introducer = r.u8(offset) {
            let end: Int?
            switch introducer {
            case 0x21:
                end = skipSubBlocks(offset + 2)
            case 0x2C:
                guard let localFlags = r.u8(offset + 9) else { return offset }  // descriptor cut short: not a frame
                let palette = localFlags & 0x80 != 0 ? 3 << ((localFlags & 7) + 1) : 0
                end = skipSubBlocks(offset + 10 + palette + 1)  // after the LZW minimum code size
            default:
                return offset  // trailer (0x3B) or garbage
            }
            visit(introducer, offset, end)
            guard let end else { return offset }
            offset = end
        }
        return offset
    }
}
