import Foundation
import Testing
import GalleryTestSupport
@testable import SiteOutput
@testable import GalleryCore

/// A state committed from the file it was read from (its unchanged entries'
/// bytes copied, the changed ones encoded) is byte for byte the state
/// encoded whole, or is not made at all.
@Suite struct StateDeltaTests {
    /// SplitMix64: the same changes on every machine.
    struct Random {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    static func photo(_ n: Int, caption: String? = nil) -> CachedPhoto {
        var metadata = PhotoMetadata(format: .jpeg, storedSize: PixelSize(width: 4000 + n % 7, height: 3000), orientation: .up,
                                     captureDate: CaptureDate(wallClockSeconds: Int64(n), utcOffsetSeconds: 3600, source: .original),
                                     camera: CameraFacts(make: "Make \(n % 3)", model: "Model"), frameCount: 1)
        metadata.words.caption = caption
        return CachedPhoto(size: Int64(n), modified: Int64(n) * 1000, contentHash: sampleHash(String(n, radix: 16)), metadata: metadata,
                           sidecarStamp: n % 5 == 0 ? "stamp \(n)" : "")
    }

    static func page(_ n: Int, _ fingerprint: UInt64) -> (PageKey, PageRecord) {
        let files: [String]? = n % 50 == 0 ? (0..<(n % 7 + 1)).map { "search/t-\(n)-\($0).js" } : nil
        return (PageKey(path: "albums/\(n % 13)/img-\(n).html"), PageRecord(fingerprint: StableHash.Digest(high: UInt64(n), low: fingerprint), files: files))
    }

    /// Writes `state` to `url` and reads it back as a build does: with its
    /// file as the base, sampled every `sampleEvery` entries.
    static func commitAndRead(_ bytes: [UInt8], to url: URL, sampleEvery: Int = StateFileBase.Samples.interval.load(ordering: .relaxed)) throws
        -> BuildState {
        try Data(bytes).write(to: url)
        var read = try BuildState.decode(Data(contentsOf: url), sampleEvery: sampleEvery)
        read.base?.file = url
        read.base?.identity = FileIdentity(path: url.path)
        return read
    }

