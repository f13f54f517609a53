import Foundation
import Testing
import GalleryTestSupport
@testable import SiteOutput
@testable import GalleryCore

/// The binary state file: what is written reads back equal, and damaged
/// bytes are refused (never a crash, never a half-read state).
@Suite struct BuildStateTests {
    static func sample() -> BuildState {
        let full = PhotoMetadata(format: .jpeg, storedSize: PixelSize(width: 4032, height: 3024), orientation: .right,
                                 captureDate: CaptureDate(wallClockSeconds: 1_700_000_000, utcOffsetSeconds: -18_000, source: .original),
                                 camera: CameraFacts(make: "Canon", model: "EOS R6 «Ω»", lens: "RF 24-105", focalLength: 35,
                                                     fNumber: 4, exposureTime: 1.0 / 250, iso: 800),
                                 gps: GPSCoordinate(latitude: 1, longitude: 2), frameCount: 1)
        let bare = PhotoMetadata(format: .gif, storedSize: PixelSize(width: 1, height: 1), orientation: .up,
                                 captureDate: CaptureDate(wallClockSeconds: -5, utcOffsetSeconds: nil, source: .fileTime), frameCount: 40)
        return BuildState(files: ["index.html", "media/ab/x.webp", "albums/é/ü.html"],
                          photos: ["k1": CachedPhoto(size: 123, modified: 1_700_000_000_123_456_789, contentHash: "abc", metadata: full),
                                   "k2": CachedPhoto(size: 0, modified: -1, contentHash: "", metadata: bare)],
                          pages: ["index.html": PageRecord(fingerprint: StableHash.Digest(high: 1, low: .max)),
                                  "search/index.js": PageRecord(fingerprint: StableHash.Digest(high: 7, low: 9),
                                                                files: ["search/index.js", "search/t-ab.js"])])
    }

    @Test func roundTripIsExactAndDeterministic() throws {
        let state = Self.sample()
        let data = state.encoded()
        #expect(try BuildState.decode(data) == state)
        #expect(state.encoded() == data)
        #expect(try BuildState.decode(data).photos["k1"]?.metadata.gps == nil, "GPS never reaches the state")
    }

    @Test func everyTruncationAndCorruptionIsRefused() {
        let data = [UInt8](Self.sample().encoded())
        for length in 0..<data.count {
            #expect(throws: StateFormatError.self) { try BuildState.decode(Data(data.prefix(length))) }
        }
        #expect(throws: StateFormatError.self) { try BuildState.decode(Data(data + [0])) }
        // Huge counts and lengths in place of real ones.
        for offset in stride(from: 17, to: data.count - 8, by: 8) {
            var bad = data
            for i in 0..<8 { bad[offset + i] = 0x7F }
            _ = try? BuildState.decode(Data(bad))  // must not trap or allocate wildly
        }
    }
}
