import Foundation
import Synchronization
import Testing
import GalleryTestSupport
@testable import SiteOutput
import Video
@testable import GalleryCore
@testable import GalleryKit
@testable import Scanning

/// A folder moved out of SOURCE is no longer watched once the watches are
/// mended (each rebuild does): changes there start no build.
@Test func aFolderMovedOutOfSourceIsNoLongerWatched() throws {
    let folder = try TemporaryFolder()
    _ = try folder.write("src/Away/a.jpg", try IncrementalTests.photo(1))
    let watcher = try SourceWatcher(root: folder.url.appendingPathComponent("src"))
    #expect(rename(folder.url.appendingPathComponent("src/Away").path, folder.url.appendingPathComponent("elsewhere").path) == 0)
    #expect(watcher.waitForChanges(debounce: 0.1, giveUpAfter: 2) > 0, "the move itself is a change")
    watcher.resync()
    _ = try folder.write("elsewhere/b.jpg", try IncrementalTests.photo(2))
    #expect(watcher.waitForChanges(debounce: 0.1, giveUpAfter: 0.5) == 0, "a change outside SOURCE")
    _ = try folder.write("src/c.jpg", try IncrementalTests.photo(3))
    #expect(watcher.waitForChanges(debounce: 0.1, giveUpAfter: 2) > 0, "a change inside SOURCE")
}

/// `--watch` while hundreds of files are copied in, renamed and removed, a
/// folder is moved in whole, a folder is renamed and filled, and an editor
/// saves through a temporary file and `rename`: it settles on exactly the
/// site a clean build gives, does not rebuild in a loop once SOURCE is
/// quiet, and stops on SIGTERM (and SIGINT) with one line.
@Suite(.serialized) struct WatchChurnTests {
    /// Every state committed from the previous one's file is checked against the state encoded whole.
    init() { BuildState.checkCommitsFromBase() }

    /// A running `gallerygen build --watch`, its standard error in a file.
    final class Watcher {
        let process = Process()
        let log: URL

        init(source: URL, output: URL, log: URL, extra: [String] = []) throws {
            self.log = log
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            process.executableURL = IncrementalTests.executable
            process.arguments = ["build", source.path, "--output", output.path, "--watch",
                                 "--thumbnail-size", "64x48", "--preview-size", "128x96"] + extra
            process.standardOutput = FileHandle.nullDevice
            process.standardError = try FileHandle(forWritingTo: log)
            try process.run()
        }

        deinit {
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
        }

        /// The log so far (it grows while read: see `Fixtures.contents`).
        var text: String { String(decoding: Fixtures.contents(of: log), as: UTF8.self) }
        /// Builds finished: each is followed by the "Watching" line.
        var builds: Int { text.components(separatedBy: "for changes…").count - 1 }

        /// Waits until `condition` holds (at most `seconds`).
        func wait(seconds: Double, _ condition: () -> Bool) async throws -> Bool {
            let end = Date().addingTimeInterval(seconds)
            while Date() < end {
                if condition() { return true }
                try await Task.sleep(nanoseconds: 50_000_000)
            }
            return condition()
        }

        /// Waits until no build has finished for `quiet` seconds, with at
        /// least `after` builds done.
        func settle(after: Int, quiet: Double, limit: Double) async throws -> Bool {
            let end = Date().addingTimeInterval(limit)
            var count = builds, since = Date()
            while Date() < end {
                try await Task.sleep(nanoseconds: 100_000_000)
                if builds != count {
                    count = builds
                    since = Date()
                } else if count >= after, Date().timeIntervalSince(since) >= quiet, text.hasSuffix("for changes…\n") {
                    return true
                }
            }
            return false
        }

        /// Sends `signal` and waits for the exit: its status.
        func stop(_ signal: Int32) async throws -> Int32? {
            kill(process.processIdentifier, signal)
            guard try await wait(seconds: 10, { !process.isRunning }) else { return nil }
            return process.terminationStatus
        }
    }