    /// The state made from its base, the base's ranges copied in as a commit does (read with `pread`).
    static func fromBase(_ state: BuildState, chunkSize: Int = 1 << 20, readSize: Int = 1 << 20) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try state.encodeFromBase(chunkSize: chunkSize, readSize: readSize, copy: { descriptor, range in
            var part = [UInt8](repeating: 0, count: range.count)
            let got = part.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, range.count, off_t(range.lowerBound)) }
            #expect(got == range.count)
            bytes += part
        }) { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// Rounds of random adds, removals and changes of photos, pages and
    /// files, each state made from the previous round's file with reads
    /// and chunks small enough that entries straddle them.
    @Test func randomChangesGiveTheBytesOfTheWholeEncoding() throws {
        try randomRounds(sampleEvery: 1 << 20)
    }

    /// The same, the changed entries sought from samples of the file (one
    /// every few entries: most rounds seek, a round of many changes steps
    /// over every entry), the unchanged runs between them copied whole.
    @Test(arguments: [1, 2, 5, 64]) func changesSoughtFromSamplesGiveTheBytesOfTheWholeEncoding(sampleEvery: Int) throws {
        try randomRounds(sampleEvery: sampleEvery)
    }

    /// A base read with samples seeks when few entries changed, and the
    /// copies are the runs between them: two changes, at most three runs per region.
    @Test func aFewChangesAreSoughtAndTheRestCopiedInRuns() throws {
        let folder = try TemporaryFolder()
        let url = folder.url.appendingPathComponent("state.bin")
        var photos: PhotoEntries = [:]
        for n in 0..<1000 { photos[BuildState.key(for: "a/\(n).jpg")] = Self.photo(n) }
        var state = try Self.commitAndRead(BuildState(files: ["a.html"], photos: photos, pages: [:]).encodedBytes(), to: url, sampleEvery: 16)
        #expect(state.base?.photos.samples?.count == 63)
        let changed = BuildState.key(for: "a/500.jpg"), added = BuildState.key(for: "b/new.jpg")
        state.photos[changed] = Self.photo(500, caption: "new words")
        state.photos[added] = Self.photo(1001)
        state.changedPhotos = [changed, added]
        state.changedPages = []
        var copies: [Range<Int>] = []
        var bytes: [UInt8] = []
        try state.encodeFromBase(copy: { descriptor, range in
            copies.append(range)
            var part = [UInt8](repeating: 0, count: range.count)
            _ = part.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, range.count, off_t(range.lowerBound)) }
            bytes += part
        }) { bytes.append(contentsOf: $0) }
        #expect(bytes == state.encodedBytes())
        #expect((2...3).contains(copies.count))
        #expect(copies.reduce(0) { $0 + $1.count } > 900 * 100)
    }

    func randomRounds(sampleEvery: Int) throws {
        let folder = try TemporaryFolder()
        let url = folder.url.appendingPathComponent("state.bin")
        var photos: PhotoEntries = [:], pages: PageEntries = [:]
        for n in 0..<3000 {
            photos[BuildState.key(for: "a/\(n).jpg")] = Self.photo(n)
            let (id, record) = Self.page(n, 1)
            pages[id] = record
        }
        var state = try Self.commitAndRead(BuildState(files: (0..<500).map { "media/\($0).webp" }, photos: photos, pages: pages).encodedBytes(),
                                           to: url, sampleEvery: sampleEvery)
        var random = Random(state: 34)
        var next = 3000
        for round in 0..<40 {
            var changedPhotos: Set<PhotoKey> = [], changedPages: Set<PageKey> = []
            for _ in 0..<random.next(6) {
                switch random.next(3) {
                case 0:  // a photo added, with its page
                    let key = BuildState.key(for: "a/\(next).jpg")
                    state.photos[key] = Self.photo(next)
                    let (id, record) = Self.page(next, 1)
                    state.pages[id] = record
                    changedPhotos.insert(key)
                    changedPages.insert(id)
                    next += 1
                case 1:  // one removed
                    let key = state.photos.keys.sorted()[random.next(state.photos.count)]
                    state.photos[key] = nil
                    changedPhotos.insert(key)
                    let id = state.pages.keys.sorted()[random.next(state.pages.count)]
                    state.pages[id] = nil
                    changedPages.insert(id)
                default:  // one captioned, one page's fingerprint changed (some listed without changing)
                    let key = state.photos.keys.sorted()[random.next(state.photos.count)]
                    state.photos[key] = Self.photo(random.next(100_000), caption: "round \(round)")
                    changedPhotos.insert(key)
                    let id = state.pages.keys.sorted()[random.next(state.pages.count)]
                    if random.next(2) == 0 { state.pages[id]?.fingerprint = StableHash.Digest(high: UInt64(round), low: 2) }
                    changedPages.insert(id)
                }
            }
            if random.next(3) == 0 { state.files += ["media/new-\(round).webp"] }
            state.changedPhotos = changedPhotos
            state.changedPages = changedPages
            let whole = state.encodedBytes()
            let (chunk, read) = [(1 << 20, 1 << 20), (4096, 100), (7, 64)][round % 3]
            #expect(try Self.fromBase(state, chunkSize: chunk, readSize: read) == whole, "round \(round)")
            state = try Self.commitAndRead(whole, to: url, sampleEvery: sampleEvery)
        }
    }

    /// An entry changed but not said to have: the copied bytes are the old
    /// entry's, so a state made from its base differs (what the build's
    /// check, on in the pipeline tests, catches).
    @Test func anUnlistedChangeIsNotInTheCopy() throws {
        let folder = try TemporaryFolder()
        let url = folder.url.appendingPathComponent("state.bin")
        let key = BuildState.key(for: "a.jpg")
        var state = try Self.commitAndRead(BuildState(files: [], photos: [key: Self.photo(1)], pages: [:]).encodedBytes(), to: url)
        state.photos[key] = Self.photo(1, caption: "new words")
        state.changedPhotos = []
        state.changedPages = []
        #expect(try Self.fromBase(state) != state.encodedBytes())
        state.changedPhotos = [key]
        #expect(try Self.fromBase(state) == state.encodedBytes())
    }

    /// A base that changed since it was read is not used: the state is
    /// encoded whole. A page whose id is not ASCII is a key like any other.
    @Test func aBaseThatCannotServeIsRefused() throws {
        let folder = try TemporaryFolder()
        let url = folder.url.appendingPathComponent("state.bin")
        let key = BuildState.key(for: "a.jpg")
        let original = BuildState(files: ["index.html"], photos: [key: Self.photo(1)], pages: [PageKey(path: "index.html"): PageRecord(fingerprint: .zero)])
        var state = try Self.commitAndRead(original.encodedBytes(), to: url)
        state.changedPhotos = []
        state.changedPages = []
        #expect(try Self.fromBase(state) == state.encodedBytes())
        func refused(_ state: BuildState) -> Bool {
            do {
                _ = try Self.fromBase(state)
                return false
            } catch let error as StateDeltaError {
                if case .unusable = error { return true }
                return false
            } catch {
                return false
            }
        }
        var accented = state
        accented.pages[PageKey(path: "albums/é.html")] = PageRecord(fingerprint: .zero)
        accented.changedPages = [PageKey(path: "albums/é.html")]
        #expect(try Self.fromBase(accented) == accented.encodedBytes())
        var unknown = state
        unknown.changedPages = nil
        #expect(!unknown.canEncodeFromBase)
        // The file rewritten since it was read (another size and time).
        try Data(original.encodedBytes() + []).write(to: url)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1)], ofItemAtPath: url.path)
        #expect(refused(state))
    }
}
