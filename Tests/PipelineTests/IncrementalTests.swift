import Foundation
import Synchronization
import Testing
import GalleryTestSupport
@testable import SiteOutput
@testable import GalleryCore
@testable import GalleryKit

/// Each kind of change on a small library, asserting exactly what is written
/// and removed; a SIGKILL test; and `--watch`.
@Suite(.serialized) struct IncrementalTests {
    /// Every state committed from the previous one's file is checked against the state encoded whole.
    init() { BuildState.checkCommitsFromBase() }

    struct FileState: Equatable {
        var modified: Int64
        var bytes: Data
    }

    /// Every file of OUT except the build state, with its mtime and bytes.
    static func snapshot(_ output: URL) throws -> [String: FileState] {
        var result: [String: FileState] = [:]
        let fm = FileManager.default
        for relative in try fm.subpathsOfDirectory(atPath: output.path) {
            var info = stat()
            let path = output.appendingPathComponent(relative).path
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            result[relative] = FileState(modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
                                         bytes: Data(Fixtures.contents(of: URL(fileURLWithPath: path))))
        }
        return result
    }

    static func changed(_ before: [String: FileState], _ after: [String: FileState]) -> (written: Set<String>, removed: Set<String>) {
        let written = Set(after.keys.filter { before[$0] == nil || before[$0]!.modified != after[$0]!.modified })
        let removed = Set(before.keys.filter { after[$0] == nil })
        return (written, removed)
    }

    /// A photo of its own scene (`seed`): two seeds never look alike (a near-duplicate would stack).
    static func photo(_ seed: Int, exif: [UInt8]? = nil) throws -> [UInt8] {
        try Fixtures.jpeg(Fixtures.scene(UInt64(seed), width: 160, height: 120), exif: exif)
    }

    static func exif(_ date: String) -> [UInt8] { Fixtures.cameraExif(original: date, offset: "+01:00", gps: false) }

    /// A library: two albums with three photos each.
    static func library() throws -> (TemporaryFolder, BuildSettings) {
        let folder = try TemporaryFolder()
        for i in 1...3 { try folder.write("src/Alpha/a\(i).jpg", try photo(i, exif: exif("2024:01:0\(i) 10:00:00"))) }
        for i in 1...3 { try folder.write("src/Beta/b\(i).jpg", try photo(10 + i, exif: exif("2024:02:0\(i) 10:00:00"))) }
        let settings = BuildSettings(source: folder.url.appendingPathComponent("src"), output: folder.url.appendingPathComponent("out"),
                                     thumbnailBoxes: [PixelSize(width: 64, height: 48)], previewBoxes: [PixelSize(width: 128, height: 96)],
                                     jobs: 2)
        return (folder, settings)
    }

    func build(_ settings: BuildSettings) async throws -> BuildReport {
        try await GalleryBuilder().build(settings: settings, quiet: true)
    }

    @Test func noChangeWritesNothing() async throws {
        let (folder, settings) = try Self.library()
        defer { withExtendedLifetime(folder) {} }
        _ = try await build(settings)
        let before = try Self.snapshot(settings.output)
        let statePath = BuildState.location(in: settings.stateFolder).path
        let stateBefore = try FileManager.default.attributesOfItem(atPath: statePath)[.modificationDate] as? Date
        let report = try await build(settings)
        #expect(report.renditionsMade == 0 && report.filesWritten.isEmpty && report.filesRemoved.isEmpty)
        #expect(try Self.snapshot(settings.output) == before)
        #expect(try FileManager.default.attributesOfItem(atPath: statePath)[.modificationDate] as? Date == stateBefore)
    }

