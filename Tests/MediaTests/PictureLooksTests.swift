import Foundation
import GalleryCore
import GalleryTestSupport
import Imaging
import Testing

/// A picture's looks: one scene a moment later (moved a little, lighter)
/// differs in a few bits, another scene in many; any size has looks; blur
/// lowers the sharpness.
struct PictureLooksTests {
    static func scene(_ seed: UInt64, width: Int = 300, height: Int = 220, shift: Int = 0, light: Int = 0) -> RGBPicture {
        RGBPicture(Fixtures.scene(seed, width: width, height: height, shift: shift, light: light))
    }

    @Test func aSceneAMomentLaterLooksAlikeAndAnotherSceneDoesNot() {
        for seed in 1...6 as ClosedRange<UInt64> {
            let looks = PictureLooks(Self.scene(seed))
            let later = PictureLooks(Self.scene(seed, shift: 4, light: 10))
            let smaller = PictureLooks(Self.scene(seed, width: 150, height: 110))
            #expect(looks.distance(to: later) <= PictureLooks.nearDuplicateDistance / 2, "seed \(seed): \(looks.distance(to: later))")
            #expect(looks.distance(to: smaller) <= 4, "seed \(seed): \(looks.distance(to: smaller))")
            let other = PictureLooks(Self.scene(seed + 100))
            #expect(looks.distance(to: other) > PictureLooks.nearDuplicateDistance + 6, "seed \(seed): \(looks.distance(to: other))")
        }
    }

    @Test func everySizeHasLooksAndAFlatPictureIsNotSharp() {
        for (width, height) in [(1, 1), (2, 2), (1, 40), (33, 1), (3, 3)] {
            let flat = PictureLooks(RGBPicture(width: width, height: height, bytes: [UInt8](repeating: 90, count: width * height * 3)))
            #expect(flat.hash == 0 && flat.sharpness == 0, "\(width)x\(height)")
        }
    }

    @Test func aBlurredFrameIsLessSharp() {
        let sharp = Self.scene(3)
        var blurred = sharp
        for y in 1..<(sharp.height - 1) {
            for x in 1..<(sharp.width - 1) {
                for c in 0..<3 {
                    var sum = 0
                    for dy in -1...1 { for dx in -1...1 { sum += Int(sharp.bytes[((y + dy) * sharp.width + x + dx) * 3 + c]) } }
                    blurred.bytes[(y * sharp.width + x) * 3 + c] = UInt8(sum / 9)
                }
            }
        }
        #expect(PictureLooks(blurred).sharpness < PictureLooks(sharp).sharpness)
        #expect(PictureLooks(blurred).distance(to: PictureLooks(sharp)) <= 4)
    }

    /// A placeholder is held in place: its bytes as given, up to the
    /// longest held (none beyond it), equal and hashed by them.
    @Test func aPlaceholderIsItsBytes() {
        for count in [0, 1, 21, 25, PictureLooks.maximumPlaceholder] {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 200) }
            var looks = PictureLooks(hash: 9, sharpness: 3, placeholder: bytes)
            #expect(looks.placeholder == bytes)
            #expect(looks.withPlaceholder { Array($0) } == bytes)
            #expect(looks == PictureLooks(hash: 9, sharpness: 3, placeholder: bytes))
            #expect(Set([looks, PictureLooks(hash: 9, sharpness: 3, placeholder: bytes)]).count == 1)
            if count > 0 { #expect(looks != PictureLooks(hash: 9, sharpness: 3, placeholder: Array(bytes.dropLast()))) }
            looks.placeholder = [7]
            #expect(looks.placeholder == [7])
        }
        #expect(PictureLooks(hash: 9, sharpness: 3, placeholder: [UInt8](repeating: 1, count: PictureLooks.maximumPlaceholder + 1)).placeholder == [])
    }
}
