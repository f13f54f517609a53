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
                          photos: [BuildState.key(for: "k1"): CachedPhoto(size: 123, modified: 1_700_000_000_123_456_789, contentHash: sampleHash("abc"), metadata: full),
                                   BuildState.key(for: "k2"): CachedPhoto(size: 0, modified: -1, contentHash: sampleHash(""), metadata: bare),
                                   BuildState.key(for: "k3"): CachedPhoto(size: 5, modified: 6, contentHash: sampleHash("live"), metadata: bare,
                                                     clip: CachedClip(size: 7, modified: 8, contentHash: sampleHash("clip"), belongsToStill: true)),
                                   BuildState.key(for: "k4"): CachedPhoto(size: 5, modified: 6, contentHash: sampleHash("unreadable clip"), metadata: bare,
                                                     clip: CachedClip(size: -1, modified: 0, contentHash: nil, belongsToStill: false))],
                          pages: [PageKey(path: "index.html"): PageRecord(fingerprint: StableHash.Digest(high: 1, low: .max)),
                                  PageKey(path: "search/index.js"): PageRecord(fingerprint: StableHash.Digest(high: 7, low: 9),
                                                                files: ["search/index.js", "search/t-ab.js"])])
    }

    @Test func roundTripIsExactAndDeterministic() throws {
        let state = Self.sample()
        let data = state.encoded()
        #expect(try BuildState.decode(data) == state)
        #expect(state.encoded() == data)
        #expect(try BuildState.decode(data).photos[BuildState.key(for: "k1")]?.metadata.gps == nil, "GPS never reaches the state")
        // The files are made strings when first asked for: counted before, the same list after, again and again.
        let read = try BuildState.decode(data)
        #expect(read.fileCount == 3)
        #expect(read.files == ["albums/é/ü.html", "index.html", "media/ab/x.webp"])
        #expect(read.files == state.files && read.fileCount == 3)
        var changed = read
        changed.files = ["x"]
        #expect(changed.fileCount == 1 && read.files.count == 3, "a copy's new list is its own")
        #expect(try BuildState.decode(data, withFiles: false).fileCount == 0)
    }

    /// A content hash is kept as its bits and written as its 32 hex digits:
    /// any other text where one belongs is a damaged state, not a hash.
    @Test func aContentHashThatIsNotThirtyTwoHexDigitsIsRefused() throws {
        let data = [UInt8](Self.sample().encoded())
        let hex = Array(sampleHash("abc").description.utf8)
        let at = try #require((0...(data.count - hex.count)).first { data[$0..<($0 + hex.count)].elementsEqual(hex) })
        for bad in [UInt8(ascii: "G"), UInt8(ascii: "A"), UInt8(ascii: " "), 0] {
            var damaged = data
            damaged[at + 7] = bad
            #expect(throws: StateFormatError.self) { try BuildState.decode(Data(damaged)) }
        }
        #expect(try BuildState.decode(Data(data)).photos[BuildState.key(for: "k1")]?.contentHash == sampleHash("abc"))
        // A photo's key likewise: 24 lowercase hex digits.
        let key = Array(BuildState.key(for: "k2").description.utf8)
        let keyAt = try #require((0...(data.count - key.count)).first { data[$0..<($0 + key.count)].elementsEqual(key) })
        var damaged = data
        damaged[keyAt + 3] = UInt8(ascii: "X")
        #expect(throws: StateFormatError.self) { try BuildState.decode(Data(damaged)) }
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

    @Test func chunkedEncodingIsTheSameBytes() {
        let state = Self.sample()
        for size in [1, 7, 64, 1 << 20] {
            var chunks: [[UInt8]] = []
            state.encode(chunkSize: size) { chunks.append(Array($0)) }
            #expect(Array(chunks.joined()) == state.encodedBytes())
            if size == 7 { #expect(chunks.count > 3, "a small chunk size hands out several chunks") }
        }
    }

    /// Photos' keys sort as numbers (24 hex digits) in the order strings
    /// sort in, any other key as a string; a state of more entries than one
    /// batch (encoded on every core) reads back equal, every entry in place.
    @Test func largeStatesEncodeInKeyOrderAcrossBatches() throws {
        let metadata = PhotoMetadata(format: .jpeg, storedSize: PixelSize(width: 4, height: 3), orientation: .up,
                                     captureDate: CaptureDate(wallClockSeconds: 9, utcOffsetSeconds: nil, source: .original), frameCount: 1)
        var photos: PhotoEntries = [:]
        var pages: PageEntries = [:]
        for n in 0..<20_000 {
            photos[BuildState.key(for: "album \(n % 97)/IMG_\(n).jpg")] = CachedPhoto(size: Int64(n), modified: Int64(n) * 7,
                                                                                    contentHash: sampleHash("h\(n)"), metadata: metadata)
            pages[PageKey(path: "albums/\(n % 97)/img-\(n).html")] = PageRecord(fingerprint: StableHash.Digest(high: UInt64(n), low: 1))
        }
        // Keys sort as numbers in the order their hex digits sort as text (the file's order).
        #expect(photos.keys.sorted().map(\.description) == photos.keys.map(\.description).sorted())
        #expect(photos.keys.allSatisfy { PhotoKey(hex: $0.description) == $0 })
        let state = BuildState(files: ["index.html"], photos: photos, pages: pages)
        let bytes = state.encodedBytes()
        #expect(try BuildState.decode(Data(bytes)) == state)
        #expect(state.encodedBytes() == bytes)

        // Read from the file mapped, its pages handed back as the decoding
        // passes them: the same state, and the bytes still read as the file's.
        let temporary = try TemporaryFolder()
        let url = temporary.url.appendingPathComponent("state.bin")
        try Data(bytes).write(to: url)
        let file = try #require(StateFile(url))
        let mapped = try #require(MappedFile(descriptor: file.descriptor, releasingRunsOf: 4096))
        var passed: [Int] = []
        let read = try BuildState.decode(mapped.data, file: file) { offset in
            passed.append(offset)
            mapped.release(before: offset)
        }
        #expect(read.photos == state.photos && read.pages == state.pages && read.files == state.files)
        #expect(passed.count > 10 && passed == passed.sorted() && passed.last! <= bytes.count, "told as it moves on")
        #expect(mapped.releasedBytes > bytes.count / 2, "most pages handed back")
        #expect(Array(mapped.data) == bytes, "pages handed back are read from the file again")
    }

    /// The state is written only when its bytes change: compared as it is
    /// made, against the file in place, whatever the chunks' boundaries.
    @Test func aStateFileIsRewrittenOnlyWhenItsBytesChange() throws {
        let temporary = try TemporaryFolder()
        let folder = temporary.url
        let url = folder.appendingPathComponent("state.bin")
        func write(_ bytes: [UInt8], chunk: Int) throws {
            var sink = AtomicFile.UnlessUnchanged(url: url, fault: { _ in nil })
            for start in stride(from: 0, to: bytes.count, by: chunk) {
                try bytes[start..<min(bytes.count, start + chunk)].withUnsafeBytes { try sink.write($0) }
            }
            try sink.finish()
        }
        func inode() throws -> Int { try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as! Int }
        let first = Array((0..<1000).map { UInt8($0 % 251) })
        try write(first, chunk: 64)
        #expect(Fixtures.contents(of: url) == first)
        let before = try inode()
        try write(first, chunk: 100)
        #expect(try inode() == before, "the same bytes: the file is not replaced")
        var changed = first
        changed[500] ^= 1
        for (bytes, chunk) in [(changed, 64), (Array(first.prefix(999)), 64), (first + [1], 1000), (first, 3), ([], 8)] {
            try write(bytes, chunk: chunk)
            #expect(Fixtures.contents(of: url) == bytes)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["state.bin"], "no temporary file left")
    }

    /// Ranges of another file put in a state as it is written: copied in
    /// the kernel or through the process, the same bytes; the file's own
    /// bytes at their own place, nothing written at all.
    @Test(arguments: [true, false]) func copiedRangesAreTheSourcesBytes(inKernel: Bool) throws {
        let temporary = try TemporaryFolder()
        let url = temporary.url.appendingPathComponent("state.bin"), other = temporary.url.appendingPathComponent("base.bin")
        let first = Array((0..<5000).map { UInt8($0 % 251) }), source = Array((0..<300_000).map { UInt8($0 % 241) })
        try Data(first).write(to: url)
        try Data(source).write(to: other)
        func inode() throws -> Int { try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as! Int }
        func descriptor(_ url: URL) -> Int32 { open(url.path, O_RDONLY | O_CLOEXEC) }
        // Its own bytes, copied and written where they were: not replaced.
        let before = try inode()
        var same = AtomicFile.UnlessUnchanged(url: url, fault: { _ in nil })
        let own = descriptor(url)
        defer { close(own) }
        try first[0..<100].withUnsafeBytes { try same.write($0) }
        try same.copy(from: own, 100..<4000, inKernel: inKernel)
        try first[4000...].withUnsafeBytes { try same.write($0) }
        try same.finish()
        #expect(try inode() == before)
        #expect(Fixtures.contents(of: url) == first)
        // Another file's ranges between written bytes.
        var sink = AtomicFile.UnlessUnchanged(url: url, fault: { _ in nil })
        let base = descriptor(other)
        defer { close(base) }
        try first[0..<10].withUnsafeBytes { try sink.write($0) }
        try sink.copy(from: base, 7..<250_007, inKernel: inKernel)
        try sink.copy(from: base, 0..<0, inKernel: inKernel)
        try ([1, 2, 3] as [UInt8]).withUnsafeBytes { try sink.write($0) }
        try sink.copy(from: base, 299_990..<300_000, inKernel: inKernel)
        try sink.finish()
        var expected: [UInt8] = Array(first[0..<10])
        expected += source[7..<250_007]
        expected += [1, 2, 3]
        expected += source[299_990...]
        #expect(Fixtures.contents(of: url) == expected)
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.url.path).sorted() == ["base.bin", "state.bin"])
    }

    /// A state put in place by exchange: the new bytes under the name, no
    /// temporary file left, and the old file, still open (a build's base),
    /// still read as it was; a first state (nothing to exchange with) is renamed.
    @Test func aStateIsExchangedWithTheOldOne() throws {
        let temporary = try TemporaryFolder()
        let url = temporary.url.appendingPathComponent("state.bin")
        func commit(_ bytes: [UInt8]) throws {
            var sink = AtomicFile.UnlessUnchanged(url: url, fault: { _ in nil })
            try bytes.withUnsafeBytes { try sink.write($0) }
            try sink.finish()
        }
        let old = Array(repeating: UInt8(7), count: 10_000), new = Array(repeating: UInt8(9), count: 20_000)
        try commit(old)
        #expect(Fixtures.contents(of: url) == old)
        let held = open(url.path, O_RDONLY | O_CLOEXEC)
        defer { close(held) }
        try commit(new)
        #expect(Fixtures.contents(of: url) == new)
        var first = [UInt8](repeating: 0, count: 100)
        #expect(first.withUnsafeMutableBytes { pread(held, $0.baseAddress!, 100, 0) } == 100)
        #expect(first == Array(old.prefix(100)))
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.url.path) == ["state.bin"])
    }
}
