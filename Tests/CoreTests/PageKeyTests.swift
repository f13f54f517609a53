import Foundation
import Testing
import GalleryTestSupport
@testable import SiteOutput
@testable import GalleryCore

/// Page records are keyed by their ids' hashes (`PageKey`): the state keeps
/// no id, and a build that takes every page whole looks for the files the
/// previous build produced by the state's list of them.
@Suite struct PageKeyTests {
    /// The bytes of a state of version 13, whose page records were written
    /// by their ids: no files, no photos, these pages.
    static func version13(pages: [(id: String, fingerprint: StableHash.Digest, files: [String])]) -> Data {
        var writer = StateWriter()
        writer.raw(BuildState.magic)
        writer.int(13)
        writer.int(5)
        writer.int(6)
        writer.int(0)  // files
        writer.int(0)  // photos
        writer.int(pages.count)
        for page in pages.sorted(by: { $0.id < $1.id }) {
            writer.string(page.id)
            writer.int(Int64(bitPattern: page.fingerprint.high))
            writer.int(Int64(bitPattern: page.fingerprint.low))
            writer.int(page.files.count)
            for file in page.files { writer.string(file) }
        }
        return Data(writer.bytes)
    }

    /// A state written before the keys is read, each id hashed as it is
    /// read (no photo read again after an upgrade), and never committed
    /// from: its bytes are not the current layout's.
    @Test func aVersion13StateIsReadWithItsIdsHashed() throws {
        let data = Self.version13(pages: [("index.html", StableHash.Digest(high: 1, low: 2), []),
                                          ("search/index.js", StableHash.Digest(high: 3, low: 4), ["search/index.js", "search/t-ab.js"])])
        let state = try BuildState.decode(data)
        #expect(state.siteInputs == StableHash.Digest(high: 5, low: 6))
        #expect(state.pages.count == 2)
        #expect(state.pages[PageKey(path: "index.html")] == PageRecord(fingerprint: StableHash.Digest(high: 1, low: 2)))
        #expect(state.pages[PageKey(path: "search/index.js")]?.files == ["search/index.js", "search/t-ab.js"])
        #expect(state.base == nil && !state.hasBaseFile)
        // Written again, it is the current version, and reads back the same.
        let again = try BuildState.decode(state.encoded())
        #expect(again.version == BuildState.currentVersion && again.pages == state.pages)
        // Any other version is refused.
        var other = [UInt8](data)
        other[BuildState.magic.count] = 12
        #expect(throws: StateFormatError.self) { try BuildState.decode(Data(other)) }
    }

    /// Keys are the ids' hashes: distinct ids, distinct keys; one id, one key.
    @Test func aPageKeyIsItsIdsHash() {
        let ids = (0..<10_000).map { "albums/\($0 % 31)/img-\($0).html" }
        #expect(Set(ids.map(PageKey.init(path:))).count == ids.count)
        #expect(PageKey(path: "albums/é.html") == PageKey(path: "albums/é.html"))
        #expect(PageKey(path: "a.html") != PageKey(path: "b.html"))
    }

    /// The list of files read from the state file a chunk at a time is the
    /// list, whatever the chunk size cuts; stopped, it says so; cut short, it fails.
    @Test func theFileListReadAChunkAtATimeIsTheList() throws {
        let folder = try TemporaryFolder()
        let url = folder.url.appendingPathComponent("state.bin")
        let files = (0..<300).map { "media/\($0 % 7)/\(String(repeating: "x", count: $0 % 40))-\($0).webp" }.sorted()
        try Data(BuildState(files: files).encodedBytes()).write(to: url)
        for chunkSize in [1, 7, 100, 1 << 20] {
            let state = try EntriesLeftInBaseTests.read(url)
            var seen: [String] = []
            let all = try state.fileList.forEachReadingAChunkAtATime(chunkSize: chunkSize) { utf8 in
                seen.append(String(decoding: utf8, as: UTF8.self))
                return true
            }
            #expect(all && seen == files, "chunks of \(chunkSize)")
            var count = 0
            let stopped = try state.fileList.forEachReadingAChunkAtATime(chunkSize: chunkSize) { _ in
                count += 1
                return count < 10
            }
            #expect(!stopped && count == 10)
        }
        // Held as strings (a state made in memory), the same.
        var seen: [String] = []
        #expect(try BuildState(files: files).fileList.forEachReadingAChunkAtATime { seen.append(String(decoding: $0, as: UTF8.self)); return true })
        #expect(seen == files)
        let state = try EntriesLeftInBaseTests.read(url)
        try FileHandle(forWritingTo: url).truncate(atOffset: 2000)
        #expect(throws: OutputError.self) { _ = try state.fileList.forEachReadingAChunkAtATime(chunkSize: 64) { _ in true } }
    }

    /// What counts as a page among the produced files: HTML, not the theme's own.
    @Test func pagesAreTheHTMLFilesOutsideStatic() {
        func isPage(_ path: String) -> Bool {
            var path = path
            return path.withUTF8 { OutputFolder.isPage(UnsafeRawBufferPointer($0)) }
        }
        #expect(isPage("index.html") && isPage("albums/a/img-1.html") && isPage("moments/2024/index-2.html"))
        #expect(!isPage("static/help.html") && !isPage("media/ab/x.webp") && !isPage("search/index.js") && !isPage("html") && !isPage("feed.xml"))
    }
}
