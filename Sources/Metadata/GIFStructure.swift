import GalleryCore

/// A GIF's logical screen and frame count, found by walking its blocks without
/// decompressing any image data.
struct GIFStructure {
    var size: PixelSize
    var frameCount: Int

    init(_ bytes: UnsafeRawBufferPointer) throws(MetadataError) {
        let r = ByteReader(bytes: bytes)
        guard let screenWidth = r.u16le(6), let screenHeight = r.u16le(8), let flags = r.u8(10) else {
            throw .malformed("GIF header is cut short")
        }
        var offset = 13
        if flags & 0x80 != 0 { offset += 3 << ((flags & 7) + 1) }
        var frames = 0
        var firstFrame: PixelSize?
        func skipSubBlocks(_ start: Int) -> Int? {
            var o = start
            while let n = r.u8(o) {
                o += 1 + n
                if n == 0 { return o }
            }
            return nil
        }
        scan: while let introducer = r.u8(offset) {
            switch introducer {
            case 0x21:
                guard let end = skipSubBlocks(offset + 2) else { break scan }
                offset = end
            case 0x2C:
                guard let w = r.u16le(offset + 5), let h = r.u16le(offset + 7), let localFlags = r.u8(offset + 9) else { break scan }
                if firstFrame == nil { firstFrame = PixelSize(width: w, height: h) }
                offset += 10
                if localFlags & 0x80 != 0 { offset += 3 << ((localFlags & 7) + 1) }
                guard let end = skipSubBlocks(offset + 1) else {
                    // A frame cut short still counts if it started: browsers show what arrived.
                    frames += 1
                    break scan
                }
                frames += 1
                offset = end
            default:
                break scan  // trailer (0x3B) or garbage
            }
        }
        guard frames > 0 else { throw .malformed("GIF has no image") }
        // A 0×0 logical screen means "use the first frame's size" (as browsers do).
        var size = PixelSize(width: screenWidth, height: screenHeight)
        if size.width == 0 || size.height == 0, let first = firstFrame { size = first }
        guard size.width > 0, size.height > 0 else { throw .invalidSize(width: size.width, height: size.height) }
        self.size = size
        self.frameCount = frames
    }
}