    @Test func watchSettlesOnTheCleanSiteAfterChurnAndStopsOnSignals() async throws {
        let (folder, settings) = try IncrementalTests.library()
        let source = settings.source
        let watcher = try Watcher(source: source, output: settings.output, log: folder.url.appendingPathComponent("watch.log"))
        #expect(try await watcher.wait(seconds: 60) { watcher.builds == 1 }, "first build: \(watcher.text)")
        // Every photo of the churn made before it starts: making one (a scene,
        // encoded) is slow under AddressSanitizer, and a churn paced by it
        // spread over more rebuilds than the bound below allows.
        var made = try (101...400).map { seed in
            try IncrementalTests.photo(seed, exif: IncrementalTests.exif("2024:05:\(10 + seed % 19) 1\(seed % 10):00:00"))
        }.makeIterator()
        func photo() throws -> [UInt8] {
            guard let next = made.next() else { throw CocoaError(.fileNoSuchFile) }
            return next
        }
        let fm = FileManager.default
        // 1. 150 photos copied in, three folders.
        for i in 0..<150 {
            try folder.write("src/Churn/c\(i % 3)/p\(i).jpg", try photo())
            if i % 25 == 0 { usleep(2_000) }
        }
        // A pause long enough for a rebuild to start while the churn goes on.
        try await Task.sleep(nanoseconds: 800_000_000)
        // 2. Renamed: within a folder and across folders.
        for i in stride(from: 0, to: 60, by: 2) {
            let from = source.appendingPathComponent("Churn/c\(i % 3)/p\(i).jpg")
            let to = source.appendingPathComponent("Churn/c\((i + 1) % 3)/renamed-\(i).jpg")
            #expect(rename(from.path, to.path) == 0)
        }
        // 3. Removed.
        for i in stride(from: 61, to: 121, by: 2) { try fm.removeItem(at: source.appendingPathComponent("Churn/c\(i % 3)/p\(i).jpg")) }
        // 4. A folder moved in whole, with a folder inside.
        for i in 0..<20 { try folder.write("staging/Moved/m\(i).jpg", try photo()) }
        for i in 0..<5 { try folder.write("staging/Moved/Inner/n\(i).jpg", try photo()) }
        #expect(rename(folder.url.appendingPathComponent("staging/Moved").path, source.appendingPathComponent("Moved").path) == 0)
        // 5. An editor's save: a temporary file renamed over the photo.
        for i in 1...3 {
            let target = source.appendingPathComponent("Alpha/a\(i).jpg")
            let temporary = source.appendingPathComponent("Alpha/.a\(i).jpg.swp")
            try Data(try photo()).write(to: temporary)
            #expect(rename(temporary.path, target.path) == 0)
        }
        // 6. A folder renamed, then a folder made in it and filled.
        try await Task.sleep(nanoseconds: 600_000_000)
        #expect(rename(source.appendingPathComponent("Churn/c2").path, source.appendingPathComponent("Churn/c2-renamed").path) == 0)
        try await Task.sleep(nanoseconds: 1_500_000_000)  // a rebuild, which mends the watches
        let beforeLate = watcher.builds
        try fm.createDirectory(at: source.appendingPathComponent("Churn/c2-renamed/late"), withIntermediateDirectories: true)
        // The folder alone is a change; its photos come after that rebuild,
        // seen only if the folder itself is watched.
        #expect(try await watcher.wait(seconds: 30) { watcher.builds > beforeLate })
        for i in 0..<4 { try folder.write("src/Churn/c2-renamed/late/l\(i).jpg", try photo()) }
        let buildsAtEnd = watcher.builds

        #expect(try await watcher.settle(after: buildsAtEnd + 1, quiet: 3, limit: 120), "did not settle: \(watcher.text)")
        let clean = try await FaultTests.cleanSite(settings, in: folder)
        let watched = try FaultTests.site(settings.output)
        #expect(Set(clean.keys) == Set(watched.keys),
                "extra: \(Set(watched.keys).subtracting(clean.keys).sorted().prefix(5)), missing: \(Set(clean.keys).subtracting(watched.keys).sorted().prefix(5))")
        #expect(clean == watched)
        #expect(watched.keys.contains { $0.contains("l3.html") }, "the photos of a folder made in a renamed folder are published")
        // Quiet SOURCE, no rebuilds: not a loop.
        let settled = watcher.builds
        try await Task.sleep(nanoseconds: 3_000_000_000)
        #expect(watcher.builds == settled, "rebuilt \(watcher.builds - settled) times with nothing changed")
        #expect(settled - 1 <= 12, "\(settled - 1) rebuilds for the churn")
        #expect(!watcher.text.contains("skipped"), "\(watcher.text)")

        // SIGTERM: one line, status 128 + 15, nothing half-written left.
        let status = try await watcher.stop(SIGTERM)
        #expect(status == 143)
        #expect(watcher.text.contains("gallerygen: stopped (terminated)"))
        let leftovers = try fm.subpathsOfDirectory(atPath: settings.output.path).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty)

        // SIGINT (Ctrl-C) while a build runs: stopped, and the next build completes the site.
        for i in 0..<40 { try folder.write("src/Late/q\(i).jpg", try photo()) }
        let second = try Watcher(source: source, output: settings.output, log: folder.url.appendingPathComponent("watch2.log"),
                                 extra: ["--jobs", "1"])
        // Once its build has found the photos (it is running, its signal
        // handlers in place: under AddressSanitizer start-up is slow; a
        // journal left by the watcher stopped above tells nothing).
        var waited = 0
        while !second.text.contains("Found "), waited < 800 {
            try await Task.sleep(nanoseconds: 25_000_000)
            waited += 1
        }
        let interrupted = try await second.stop(SIGINT)
        #expect(interrupted == 130, "status \(interrupted): \(second.text)")
        #expect(second.text.contains("gallerygen: stopped (interrupted)"), "\(second.text)")
        _ = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(try FaultTests.site(settings.output) == (try await FaultTests.cleanSite(settings, in: folder)))
    }
}

