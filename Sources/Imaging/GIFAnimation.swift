import CGIF
import GalleryCore

/// Streams an animated GIF frame by frame with giflib's record API and
/// composites each frame exactly as browsers do. Only the canvas, one saved
/// rectangle and one line buffer are alive at a time, so a long animation never
/// piles up frames in memory.
public enum GIFAnimation {
    /// Canvas size and loop count in WebP terms: 0 = forever, n = play n times.
    public struct Info: Sendable, Equatable {
        /// Canvas size.
        public var size: PixelSize
        /// 0 for endless, otherwise the number of plays.
        public var loopCount: Int
    }

    private final class Cursor {
        let bytes: UnsafeRawBufferPointer
        var offset = 0
        init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }
    }

    private static let read: InputFunc = { gif, target, wanted in
        guard let gif, let target, let user = gif.pointee.UserData else { return 0 }
        let cursor = Unmanaged<Cursor>.fromOpaque(user).takeUnretainedValue()
        let count = max(0, min(Int(wanted), cursor.bytes.count - cursor.offset))
        if count > 0, let base = cursor.bytes.baseAddress {
            UnsafeMutableRawPointer(target).copyMemory(from: base + cursor.offset, byteCount: count)
        }
        cursor.offset += count
        return Int32(count)
    }

    /// Browsers show delays of 10 ms or less as 100 ms.
    public static func effectiveDelay(centiseconds: Int) -> Int {
        centiseconds <= 1 ? 100 : centiseconds * 10
    }

    /// Decodes and composites frames, calling `body` with each canvas and its
    /// duration in milliseconds, up to `frameLimit` frames. Returns the canvas
    /// size and loop count. A file cut short after its first frame ends the
    /// animation there, as in a browser.
    @discardableResult
    public static func forEachFrame(_ bytes: UnsafeRawBufferPointer, maximumPixels: Int, frameLimit: Int = .max,
                                    _ body: (RGBAImage, Int) throws(ImagingError) -> Void) throws(ImagingError) -> Info {
        let cursor = Cursor(bytes)
        var error: Int32 = 0
        let user = Unmanaged.passUnretained(cursor).toOpaque()
        guard let gif = DGifOpen(user, read, &error) else { throw .undecodable("not a readable GIF (\(reason(error)))") }
        defer {
            var closeError: Int32 = 0
            DGifCloseFile(gif, &closeError)
            withExtendedLifetime(cursor) {}
        }
        var canvasWidth = Int(gif.pointee.SWidth), canvasHeight = Int(gif.pointee.SHeight)
        var canvas: [UInt8] = []
        var loopCount = 1
        var disposal = 0, delay = 0, transparent = -1
        var frames = 0
        var line: [GifByteType] = []

        func fail(_ what: String) -> ImagingError {
            .undecodable("GIF \(what) (\(reason(gif.pointee.Error)))")
        }

        records: while frames < frameLimit {
            var type = UNDEFINED_RECORD_TYPE
            guard DGifGetRecordType(gif, &type) != GIF_ERROR else {
                if frames > 0 { break records }
                throw fail("is cut short")
            }
            switch type {
            case EXTENSION_RECORD_TYPE:
                var code: Int32 = 0
                var block: UnsafeMutablePointer<GifByteType>?
                guard DGifGetExtension(gif, &code, &block) != GIF_ERROR else {
                    if frames > 0 { break records }
                    throw fail("extension is malformed")
                }
                var isNetscape = false
                var first = true
                while let data = block {
                    let length = Int(data[0])
                    if code == GRAPHICS_EXT_FUNC_CODE, first, length >= 4 {
                        disposal = Int(data[1] >> 2) & 7
                        delay = Int(data[2]) | Int(data[3]) << 8
                        transparent = data[1] & 1 != 0 ? Int(data[4]) : -1
                    } else if code == APPLICATION_EXT_FUNC_CODE, first, length == 11 {
                        isNetscape = (0..<11).map { Character(UnicodeScalar(data[1 + $0])) } == Array("NETSCAPE2.0") ||
                            (0..<11).map { Character(UnicodeScalar(data[1 + $0])) } == Array("ANIMEXTS1.0")
                    } else if isNetscape, length >= 3, data[1] == 1 {
                        let n = Int(data[2]) | Int(data[3]) << 8
                        loopCount = n == 0 ? 0 : n + 1
                    }
                    first = false
                    guard DGifGetExtensionNext(gif, &block) != GIF_ERROR else {
                        if frames > 0 { break records }
                        throw fail("extension is cut short")
                    }
                }
            case IMAGE_DESC_RECORD_TYPE:
                guard DGifGetImageDesc(gif) != GIF_ERROR else {
                    if frames > 0 { break records }
                    throw fail("frame header is malformed")
                }
                let desc = gif.pointee.Image
                let left = Int(desc.Left), top = Int(desc.Top), width = Int(desc.Width), height = Int(desc.Height)
                if frames == 0 {
                    // A 0×0 logical screen means "use the first frame's size".
                    if canvasWidth == 0 || canvasHeight == 0 { canvasWidth = width; canvasHeight = height }
                    guard canvasWidth > 0, canvasHeight > 0 else { throw .undecodable("GIF declares no pixels") }
                    guard canvasWidth * canvasHeight <= maximumPixels else {
                        throw .tooLarge(pixels: canvasWidth * canvasHeight, limit: maximumPixels)
                    }
                    canvas = [UInt8](repeating: 0, count: canvasWidth * canvasHeight * 4)
                }
                guard width * height <= maximumPixels else { throw .tooLarge(pixels: width * height, limit: maximumPixels) }
                let map = desc.ColorMap ?? gif.pointee.SColorMap
                var palette = [UInt32]()
                if let map, let colors = map.pointee.Colors {
                    for i in 0..<Int(map.pointee.ColorCount) {
                        let c = colors[i]
                        palette.append(UInt32(c.Red) | UInt32(c.Green) << 8 | UInt32(c.Blue) << 16 | 0xFF00_0000)
                    }
                }
                // Clip the frame rectangle to the canvas.
                let x0 = max(0, left), y0 = max(0, top)
                let x1 = min(canvasWidth, left + width), y1 = min(canvasHeight, top + height)
                var saved: [UInt8]?
                if disposal == 3, x1 > x0, y1 > y0 {
                    var copy = [UInt8]()
                    copy.reserveCapacity((x1 - x0) * (y1 - y0) * 4)
                    for y in y0..<y1 { copy.append(contentsOf: canvas[(y * canvasWidth + x0) * 4..<(y * canvasWidth + x1) * 4]) }
                    saved = copy
                }
                if line.count < width { line = [GifByteType](repeating: 0, count: width) }
                let rows = desc.Interlace ? interlacedRows(height) : Array(0..<height)
                var complete = true
                canvas.withUnsafeMutableBytes { raw in
                    let pixels = raw.bindMemory(to: UInt32.self)
                    line.withUnsafeMutableBufferPointer { lineBuffer in
                        for row in rows {
                            guard width == 0 || DGifGetLine(gif, lineBuffer.baseAddress, Int32(width)) != GIF_ERROR else {
                                complete = false
                                return
                            }
                            let y = top + row
                            // Rows (and columns) outside the canvas are read but not drawn.
                            guard y >= y0, y < y1, x1 > x0 else { continue }
                            for x in x0..<x1 {
                                let index = Int(lineBuffer[x - left])
                                if index == transparent || index >= palette.count { continue }
                                pixels[y * canvasWidth + x] = UInt32(littleEndian: palette[index])
                            }
                        }
                    }
                }
                if !complete && frames == 0 { throw fail("image data is cut short") }
                let transparentCanvas = canvas.withUnsafeBufferPointer(RGBAImage.anyTransparent)
                try body(RGBAImage(width: canvasWidth, height: canvasHeight, pixels: canvas, hasAlpha: transparentCanvas),
                         effectiveDelay(centiseconds: delay))
                frames += 1
                if !complete { break records }
                // Dispose of the frame before the next one is drawn.
                if x1 > x0, y1 > y0 {
                    if disposal == 2 {
                        for y in y0..<y1 { canvas.replaceSubrange((y * canvasWidth + x0) * 4..<(y * canvasWidth + x1) * 4,
                                                                  with: repeatElement(0, count: (x1 - x0) * 4)) }
                    } else if disposal == 3, let saved {
                        let rowBytes = (x1 - x0) * 4
                        for (i, y) in (y0..<y1).enumerated() {
                            canvas.replaceSubrange((y * canvasWidth + x0) * 4..<(y * canvasWidth + x1) * 4,
                                                   with: saved[i * rowBytes..<(i + 1) * rowBytes])
                        }
                    }
                }
                // A graphic control extension applies to the next frame only.
                disposal = 0
                delay = 0
                transparent = -1
            case TERMINATE_RECORD_TYPE:
                break records
            default:
                if frames > 0 { break records }
                throw .undecodable("GIF has an unknown record")
            }
        }
        guard frames > 0 else { throw .undecodable("GIF has no image") }
        return Info(size: PixelSize(width: canvasWidth, height: canvasHeight), loopCount: loopCount)
    }

    /// The order in which an interlaced GIF stores its rows.
    static func interlacedRows(_ height: Int) -> [Int] {
        var rows: [Int] = []
        rows.reserveCapacity(height)
        for (start, step) in [(0, 8), (4, 8), (2, 4), (1, 2)] {
            var y = start
            while y < height { rows.append(y); y += step }
        }
        return rows
    }

    private static func reason(_ code: Int32) -> String {
        guard let text = GifErrorString(code) else { return "giflib error \(code)" }
        return String(cString: text)
    }

    /// Decodes the first frame as a still image.
    public static func decodeFirstFrame(_ bytes: UnsafeRawBufferPointer, maximumPixels: Int) throws(ImagingError) -> DecodedImage {
        var first: RGBAImage?
        try forEachFrame(bytes, maximumPixels: maximumPixels, frameLimit: 1) { canvas, _ in first = canvas }
        guard let first else { throw .undecodable("GIF has no image") }
        return DecodedImage(image: first, iccProfile: nil)
    }
}
