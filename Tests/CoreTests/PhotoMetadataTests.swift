import Foundation
import Testing
@testable import GalleryCore

/// The parts few files have share one box: each reads back as set, metadata
/// compares by what it holds (not by how it was set), and the coded form
/// names each part as before.
@Suite struct PhotoMetadataTests {
    static let plain = PhotoMetadata(format: .jpeg, storedSize: PixelSize(width: 4, height: 3), orientation: .right,
                                     captureDate: CaptureDate(wallClockSeconds: 9, utcOffsetSeconds: 3600, source: .original),
                                     camera: CameraFacts(make: "Canon", model: "EOS R6", iso: 200))

    @Test func rarePartsReadBackAsSetAndCompareByValue() throws {
        var a = Self.plain
        a.gps = GPSCoordinate(latitude: 64.1, longitude: -21.9)
        a.embeddedClip = 100..<900
        a.livePhotoIdentifier = "ABC"
        a.burstIdentifier = "BURST"
        a.motion = VideoFacts(duration: 2.5, storedSize: PixelSize(width: 8, height: 6), rotation: 0, videoCodec: "hevc", pixelFormat: "yuv420p", bitDepth: 8)
        #expect(a.gps == GPSCoordinate(latitude: 64.1, longitude: -21.9) && a.embeddedClip == 100..<900)
        #expect(a.livePhotoIdentifier == "ABC" && a.burstIdentifier == "BURST" && a.motion?.duration == 2.5 && a.kind == .motionStill)
        // The same parts set in another order: equal, and hashed alike.
        var b = Self.plain
        b.motion = VideoFacts(duration: 2.5, storedSize: PixelSize(width: 8, height: 6), rotation: 0, videoCodec: "hevc", pixelFormat: "yuv420p", bitDepth: 8)
        b.burstIdentifier = "BURST"
        b.livePhotoIdentifier = "ABC"
        b.embeddedClip = 100..<900
        b.gps = GPSCoordinate(latitude: 64.1, longitude: -21.9)
        #expect(a == b && a.hashValue == b.hashValue)
        // A copy changed is its own; the original keeps its parts.
        var copy = a
        copy.burstIdentifier = nil
        #expect(a.burstIdentifier == "BURST" && copy.burstIdentifier == nil && copy != a)
        // Every part taken away again: the plain metadata's equal.
        let kept = a.kept(people: true, place: true)
        #expect(kept.gps == nil && kept.livePhotoIdentifier == nil && kept.burstIdentifier == "BURST" && kept.embeddedClip == 100..<900)
        for clear in [{ (m: inout PhotoMetadata) in m.gps = nil }, { $0.embeddedClip = nil }, { $0.livePhotoIdentifier = nil },
                      { $0.burstIdentifier = nil }, { $0.motion = nil }] {
            #expect(a != Self.plain)
            clear(&a)
        }
        #expect(a == Self.plain && a.hashValue == Self.plain.hashValue && a.kind == .still)
    }

    @Test func codedByEachPartsName() throws {
        var metadata = Self.plain
        metadata.burstIdentifier = "BURST"
        metadata.embeddedClip = 5..<10
        metadata.words.title = "A title"
        let data = try JSONEncoder().encode(metadata)
        let keys = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any]).keys
        #expect(Set(keys) == ["format", "storedSize", "orientation", "captureDate", "camera", "frameCount", "embeddedClip", "words", "burstIdentifier"])
        // Hashed as the synthesized coding of the parts, each in a box of its
        // own, hashed them (items' digests hash this encoding where the state's is not known).
        var ours = StableHash(), synthesized = StableHash()
        ours.add(encoding: metadata)
        synthesized.add(encoding: Synthesized(metadata))
        #expect(ours.digest() == synthesized.digest())
        #expect(try JSONDecoder().decode(PhotoMetadata.self, from: data) == metadata)
        #expect(try JSONDecoder().decode(PhotoMetadata.self, from: JSONEncoder().encode(Self.plain)) == Self.plain)
    }

    /// The metadata as it was declared before its rare parts shared a box:
    /// coded by the synthesized conformance, in `CodingKeys`' order.
    struct Synthesized: Encodable {
        enum CodingKeys: String, CodingKey {
            case format, storedSize, orientation, captureDate, camera, frameCount, gps, motion, embeddedClip, words, livePhotoIdentifier
            case burstIdentifier, place
        }
        var format: SourceFormat, orientation: Orientation, storedSize: PixelSize, captureDate: CaptureDate, camera: CameraFacts
        var frameCount: Int, motion: VideoFacts?, gps: GPSCoordinate?, embeddedClip: Range<Int>?, words: PhotoWords?
        var livePhotoIdentifier: String?, burstIdentifier: String?, place: Place?

        init(_ m: PhotoMetadata) {
            (format, orientation, storedSize, captureDate, camera, frameCount) = (m.format, m.orientation, m.storedSize, m.captureDate, m.camera, m.frameCount)
            (motion, gps, embeddedClip, words) = (m.motion, m.gps, m.embeddedClip, m.hasWords ? m.words : nil)
            (livePhotoIdentifier, burstIdentifier, place) = (m.livePhotoIdentifier, m.burstIdentifier, m.place)
        }
    }

    /// A camera's names are one box shared by every photo that names the
    /// same three, set one at a time or at once; none is no box.
    @Test func cameraNamesAreShared() {
        let lens = "iPhone 12 Pro back dual wide camera 4.2mm f/1.6"
        let whole = CameraFacts(make: "Apple", model: "iPhone 12 Pro", lens: lens, focalLength: 4.2, iso: 32)
        var stepwise = CameraFacts(focalLength: 4.2, iso: 32)
        stepwise.make = "Apple"
        stepwise.model = "iPhone 12 Pro"
        stepwise.lens = lens
        #expect(stepwise == whole && stepwise.make == "Apple" && stepwise.model == "iPhone 12 Pro" && stepwise.lens == lens)
        #expect(stepwise.identity === whole.identity)
        #expect(Set([stepwise, whole]).count == 1)
        var other = whole
        other.lens = nil
        #expect(other != whole && other.make == "Apple" && other.lens == nil && whole.lens == lens)
        other.make = nil
        other.model = nil
        #expect(other.identity == nil && other == CameraFacts(focalLength: 4.2, iso: 32))
    }
}
