import Foundation
import GalleryCore
import GalleryTestSupport
import Imaging
import Testing

/// A picture's looks: one scene a moment later (moved a little, lighter)
/// differs in a few bits, another scene in many; any size has looks; blur
/// lowers the sharpness.
struct PictureLooksTests {
    /// A made-up scene: soft blobs of colour on a gradient, drawn at `width`×`height`, seen from `shift` pixels across.
    static func scene(_ seed: UInt64, width: Int = 300, height: Int = 220, shift: Int = 0, light: Int = 0) -> RGBPicture {
        var random = SeededGenerator(seed: seed)
        let blobs = (0..<9).map { _ in
            (x: Double.random(in: 0...1, using: &random), y: Double.random(in: 0...1, using: &random), r: Double.random(in: 0.06...0.25, using: &random),
             colour: (UInt8.random(in: 0...255, using: &random), UInt8.random(in: 0...255, using: &random), UInt8.random(in: 0...255, using: &random)))
        }
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let u = Double(x + shift) / Double(width), v = Double(y) / Double(height)
                var pixel = (Double(40 + 120 * v), Double(60 + 100 * u), 90.0)
                for blob in blobs {
                    let d = ((u - blob.x) * (u - blob.x) + (v - blob.y) * (v - blob.y)).squareRoot()
                    let weight = max(0, 1 - d / blob.r)
                    pixel = (pixel.0 * (1 - weight) + Double(blob.colour.0) * weight, pixel.1 * (1 - weight) + Double(blob.colour.1) * weight,
                             pixel.2 * (1 - weight) + Double(blob.colour.2) * weight)
                }
                let at = (y * width + x) * 3
                bytes[at] = UInt8(max(0, min(255, pixel.0 + Double(light))))
                bytes[at + 1] = UInt8(max(0, min(255, pixel.1 + Double(light))))
                bytes[at + 2] = UInt8(max(0, min(255, pixel.2 + Double(light))))
            }
        }
        return RGBPicture(width: width, height: height, bytes: bytes)
    }

    @Test func aSceneAMomentLaterLooksAlikeAndAnotherSceneDoesNot() {
        for seed in 1...6 as ClosedRange<UInt64> {
            let looks = PictureLooks(Self.scene(seed))
            let later = PictureLooks(Self.scene(seed, shift: 4, light: 10))
            let smaller = PictureLooks(Self.scene(seed, width: 150, height: 110))
            #expect(looks.distance(to: later) <= PictureLooks.nearDuplicateDistance / 2, "seed \(seed): \(looks.distance(to: later))")
            #expect(looks.distance(to: smaller) <= 4, "seed \(seed): \(looks.distance(to: smaller))")
            let other = PictureLooks(Self.scene(seed + 100))
            #expect(looks.distance(to: other) > 2 * PictureLooks.nearDuplicateDistance, "seed \(seed): \(looks.distance(to: other))")
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
}