/// A burst ends sooner once every file written is closed than while one is
/// still open (a copy that pauses mid-file must not start a build too soon).
@Test func aWriteStillOpenIsWaitedForLongerThanAClosedOne() throws {
    let folder = try TemporaryFolder()
    let source = folder.url.appendingPathComponent("src")
    try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
    let watcher = try SourceWatcher(root: source)
    _ = try folder.write("src/closed.jpg", try IncrementalTests.photo(1))
    var started = Date()
    #expect(watcher.waitForChanges(debounce: 3, settle: 0.05, giveUpAfter: 5) > 0)
    #expect(Date().timeIntervalSince(started) < 2.5, "a closed file settles after `settle`, not `debounce`")

    let path = source.appendingPathComponent("open.jpg").path
    let descriptor = open(path, O_CREAT | O_WRONLY, 0o644)
    #expect(descriptor >= 0)
    #expect(write(descriptor, "half", 4) == 4)
    started = Date()
    #expect(watcher.waitForChanges(debounce: 1, settle: 0.05, giveUpAfter: 5) > 0)
    #expect(Date().timeIntervalSince(started) >= 0.95, "an open file is waited for `debounce`")

    // Closed after that wait: the close is a change, settled briefly.
    #expect(write(descriptor, "rest", 4) == 4)
    #expect(close(descriptor) == 0)
    started = Date()
    #expect(watcher.waitForChanges(debounce: 3, settle: 0.05, giveUpAfter: 5) > 0)
    #expect(Date().timeIntervalSince(started) < 2.5)
}

/// A build session (what `--watch` runs) reads the state the last build
/// committed while it waits. The next build takes it only if the file is
/// still the one read, and every build's site is the clean build's.
@Test func aSessionTakesTheStateReadAheadOnlyWhileItsFileIsUnchanged() async throws {
    let (folder, settings) = try IncrementalTests.library()
    _ = try await GalleryBuilder().build(settings: settings, quiet: true)
    let read = OutputFolder.readState(in: settings.stateFolder)
    #expect(read == (try BuildState.decode(try Data(contentsOf: BuildState.location(in: settings.stateFolder)))))
    #expect(!read.photos.isEmpty)
    var marked = read
    marked.siteInputs = StableHash.Digest(high: 1, low: 2)
    do {
        let output = try OutputFolder.open(settings.output, source: settings.source, state: settings.stateFolder)
        #expect(output.loadState(preloaded: marked).siteInputs == marked.siteInputs, "the file read is still there: taken")
        output.commitUnchanged()
    }

    // Another build commits a new state: what was read ahead is stale.
    _ = try folder.write("src/Alpha/new.jpg", try IncrementalTests.photo(40))
    _ = try await GalleryBuilder().build(settings: settings, quiet: true)
    do {
        let output = try OutputFolder.open(settings.output, source: settings.source, state: settings.stateFolder)
        let loaded = output.loadState(preloaded: marked)
        #expect(loaded.siteInputs != marked.siteInputs, "the file was replaced: read again")
        #expect(loaded == OutputFolder.readState(in: settings.stateFolder))
        #expect(loaded.photos.count == read.photos.count + 1)
        output.commitUnchanged()
    }

    // Builds in one session, each after an edit, against clean builds.
    let resolved = ResolvedBuild(settings: settings, theme: try BuildConfiguration.loadTheme(settings.values))
    let session = BuildSession()
    _ = try await GalleryBuilder().build(resolved, quiet: true, session: session)
    let edits: [() throws -> Void] = [
        { _ = try folder.write("src/Beta/b9.jpg", try IncrementalTests.photo(41)) },
        { try FileManager.default.removeItem(at: settings.source.appendingPathComponent("Alpha/a1.jpg")) },
        { _ = try folder.write("src/Alpha/a2.txt", Array("Words for a2".utf8)) },
        {},
    ]
    for edit in edits {
        try edit()
        let report = try await GalleryBuilder().build(resolved, quiet: true, session: session)
        #expect(report.skipped.isEmpty)
        #expect(try FaultTests.site(settings.output) == (try await FaultTests.cleanSite(settings, in: folder)))
    }
}
