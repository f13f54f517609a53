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
        func add(pages: [PagePath]) {
            for page in pages { produced.append(page) }
            expected += pages.map(\.description)
        }
        // Runs longer than a part, shorter, empty, and two rendition runs side by side;
        // photos' pages held as their folders and names among paths given whole.
        add((0..<20_000).map { "page/\($0).html" })
        add(pages: (0..<3_000).map { PagePath(folder: "albums/trip \($0 / 100)/", name: "img-\($0)") })
        add(pages: [PagePath(folder: "albums/trip 0/", name: "back"), PagePath("albums/trip 0/whole.html"), PagePath(folder: "albums/trip 0/", name: "again")])
        add(Self.namedItems(5_000, from: 0))
        add(Self.namedItems(3, from: 5_000))
        add(["index.html"])
        add([MediaItem]())
        add(Self.namedItems(2_500, from: 6_000))
        add(pages: [PagePath("search/index.js"), PagePath(folder: "sealed/0123456789abcdef/", name: String(repeating: "9", count: 64))])
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
        let written = WrittenPaths(expected.enumerated().filter { $0.offset % 5 == 0 }.map(\.element))
        let byParts = OutputFolder.sift(owned: owned, produced: produced, written: written)
        let byStrings = OutputFolder.sift(owned: owned, produced: expected, written: written)
        #expect(byParts.stale == ["gone/1"] && byParts.stale == byStrings.stale)
        #expect(byParts.files?.strings == byStrings.files?.strings && byParts.files?.strings == Array(Set(expected)).sorted())
    }

    /// The state's list of files is the previous (sorted) list's kept ones
    /// merged with the new ones this build wrote; nil (sorted by the state)
    /// when a produced file is neither or the previous list is out of
    /// order; the owned files and leftovers not produced are stale. The same from the
    /// list's bytes (as read from a state) and from strings.
    @Test func producedFilesAreMergedInOrder() {
        func encoded(_ paths: [String]) -> [EncodedStrings] {
            var writer = StateWriter()
            for path in paths { writer.string(path) }
            return [EncodedStrings(count: paths.count, bytes: writer.bytes), EncodedStrings(paths)]
        }
        let kept = ["a/1", "a/3", "c/9", "é"]
        for owned in encoded((kept + ["gone/1"]).sorted()) {
            let sifted = OutputFolder.sift(owned: owned, produced: ["a/3", "a/2", "c/9", "d", "0", "é", "a/1", "a/2"],
                                           written: ["a/2", "0", "d", "a/3", "unproduced"])
            #expect(sifted.stale == ["gone/1", "unproduced"] && !sifted.sameFiles)
            #expect(sifted.files?.strings == ["0", "a/1", "a/2", "a/3", "c/9", "d", "é"])
        }
        for owned in encoded(kept) {
            let same = OutputFolder.sift(owned: owned, produced: kept, written: [])
            #expect(same.files?.strings == kept && same.sameFiles && same.stale.isEmpty)
            #expect(OutputFolder.sift(owned: owned, produced: kept + ["b", "unwritten"], written: ["b"]).files == nil)
        }
        // Strings out of order (a list merged with a sharded build's parts); bytes are a state's, written in order.
        #expect(OutputFolder.sift(owned: EncodedStrings(["b", "a"]), produced: ["a", "b"], written: []).files == nil)
        for owned in encoded(kept) {
            let sifted = OutputFolder.sift(owned: owned, produced: ["a/1", "c/9", "é"], written: [], leftovers: ["x", "é"])
            #expect(sifted.stale == ["a/3", "x"] && !sifted.sameFiles && sifted.files?.strings == ["a/1", "c/9", "é"])
            #expect(OutputFolder.sift(owned: owned, produced: kept, written: [], leftovers: ["x"]).sameFiles, "a leftover is not the list's")
        }
        for owned in encoded([]) { #expect(OutputFolder.sift(owned: owned, produced: ["z", "y"], written: ["z", "y"]).files?.strings == ["y", "z"]) }
        // A build's own files: written twice is listed once; written and not produced is stale, as a leftover.
        for owned in encoded(kept) {
            let sifted = OutputFolder.sift(owned: owned, produced: kept + ["b"], written: ["b", "a/1", "x", "b", "x"], leftovers: ["x"])
            #expect(Set(sifted.stale) == ["x"] && !sifted.sameFiles && sifted.files?.strings == ["a/1", "a/3", "b", "c/9", "é"])
        }
        // A list long enough to be read in runs on every core: the same as one read whole.
        let many = (0..<10_000).map { "media/\(100_000 + $0).webp" }
        let produced = many.enumerated().filter { $0.offset % 7 != 0 }.map(\.element) + ["media/new.webp"]
        for owned in encoded(many) {
            let sifted = OutputFolder.sift(owned: owned, produced: produced, written: ["media/new.webp"])
            #expect(sifted.stale == many.enumerated().filter { $0.offset % 7 == 0 }.map(\.element))
            #expect(sifted.files?.strings == produced.sorted() && !sifted.sameFiles)
        }
    }

    /// The paths a build wrote read back as written, across blocks, with a
    /// path longer than a block among them, from several writers at once;
    /// a first build's list of them is each once, in the order strings sort
    /// (non-ASCII and decomposed names too), as the strings' list was.
    @Test func writtenPathsReadAsWrittenAndSiftAsStrings() async {
        var random = SeededGenerator(seed: 57)
        let letters: [String] = ["a", "b", "z", "/", "-", "0", "é", "e\u{301}", "É", "ß", "日", "😀", "A"]
        var paths = (0..<60_000).map { n in
            (0..<Int.random(in: 1...12, using: &random)).map { _ in letters.randomElement(using: &random)! }.joined() + "/\(n % 40_000).html"
        }
        paths.append(String(repeating: "long/", count: 300_000))
        paths.append("")
        let written = WrittenPaths(paths)
        #expect(Array(written) == paths && written.count == paths.count)

        // Written from eight jobs at once: each job's paths in its order.
        let shared = WrittenPaths()
        await withTaskGroup(of: Void.self) { group in
            for job in 0..<8 { group.addTask { for n in 0..<5000 { shared.append("job\(job)/\(n)") } } }
        }
        let read = Array(shared)
        #expect(read.count == 40_000)
        for job in 0..<8 { #expect(read.filter { $0.hasPrefix("job\(job)/") } == (0..<5000).map { "job\(job)/\($0)" }) }

        // Sifted on a first build: every path written produced, each once, sorted as strings sort.
        for list in [paths.filter { $0.utf8.allSatisfy { $0 < 0x80 } }, paths] {
            // Each once by its bytes: a decomposed name is another file than the composed one.
            let files = Set(list.map { Array($0.utf8) }).map { String(decoding: $0, as: UTF8.self) }
            // Each written twice, the second time in the other order.
            let sifted = OutputFolder.sift(owned: EncodedStrings(count: 0, bytes: []), produced: files, written: WrittenPaths(list + list.reversed()))
            // Names equal as strings (composed and decomposed) in their bytes' order.
            let expected = files.sorted { $0 < $1 || (!($1 < $0) && Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8))) }
            #expect(sifted.stale.isEmpty && sifted.files?.count == files.count)
            let inOrder = sifted.files?.strings.map { Array($0.utf8) } == expected.map { Array($0.utf8) }
            #expect(inOrder, "\(list.count) paths written twice: not each once, in order")
        }
    }
}
