import Foundation
import Testing
import GalleryTestSupport
@testable import SiteOutput
@testable import GalleryCore

/// A whole build lets go of the photo entries and page records that did not
/// change (the previous state's file holds them) and reads the list of OUT's
/// files from that file only when it prunes. The state it commits is still
/// byte for byte the state encoded whole.
@Suite(.serialized) struct EntriesLeftInBaseTests {
    typealias Delta = StateDeltaTests

    /// A state of `count` photos and pages with 500 files, written to `url`
    /// and read back as a build reads it (the file kept open).
    static func written(_ count: Int, to url: URL) throws -> BuildState {
        var photos: PhotoEntries = [:], pages: PageEntries = [:]
        for n in 0..<count {
            photos[BuildState.key(for: "a/\(n).jpg")] = Delta.photo(n)
            let (id, record) = Delta.page(n, 1)
            pages[id] = record
        }
        try Data(BuildState(files: (0..<500).map { "media/\($0).webp" }, photos: photos, pages: pages).encodedBytes()).write(to: url)
        return try read(url)
    }

    static func read(_ url: URL) throws -> BuildState {
        let file = try #require(StateFile(url))
        var state = try BuildState.decode(Data(contentsOf: url), file: file)
        state.base?.file = url
        state.base?.identity = FileIdentity(descriptor: file.descriptor)
        return state
    }

    /// Adds, changes and removes a few entries of `state` (all of its
    /// entries in memory) and says which.
    static func changed(_ state: inout BuildState) {
        let added = BuildState.key(for: "a/new.jpg"), captioned = BuildState.key(for: "a/7.jpg"), removed = BuildState.key(for: "a/9.jpg")
        state.photos[added] = Delta.photo(900_001)
        state.photos[captioned] = Delta.photo(7, caption: "words")
        state.photos[removed] = nil
        let (newID, newRecord) = Delta.page(900_001, 1)
        state.pages[newID] = newRecord
        let (pageID, _) = Delta.page(8, 1)
        state.pages[pageID]?.fingerprint = StableHash.Digest(high: 1, low: 2)
        let (goneID, _) = Delta.page(9, 1)
        state.pages[goneID] = nil
        state.changedPhotos = [added, captioned, removed]
        state.changedPages = [newID, pageID, goneID]
        state.files += ["media/new.webp"]
    }

    /// The entries left in the file, committed from it or encoded whole
    /// (the base refused), give the bytes of the state held whole.
    @Test func leftInTheFileTheBytesAreTheWholeStates() throws {
        let folder = try TemporaryFolder()
        let url = folder.url.appendingPathComponent("state.bin")
        var whole = try Self.written(2000, to: url)
        Self.changed(&whole)
        let expected = whole.encodedBytes()
        var left = whole
        left.photos = try #require(try left.leavingUnchangedPhotosInBase(whole.photos, changed: whole.changedPhotos ?? []))
        left.photoCountWithBase = whole.photos.count
        left.pages = try #require(try left.leavingUnchangedPagesInBase(whole.pages, changed: whole.changedPages ?? []))
        left.pageCountWithBase = whole.pages.count
        #expect(left.photos.count == 2 && left.pages.count == 2)
        #expect(try Delta.fromBase(left, chunkSize: 4096, readSize: 100) == expected)
        // Encoded whole (as when the base cannot serve), they are read back from the file.
        #expect(left.encodedBytes() == expected)
        // The file gone, only the entries held are written: a state that reads.
        try FileManager.default.removeItem(at: url)
        let partial = try BuildState.decode(Data(left.encodedBytes()))
        #expect(partial.photos.count == 2 && partial.pages.count == 2)
    }

    /// With the tests' check on, an entry let go of that differs from the
    /// file's, or one of the file's missing and not listed, fails.
    @Test func anUnlistedChangeLetGoOfFails() throws {
        let folder = try TemporaryFolder()
        let url = folder.url.appendingPathComponent("state.bin")
        let state = try Self.written(50, to: url)
        // On for the rest of the run, as the pipeline suites leave it (turned off, it could be off under them).
        BuildState.checksEncodingFromBase.store(true, ordering: .relaxed)
        var photos = state.photos
        let key = BuildState.key(for: "a/3.jpg")
        photos[key] = Delta.photo(3, caption: "not listed")
        #expect(throws: OutputError.self) { try state.leavingUnchangedPhotosInBase(photos, changed: []) }
        #expect(try state.leavingUnchangedPhotosInBase(photos, changed: [key])?.count == 1)
        var pages = state.pages
        let (id, _) = Delta.page(4, 1)
        pages[id] = nil
        #expect(throws: OutputError.self) { try state.leavingUnchangedPagesInBase(pages, changed: []) }
        #expect(try state.leavingUnchangedPagesInBase(pages, changed: [id])?.isEmpty == true)
        // Without a file there is nothing to leave entries in.
        #expect(try BuildState().leavingUnchangedPhotosInBase(photos, changed: []) == nil)
    }

    /// The list of files is read from the file as it was read at the start,
    /// even once a new state has replaced it under its name.
    @Test func theFileListIsReadFromTheFileAsItWas() throws {
        let folder = try TemporaryFolder()
        let url = folder.url.appendingPathComponent("state.bin")
        let state = try Self.written(10, to: url)
        let replacement = folder.url.appendingPathComponent("new.bin")
        try Data(BuildState(files: ["other.html"]).encodedBytes()).write(to: replacement)
        #expect(rename(replacement.path, url.path) == 0)
        #expect(state.fileCount == 500)
        try state.loadFiles()
        #expect(state.files == (0..<500).map { "media/\($0).webp" }.sorted())
    }

    /// A list whose file was cut short since: loading it fails, and a state
    /// written without loading it first lists no files, and still reads.
    @Test func aFileListThatCannotBeReadFailsOrIsEmpty() throws {
        let folder = try TemporaryFolder()
        let url = folder.url.appendingPathComponent("state.bin")
        let state = try Self.written(10, to: url)
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: 100)
        try handle.close()
        #expect(throws: OutputError.self) { try state.loadFiles() }
        let unloaded = try Self.written(10, to: folder.url.appendingPathComponent("other.bin"))
        try FileHandle(forWritingTo: folder.url.appendingPathComponent("other.bin")).truncate(atOffset: 100)
        let written = try BuildState.decode(Data(unloaded.encodedBytes()))
        #expect(written.files.isEmpty && written.photos.count == 10)
    }

    /// Files merged into a list as it is written give the bytes of the list
    /// merged first, at every chunk size.
    @Test func filesMergedAsWrittenAreTheListMergedFirst() throws {
        let kept = (0..<3000).map { String(format: "media/%05d.webp", $0 * 2) }.sorted()
        let new = (0..<40).map { String(format: "media/%05d.webp", $0 * 151 + 1) }.sorted() + ["zz/last.html"]
        var writer = StateWriter()
        for path in kept { writer.string(path) }
        let expected = BuildState(files: kept + new).encodedBytes()
        for chunk in [1, 4096, 1 << 20] {
            let state = BuildState(fileList: EncodedStrings(kept: kept.count, bytes: writer.bytes, inserting: new), photos: [:], pages: [:])
            var bytes: [UInt8] = []
            state.encode(chunkSize: chunk) { bytes.append(contentsOf: $0) }
            #expect(bytes == expected, "chunk \(chunk)")
        }
        let merged = EncodedStrings(kept: kept.count, bytes: writer.bytes, inserting: new)
        #expect(merged.strings == (kept + new).sorted())
    }
}
