import Foundation
import Testing
import GalleryTestSupport
@testable import SiteOutput
@testable import GalleryCore
@testable import GalleryKit

/// The files a build produced, read a part at a time as the prune reads
/// them (the renditions' paths spelled from their names on the stack), are
/// the paths as given, in order; sifted, they give what the strings give.
@Suite struct ProducedFilesTests {
    /// Items whose renditions are held by their names (as the media step plans them).
    static func namedItems(_ count: Int, from start: Int) -> [MediaItem] {
        let thumbnail = KeyedRenditionSpec(RenditionSpec(role: .thumbnail, box: PixelSize(width: 280, height: 210), encoding: .webp(quality: 80)))
        let preview = KeyedRenditionSpec(RenditionSpec(role: .preview, box: PixelSize(width: 800, height: 600), encoding: .jpeg(quality: 80)))
        return (start ..< start + count).map { n in
            var item = samplePhoto("a/\(n).jpg", nil)
            let hash = sampleHash("\(n)")
            // Every tenth has a third, spelled (as a private album's are), and every seventh none.
            item.renditions = n % 7 == 0 ? [] : [thumbnail.rendition(contentHash: hash, size: PixelSize(width: 280, height: 210)),
                                                 preview.rendition(contentHash: hash, size: PixelSize(width: 800, height: 600))]
                + (n % 10 == 0 ? [Rendition(preview, size: PixelSize(width: 8, height: 6), path: "vault/\(n).bin")] : [])
            return item
        }
    }

    @Test func partsAreThePathsInOrder() {
        var produced = ProducedFiles()
        var expected: [String] = []
        func add(_ paths: [String]) {
            produced.append(contentsOf: paths)
            expected += paths
        }
        func add(_ items: [MediaItem]) {
            produced.appendRenditions(of: items)
            expected += items.flatMap { $0.renditions.map(\.path) }
        }
        // Runs longer than a part, shorter, empty, and two rendition runs side by side.
        add((0..<20_000).map { "page/\($0).html" })
        add(Self.namedItems(5_000, from: 0))
        add(Self.namedItems(3, from: 5_000))
        add(["index.html"])
        add([MediaItem]())
        add(Self.namedItems(2_500, from: 6_000))
        add((0..<9_000).map { "tail/\($0).html" })

        var read: [String] = []
        for part in 0..<produced.partCount {
            produced.forEachPath(inPart: part) { read.append(String(decoding: $0, as: UTF8.self)) }
        }
        #expect(produced.count == expected.count && produced.partCount > 6)
        #expect(read == expected)
        #expect(produced.all == expected)
        #expect(produced.set == Set(expected))

        // Sifted against a list that holds most of them: as the strings sift.
        let owned = EncodedStrings(Array(Set(expected.enumerated().filter { $0.offset % 5 != 0 }.map(\.element) + ["gone/1"])).sorted())
        let written = expected.enumerated().filter { $0.offset % 5 == 0 }.map(\.element)
        let byParts = OutputFolder.sift(owned: owned, produced: produced, written: written)
        let byStrings = OutputFolder.sift(owned: owned, produced: expected, written: written)
        #expect(byParts.stale == ["gone/1"] && byParts.stale == byStrings.stale)
        #expect(byParts.files?.strings == byStrings.files?.strings && byParts.files?.strings == Array(Set(expected)).sorted())
    }
}
