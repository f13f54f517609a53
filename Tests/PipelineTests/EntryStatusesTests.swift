import Foundation
import Testing
import GalleryTestSupport
@testable import GalleryCore
@testable import GalleryKit
@testable import Scanning

/// A large folder's `lstat`s are shared with helper threads: each entry
/// must still get its own status, folder after folder, with gone entries
/// and links as one thread would see them.
struct EntryStatusesTests {
    @Test func everyEntryGetsItsOwnStatusFolderAfterFolder() throws {
        let folder = try TemporaryFolder()
        let statuses = EntryStatuses()
        defer { statuses.stop() }
        // Folders below, at and well above the size that is shared, asked one after another.
        for (round, count) in [10, EntryStatuses.smallestShared, 700, 1, 333].enumerated() {
            var paths: [[CChar]] = [], sizes: [Int?] = []
            for index in 0..<count {
                let path = folder.url.appendingPathComponent("r\(round)-\(index)").path
                // Every seventh entry is not there; the others are as long as their number.
                if index % 7 == 3 {
                    sizes.append(nil)
                } else {
                    try Data(repeating: 1, count: index).write(to: URL(fileURLWithPath: path))
                    sizes.append(index)
                }
                paths.append(Array(path.utf8CString))
            }
            let found = statuses.of(paths)
            #expect(found.count == count)
            for index in 0..<count {
                #expect(found[index].map { Int($0.st_size) } == sizes[index], "round \(round), entry \(index)")
            }
        }
    }

    @Test func aLargeFolderIsWalkedAsOneThreadWouldWalkIt() throws {
        let folder = try TemporaryFolder()
        let root = folder.url.appendingPathComponent("src")
        let album = root.appendingPathComponent("album")
        try FileManager.default.createDirectory(at: album.appendingPathComponent("inner"), withIntermediateDirectories: true)
        // More than one window of statuses (`EntryStatuses.window`), the last one partial.
        let count = EntryStatuses.window + 450
        for index in 0..<count {
            try Data(repeating: 7, count: index + 1).write(to: album.appendingPathComponent("IMG_\(index).jpg"))
        }
        try Data("x".utf8).write(to: album.appendingPathComponent("inner/last.jpg"))
        try Data("notes".utf8).write(to: album.appendingPathComponent("readme.pdf"))
        // A link to a photo is not followed unless asked.
        try FileManager.default.createSymbolicLink(atPath: album.appendingPathComponent("link.jpg").path,
                                                   withDestinationPath: album.appendingPathComponent("IMG_1.jpg").path)
        var media: [(name: String, size: Int64)] = [], ignored: [String] = []
        SourceScanner(root: root).walk { event in
            if case .media(let file) = event { media.append((file.relativePath, file.byteCount)) }
            if case .ignored(let path) = event { ignored.append(path) }
        }
        // In natural order, each with its own size, then the inner folder's.
        let expected = (0..<count).map { ("album/IMG_\($0).jpg", Int64($0 + 1)) } + [("album/inner/last.jpg", 1)]
        #expect(media.map(\.name) == expected.map(\.0))
        #expect(media.map(\.size) == expected.map(\.1))
        #expect(ignored == ["album/readme.pdf"])
    }

    static func library(_ folder: TemporaryFolder) throws -> BuildSettings {
        let source = folder.url.appendingPathComponent("src")
        for album in 0..<5 {
            let url = source.appendingPathComponent("album \(album)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            for index in 0..<1000 { try Data([UInt8(index & 0xFF)]).write(to: url.appendingPathComponent("IMG_\(index).jpg")) }
        }
        return BuildSettings(source: source, output: folder.url.appendingPathComponent("out"))
    }

    /// Within the last build's count the walker stops with 64 batches not
    /// taken (and the files of the next one found), and goes on to the end
    /// once the stream is given up.
    @Test func theWalkerWaitsForTheMediaStepAndNotForAStreamGivenUp() async throws {
        let folder = try TemporaryFolder()
        let progress = ProgressReporter(quiet: true)
        let feed = SourceFeed.start(settings: try Self.library(folder), shard: nil, progress: progress, heldUpTo: 5000)
        let held = (SourceFeed.batchesAhead + 1) * SourceFeed.batchSize
        var deadline = ContinuousClock.now + .seconds(20)
        while progress.photosFound < held, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        // Stopped there: no file more is found while no batch is taken.
        try await Task.sleep(for: .milliseconds(300))
        #expect(progress.photosFound == held)
        #expect(feed.found.value == nil)
        // A consumer cancelled at its first batch lets the walk end. How many
        // it takes is not asserted: AsyncStream calls `onTermination` (which
        // lets the walker go) before it marks the stream finished, so a few
        // batches yielded in between still reach the consumer.
        let consumer = Task {
            var taken = 0
            for await _ in feed.batches {
                taken += 1
                withUnsafeCurrentTask { $0?.cancel() }
            }
            return taken
        }
        #expect(await consumer.value >= 1)
        deadline = ContinuousClock.now + .seconds(20)
        while feed.found.value == nil, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(feed.found.value == 5000)
    }

    /// Past the last build's count (a first build: none) the walk runs to
    /// its end, so its count can size the state before the photos are read.
    @Test func aFirstBuildsWalkEndsBeforeItsFilesAreTaken() async throws {
        let folder = try TemporaryFolder()
        let feed = SourceFeed.start(settings: try Self.library(folder), shard: nil, progress: ProgressReporter(quiet: true), heldUpTo: 0)
        let deadline = ContinuousClock.now + .seconds(20)
        while feed.found.value == nil, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(feed.found.value == 5000)
        var files = 0
        for await batch in feed.batches {
            feed.took()
            files += batch.count
        }
        #expect(files == 5000)
    }
}
