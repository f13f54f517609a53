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

    /// What few files have (a clip, sidecars, a name that is not UTF-8, a
    /// URL of its own) is kept apart; a file is equal to (and hashes as) one
    /// made with the same parts, whichever way they were set, and set back.
    @Test func rarePartsAreTheFilesOwn() {
        let folderURL = URL(fileURLWithPath: "/library/a")
        let folder = RawFolder(Array("/library/a".utf8), components: ["a"])
        func found(_ name: String, raw: [UInt8]? = nil) -> SourceFile {
            SourceFile(inFolder: folderURL, named: name, byteCount: 1, modifiedNanoseconds: 5, rawFolder: folder, rawName: raw ?? Array(name.utf8))
        }
        let plain = found("IMG_1.jpg")
        #expect(plain.url.path == "/library/a/IMG_1.jpg" && plain.relativePath == "a/IMG_1.jpg")
        #expect(String(cString: plain.rawPath) == "/library/a/IMG_1.jpg")
        var decorated = plain
        decorated.sidecars = [found("IMG_1.xmp")]
        decorated.livePhotoClip = found("IMG_1.MOV")
        #expect(decorated != plain && decorated.sidecars == [found("IMG_1.xmp")] && decorated.livePhotoClip == found("IMG_1.MOV"))
        #expect(decorated.url == plain.url && decorated.relativePath == plain.relativePath)
        decorated.sidecars = []
        #expect(decorated.livePhotoClip == found("IMG_1.MOV"), "one part set leaves the other")
        decorated.livePhotoClip = nil
        #expect(decorated == plain && Set([decorated, plain]).count == 1)

        // A name that is not UTF-8 is opened by its bytes.
        let latin1 = found("caf\u{FFFD}.jpg", raw: Array("caf".utf8) + [0xE9] + Array(".jpg".utf8))
        #expect(latin1.rawPath.dropLast().map { UInt8(bitPattern: $0) } == Array("/library/a/caf".utf8) + [0xE9] + Array(".jpg".utf8))
        #expect(latin1 != found("caf\u{FFFD}.jpg"))

        // Made from its own URL: that URL, whatever its folder.
        let own = SourceFile(url: URL(fileURLWithPath: "/elsewhere/IMG_1.jpg"), relativeComponents: ["a", "IMG_1.jpg"], byteCount: 1,
                             modificationDate: Date(timeIntervalSince1970: 0), modifiedNanoseconds: 5)
        #expect(own.url.path == "/elsewhere/IMG_1.jpg" && own.relativePath == "a/IMG_1.jpg" && own != plain)
        var ownWithSidecar = own
        ownWithSidecar.sidecars = [found("IMG_1.xmp")]
        ownWithSidecar.sidecars = []
        #expect(ownWithSidecar.url.path == "/elsewhere/IMG_1.jpg" && ownWithSidecar == own)
    }
}
