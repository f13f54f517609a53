import Testing
import GalleryTestSupport
@testable import GalleryCore

/// A page held as its folder and name spells, hashes and compares as the
/// path written out: a different spelling or hash would render every page again.
@Test func aPagePathIsThePathItSpells() {
    let seed = UInt64.random(in: 0...UInt64.max)
    var generator = SeededGenerator(seed: seed)
    let pieces = ["", "a", "albums/", "albums/2014/01-01-album-00000/", "sealed/0123456789abcdef/", "é/ß/", "x/y/z/",
                  "img-0000", "photo-index", "ÆØÅ-长城", String(repeating: "k", count: 300), "p", "index.html"]
    for _ in 0..<3_000 {
        let folder = pieces.randomElement(using: &generator)!
        let name = pieces.filter { !$0.isEmpty }.randomElement(using: &generator)!
        let split = PagePath(folder: folder, name: name)
        let spelled = folder + name + ".html"
        #expect(split.description == spelled, "seed \(seed)")
        #expect(split.withUTF8 { Array($0) } == Array(spelled.utf8), "seed \(seed)")
        #expect(split.isHTML)
        var fromPieces = StableHash(), fromString = StableHash()
        fromPieces.add(split)
        fromString.add(spelled)
        #expect(fromPieces.digest() == fromString.digest(), "seed \(seed)")
        // Given whole, the same path is the same page however it is held.
        let whole = PagePath(spelled)
        #expect(whole == split && split == whole)
        #expect(whole.description == spelled && whole.withUTF8 { Array($0) } == Array(spelled.utf8))
        var fromWhole = StableHash()
        fromWhole.add(whole)
        #expect(fromWhole.digest() == fromString.digest())
        #expect(split != PagePath(folder: folder, name: name + "x"))
    }
    #expect(!PagePath("search/index.js").isHTML)
    #expect(PagePath("tags/index.html").isHTML)
    #expect(PagePath("").description.isEmpty)
}
