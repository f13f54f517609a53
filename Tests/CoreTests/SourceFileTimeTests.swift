import Foundation
import Testing
@testable import GalleryCore

/// A source file's modification time is kept once, in nanoseconds as the
/// file system gives it; the `Date` is made from it, before 1970 too.
@Suite struct SourceFileTimeTests {
    @Test func theDateIsTheNanosecondsOnes() {
        let url = URL(fileURLWithPath: "/library/a/IMG_1.jpg")
        for (nanoseconds, seconds) in [(Int64(1_700_000_000_123_456_789), 1_700_000_000.123456789), (-1_500_000_000, -1.5), (0, 0)] {
            let file = SourceFile(url: url, relativeComponents: ["a", "IMG_1.jpg"], byteCount: 1, modificationDate: Date(timeIntervalSince1970: 7),
                                  modifiedNanoseconds: nanoseconds)
            #expect(abs(file.modificationDate.timeIntervalSince1970 - seconds) < 1e-6, "\(nanoseconds)")
        }
        // Given as a date alone, the nanoseconds are the date's.
        let dated = SourceFile(url: url, relativeComponents: ["a", "IMG_1.jpg"], byteCount: 1, modificationDate: Date(timeIntervalSince1970: 1_600_000_000.25))
        #expect(abs(dated.modifiedNanoseconds - 1_600_000_000_250_000_000) < 1_000, "within a double's precision")
        #expect(abs(dated.modificationDate.timeIntervalSince1970 - 1_600_000_000.25) < 1e-6)
    }
}