    @Test func addedPhotoTouchesOnlyWhatShowsIt() async throws {
        let (folder, settings) = try Self.library()
        let first = try await build(settings)
        let before = try Self.snapshot(settings.output)
        try folder.write("src/Alpha/a4.jpg", try Self.photo(4, exif: Self.exif("2024:01:04 10:00:00")))
        let report = try await build(settings)
        let (written, removed) = Self.changed(before, try Self.snapshot(settings.output))
        #expect(report.renditionsMade == 2)
        #expect(removed.isEmpty)
        let media = written.filter { $0.hasPrefix("media/") }
        #expect(media.count == 2, "only the new photo's two renditions: \(media)")
        #expect(written.contains("albums/alpha/a4.html"))
        #expect(written.contains("albums/alpha/a3.html"), "its neighbour's next link changed")
        #expect(written.contains("albums/alpha/index.html"))
        #expect(written.contains("moments/index.html"))
        #expect(written.contains("index.html"), "the album card's count changed")
        // Nothing of the other album, nor the untouched neighbours.
        #expect(!written.contains { $0.hasPrefix("albums/beta/") })
        #expect(!written.contains("albums/alpha/a1.html"))
        #expect(!written.contains { $0.hasPrefix("static/") })
        #expect(Set(report.filesWritten) == written)
        #expect(report.stateFromBase, "the state's unchanged entries copied from the previous file (and checked against the whole)")
        // The page step's and the prune's phases, each timed (`-v`); a no-op has none to time.
        // A first build frees its items before the prune's lists; an add, which rendered
        // few pages, keeps them to its end and waits only for its plan to be freed.
        let sifted = ["OUT's files sifted and the stale removed", "the state committed"]
        #expect(first.stepPhases.filter { $0.step == "prune" }.map(\.phase) == ["the items freed"] + sifted)
        #expect(report.stepPhases.filter { $0.step == "prune" }.map(\.phase) == ["the plan freed"] + sifted)
        #expect(report.stepPhases.filter { $0.step == "render pages" }.map(\.phase) == [
            "the items made", "the albums, moments and site map assembled", "the pages planned and fingerprinted",
            "the pages compared with the previous build's", "the taken pages listed and the changed ones rendered", "the records made"])
        #expect(report.stepPhases.allSatisfy { $0.seconds >= 0 })
        #expect(try await build(settings).stepPhases.isEmpty)
    }

    /// What a build wrote is read back from its journal, after what a
    /// killed build left there: the report lists this build's files alone,
    /// the killed build's file it does not produce is pruned, and the state
    /// lists OUT as a clean build's does (the next build writes nothing).
    @Test func aBuildAfterAKilledOneListsWhatItWroteFromTheJournal() async throws {
        let (folder, settings) = try Self.library()
        defer { withExtendedLifetime(folder) {} }
        _ = try await build(settings)
        try folder.write("src/Alpha/a4.jpg", try Self.photo(4, exif: Self.exif("2024:01:04 10:00:00")))
        // A killed build's journal: a file it made that no build produces, and a page it rewrote.
        let leftover = "media/zz/left-by-a-killed-build.webp"
        try FileManager.default.createDirectory(at: settings.output.appendingPathComponent("media/zz"), withIntermediateDirectories: true)
        try Data([1, 2, 3]).write(to: settings.output.appendingPathComponent(leftover))
        let journal = settings.stateFolder.appendingPathComponent("journal")
        try Data((leftover + "\nalbums/alpha/a1.html\n").utf8).write(to: journal)
        // And a state it was writing (or had just swapped out) when it was killed.
        let halfState = settings.stateFolder.appendingPathComponent(AtomicFile.temporaryName(for: BuildState.fileName))
        try Data([9, 9, 9]).write(to: halfState)
        let before = try Self.snapshot(settings.output)
        let report = try await build(settings)
        #expect(!FileManager.default.fileExists(atPath: halfState.path), "the state folder's temporary file removed")
        let (written, removed) = Self.changed(before, try Self.snapshot(settings.output))
        #expect(Set(report.filesWritten) == written && report.filesWritten.count == written.count, "\(Array(report.filesWritten))")
        #expect(written.contains("albums/alpha/a4.html") && !written.contains(leftover) && !written.contains("albums/alpha/a1.html"))
        #expect(removed == [leftover] && report.filesRemoved == [leftover])
        #expect(!FileManager.default.fileExists(atPath: journal.path))
        let again = try await build(settings)
        #expect(again.filesWritten.isEmpty && again.filesRemoved.isEmpty && again.pagesRendered == 0)
    }

    /// The journal holds a path a line: a path with a line break is refused
    /// before anything is journaled or written (read back, it would be
    /// other paths, which the prune could remove), and the paths written
    /// around it read back as written; an unended last line is none.
    @Test func aPathWithALineBreakIsRefusedAndTheJournalReadsBackAsWritten() throws {
        let (folder, settings) = try Self.library()
        defer { withExtendedLifetime(folder) {} }
        let output = try OutputFolder.open(settings.output, source: settings.source, state: settings.stateFolder)
        try [UInt8]("a".utf8).withUnsafeBytes { try output.write($0, to: "one.txt") }
        #expect(throws: OutputError.self) { try [UInt8]("b".utf8).withUnsafeBytes { try output.write($0, to: "index.html\nmine.txt") } }
        try [UInt8]("c".utf8).withUnsafeBytes { try output.write($0, to: "two.txt") }
        #expect(Array(output.writtenPaths) == ["one.txt", "two.txt"])
        #expect(!FileManager.default.fileExists(atPath: settings.output.appendingPathComponent("index.html\nmine.txt").path))
        let journal = settings.stateFolder.appendingPathComponent("journal")
        let handle = try FileHandle(forWritingTo: journal)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("\nhalf-writ".utf8))
        try handle.close()
        #expect(BuildJournal(url: journal).leftover() == ["one.txt", "two.txt"])
        output.commitUnchanged()
    }

    /// Once let go of, OUT's listing answers from the file system: a file
    /// put there or taken away by hand since it was listed is seen as it is,
    /// and what the build writes after is found too.
    @Test func aListingLetGoOfAsksTheFileSystem() throws {
        let (folder, settings) = try Self.library()
        defer { withExtendedLifetime(folder) {} }
        let out = settings.output
        try FileManager.default.createDirectory(at: out.appendingPathComponent("media"), withIntermediateDirectories: true)
        try Data("old".utf8).write(to: out.appendingPathComponent("media/old.txt"))
        let output = try OutputFolder.open(out, source: settings.source, state: settings.stateFolder)
        try [UInt8]("a".utf8).withUnsafeBytes { try output.write($0, to: "one.txt") }
        #expect(output.contains("media/old.txt") && output.contains("one.txt"))
        try Data("mine".utf8).write(to: out.appendingPathComponent("mine.txt"))
        #expect(!output.contains("mine.txt"), "listed before it was put there")
        output.letGoOfListing()
        #expect(output.contains("mine.txt") && output.contains("media/old.txt") && output.contains("one.txt"))
        try FileManager.default.removeItem(at: out.appendingPathComponent("media/old.txt"))
        #expect(!output.contains("media/old.txt"))
        try [UInt8]("b".utf8).withUnsafeBytes { try output.write($0, to: "two.txt") }
        #expect(output.contains("two.txt") && !output.contains("three.txt"))
        output.commitUnchanged()
    }

    @Test func changedPhotoIsRegeneratedAndMoves() async throws {
        let (folder, settings) = try Self.library()
        _ = try await build(settings)
        let before = try Self.snapshot(settings.output)
        // Same name, new content and a new date: it moves to another moments day.
        try folder.write("src/Beta/b1.jpg", try Self.photo(99, exif: Self.exif("2024:03:15 10:00:00")))
        let report = try await build(settings)
        let after = try Self.snapshot(settings.output)
        let (written, removed) = Self.changed(before, after)
        #expect(report.renditionsMade == 2)
        #expect(removed.filter { $0.hasPrefix("media/") }.count == 2, "the old renditions go")
        #expect(written.filter { $0.hasPrefix("media/") }.count == 2)
        let moments = String(decoding: after["moments/index.html"]!.bytes, as: UTF8.self)
        #expect(moments.contains("datetime=\"2024-03-15\""))
        #expect(!moments.contains("datetime=\"2024-02-01\""))
    }

    @Test func removedPhotoDisappears() async throws {
        let (folder, settings) = try Self.library()
        _ = try await build(settings)
        let before = try Self.snapshot(settings.output)
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("src/Beta/b2.jpg"))
        _ = try await build(settings)
        let after = try Self.snapshot(settings.output)
        let (_, removed) = Self.changed(before, after)
        #expect(removed.contains("albums/beta/b2.html"))
        #expect(removed.filter { $0.hasPrefix("media/") }.count == 2)
        for (path, file) in after where path.hasSuffix(".html") {
            let html = String(decoding: file.bytes, as: UTF8.self)
            #expect(!html.contains("b2.jpg") && !html.contains("b2.html"), "\(path) still links b2")
        }
    }

    @Test func renamedOrMovedPhotoIsNotReencoded() async throws {
        let (folder, settings) = try Self.library()
        _ = try await build(settings)
        let before = try Self.snapshot(settings.output)
        try FileManager.default.moveItem(at: folder.url.appendingPathComponent("src/Alpha/a2.jpg"),
                                         to: folder.url.appendingPathComponent("src/Beta/moved.jpg"))
        let report = try await build(settings)
        let (written, removed) = Self.changed(before, try Self.snapshot(settings.output))
        #expect(report.renditionsMade == 0)
        #expect(!written.contains { $0.hasPrefix("media/") } && !removed.contains { $0.hasPrefix("media/") })
        #expect(written.contains("albums/beta/moved.html") && removed.contains("albums/alpha/a2.html"))
    }

    @Test func settingsChangesRedoOnlyWhatTheyAffect() async throws {
        let (folder, settings) = try Self.library()
        defer { withExtendedLifetime(folder) {} }
        _ = try await build(settings)
        var before = try Self.snapshot(settings.output)
        var bigger = settings
        bigger.thumbnailBoxes = [PixelSize(width: 80, height: 60)]
        var report = try await build(bigger)
        var (written, removed) = Self.changed(before, try Self.snapshot(settings.output))
        // A photo's stills are made together (one decode, smaller ones
        // resampled from larger ones): a new thumbnail size makes its preview
        // again too, under a new name, as a clean build makes it.
        #expect(report.renditionsMade == 12, "a thumbnail and a preview per photo")
        #expect(written.filter { $0.hasPrefix("media/") }.count == 12 && written.contains { $0.hasSuffix("-80x60.webp") })
        #expect(removed.filter { $0.hasPrefix("media/") }.count == 12 && removed.contains { $0.hasSuffix("-64x48.webp") })

        before = try Self.snapshot(settings.output)
        var retitled = bigger
        retitled.title = "New title"
        report = try await build(retitled)
        (written, removed) = Self.changed(before, try Self.snapshot(settings.output))
        #expect(report.renditionsMade == 0 && removed.isEmpty)
        #expect(!written.contains { $0.hasPrefix("media/") })
        #expect(written.filter { $0.hasSuffix(".html") }.count == before.keys.filter { $0.hasSuffix(".html") }.count)
    }

    @Test func templateChangeRerendersPagesWithoutTouchingImages() async throws {
        var (folder, settings) = try Self.library()
        try folder.write("theme/templates/foot.mustache", Array("</main><footer>one</footer></body></html>".utf8))
        settings.theme = folder.url.appendingPathComponent("theme").path
        _ = try await build(settings)
        let before = try Self.snapshot(settings.output)
        try folder.write("theme/templates/foot.mustache", Array("</main><footer>two</footer></body></html>".utf8))
        let report = try await build(settings)
        let after = try Self.snapshot(settings.output)
        let (written, _) = Self.changed(before, after)
        #expect(report.renditionsMade == 0 && !written.contains { $0.hasPrefix("media/") })
        #expect(String(decoding: after["index.html"]!.bytes, as: UTF8.self).contains("<footer>two</footer>"))
    }

    @Test func unreadableOrOldStateMeansAFullCorrectRebuild() async throws {
        let (folder, settings) = try Self.library()
        defer { withExtendedLifetime(folder) {} }
        _ = try await build(settings)
        let clean = try Self.snapshot(settings.output)
        try Data("{not json".utf8).write(to: BuildState.location(in: settings.stateFolder))
        _ = try await build(settings)
        #expect(try Self.snapshot(settings.output).mapValues(\.bytes) == clean.mapValues(\.bytes))
    }

    @Test func aSecondBuildOnTheSameOutputRefuses() async throws {
        let (folder, settings) = try Self.library()
        defer { withExtendedLifetime(folder) {} }
        try FileManager.default.createDirectory(at: settings.output, withIntermediateDirectories: true)
        let held = try BuildLock(output: settings.output, state: settings.stateFolder)
        await #expect(throws: OutputError.self) { try await build(settings) }
        held.release()
        _ = try await build(settings)
    }

    // MARK: Processes

    static var executable: URL { GallerygenBinary.url }

    static func run(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    @Test func killedBuildsThenARebuildGiveTheCleanSite() async throws {
        #expect(FileManager.default.isExecutableFile(atPath: Self.executable.path), "build the gallerygen executable first")
        let folder = try TemporaryFolder()
        for i in 0..<12 {
            let image = Fixtures.quadrants(width: 300 + i * 7, height: 220)
            try folder.write("src/Album \(i % 3)/p\(i).jpg", try Fixtures.jpeg(image, exif: Self.exif("2024:0\(1 + i % 3):1\(i % 9) 10:00:00")))
        }
        let source = folder.url.appendingPathComponent("src").path
        let clean = folder.url.appendingPathComponent("clean").path
        let target = folder.url.appendingPathComponent("killed").path
        let common = ["--thumbnail-size", "60x45,120x90", "--preview-size", "200x150", "--jobs", "2", "--quiet"]

        let started = Date()
        let first = try Self.run(["build", source, "--output", clean] + common)
        first.waitUntilExit()
        #expect(first.terminationStatus == 0)
        let duration = max(0.1, Date().timeIntervalSince(started))

        var generator = SystemRandomNumberGenerator()
        var kills = 0
        for round in 0..<14 {
            // Change the library before each round so every build has new
            // work under way (renditions, pages, pruning) when it is killed.
            switch round % 3 {
            case 0: try folder.write("src/Album 1/new\(round).jpg", try Self.photo(200 + round))
            case 1: try folder.write("src/Album 2/p2.jpg", try Fixtures.jpeg(Fixtures.quadrants(width: 310 + round, height: 230)))
            default: try? FileManager.default.removeItem(at: folder.url.appendingPathComponent("src/Album 1/new\(round - 2).jpg"))
            }
            let process = try Self.run(["build", source, "--output", target] + common)
            try await Task.sleep(nanoseconds: UInt64(Double.random(in: 0...(duration * 0.3), using: &generator) * 1e9))
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                kills += 1
            }
            process.waitUntilExit()
        }
        #expect(kills >= 5, "builds were killed mid-way (\(kills) of 14)")
        let final = try Self.run(["build", source, "--output", target] + common)
        final.waitUntilExit()
        #expect(final.terminationStatus == 0)
        let rebuilt = try Self.run(["build", source, "--output", clean] + common)
        rebuilt.waitUntilExit()
        let a = try Self.snapshot(URL(fileURLWithPath: clean)).mapValues(\.bytes)
        let b = try Self.snapshot(URL(fileURLWithPath: target)).mapValues(\.bytes)
        #expect(Set(a.keys) == Set(b.keys), "extra: \(Set(b.keys).subtracting(a.keys)), missing: \(Set(a.keys).subtracting(b.keys))")
        #expect(a == b)
    }

    @Test func watchRebuildsWhenSourceChanges() async throws {
        let (folder, settings) = try Self.library()
        let process = try Self.run(["build", settings.source.path, "--output", settings.output.path, "--watch", "--quiet",
                                    "--thumbnail-size", "64x48", "--preview-size", "128x96"])
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() } }
        let index = settings.output.appendingPathComponent("albums/alpha/index.html")
        func waitFor(_ condition: () -> Bool) async throws -> Bool {
            for _ in 0..<200 {
                if condition() { return true }
                try await Task.sleep(nanoseconds: 50_000_000)
            }
            return false
        }
        #expect(try await waitFor { (try? String(contentsOf: index, encoding: .utf8))?.contains("a3.html") == true })
        try await Task.sleep(nanoseconds: 300_000_000)
        try folder.write("src/Alpha/new.jpg", try Self.photo(77))
        #expect(try await waitFor { (try? String(contentsOf: index, encoding: .utf8))?.contains("new.html") == true })
        try FileManager.default.createDirectory(at: settings.source.appendingPathComponent("Gamma"), withIntermediateDirectories: true)
        try await Task.sleep(nanoseconds: 700_000_000)
        try folder.write("src/Gamma/g.jpg", try Self.photo(78))
        #expect(try await waitFor { FileManager.default.fileExists(atPath: settings.output.appendingPathComponent("albums/gamma/g.html").path) })
        #expect(process.isRunning)
    }
}
