import Testing
@testable import GalleryCore

/// The placeholders' encoder gives the reference encoder's bytes (PyPI
/// `thumbhash` 0.1, `rgba_to_thumb_hash`, on the same pictures), so any
/// ThumbHash decoder paints them, ours (`placeholders.js`) included.
@Suite struct ThumbHashTests {
    static func picture(width: Int, height: Int) -> [UInt8] {
        var rgba: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width { rgba += [UInt8((x * 4) % 256), UInt8((y * 5) % 256), UInt8(((x + y) * 2) % 256), 255] }
        }
        return rgba
    }

    @Test func theReferenceEncodersBytes() {
        #expect(ThumbHash.encode(width: 60, height: 40, rgba: Self.picture(width: 60, height: 40))
            == [90, 40, 14, 13, 152, 112, 119, 119, 130, 136, 136, 120, 136, 120, 136, 135, 120, 112, 8, 231, 120])
        #expect(ThumbHash.encode(width: 40, height: 60, rgba: Self.picture(width: 40, height: 60))
            == [216, 183, 9, 37, 16, 112, 119, 128, 136, 56, 136, 168, 135, 133, 152, 103, 136, 141, 0, 232, 247])
    }

    @Test func aPictureIsReducedToTheFormatsLimitByWholeBoxes() {
        // 280×210 RGB (a default thumbnail) → 93×70, each pixel the mean of a 3×3 box (green 0, 90, 0 across: 30).
        var rgb = [UInt8](repeating: 0, count: 280 * 210 * 3)
        for i in stride(from: 0, to: rgb.count, by: 3) { rgb[i] = 200; rgb[i + 1] = (i / 3) % 2 == 0 ? 0 : 90 }
        let small = ThumbHash.reduce(width: 280, height: 210, channels: 3, pixels: rgb)
        #expect(small.width == 93 && small.height == 70 && small.rgba.count == 93 * 70 * 4)
        #expect(small.rgba[0] == 200 && small.rgba[1] == 30 && small.rgba[2] == 0 && small.rgba[3] == 255)
        // A one-pixel picture has a hash too.
        let one = ThumbHash.reduce(width: 1, height: 1, channels: 3, pixels: [200, 10, 10])
        #expect(ThumbHash.encode(width: one.width, height: one.height, rgba: one.rgba).count >= 5)
    }
}
