import Foundation
import Synchronization
import Testing
import GalleryTestSupport
@testable import SiteOutput
import Video
@testable import GalleryCore
@testable import GalleryKit
@testable import Scanning

/// Faults of the machine and of the library, made on purpose: OUT full,
/// over quota, read-only or not writable (through the OUT owner's write
/// hook, and for real on a small tmpfs where the tests run as root); photos
/// changing, growing and vanishing while the build reads them.
@Suite(.serialized) struct FaultTests {
    /// OUT's files, bytes only (modification times differ between builds).
    static func site(_ output: URL) throws -> [String: Data] {
        try IncrementalTests.snapshot(output).mapValues(\.bytes)
    }

    /// The site a clean build of `settings.source` makes, in a folder of its own.
    static func cleanSite(_ settings: BuildSettings, in folder: TemporaryFolder) async throws -> [String: Data] {
        var clean = settings
        clean.output = folder.url.appendingPathComponent("clean-\(UInt32.random(in: 0...UInt32.max))")
        _ = try await GalleryBuilder().build(settings: clean, quiet: true)
        return try site(clean.output)
    }

    /// Each errno of a machine's fault, at the fourth media file: the build
    /// stops with that one error (naming the file and the errno), and the
    /// next build, the fault gone, gives exactly the clean site.
    @Test(arguments: [(ENOSPC, "ENOSPC"), (EDQUOT, "EDQUOT"), (EROFS, "EROFS"), (EACCES, "EACCES")])
    func aFaultOfOUTStopsTheBuildAndTheNextBuildHeals(code: Int32, name: String) async throws {
        let (folder, settings) = try IncrementalTests.library()
        let writes = Mutex(0)
        var stopped: OutputError?
        do {
            _ = try await GalleryBuilder().build(settings: settings, quiet: true, faults: WriteFaults { path in
                guard path.contains("/media/") else { return nil }
                return writes.withLock { count in
                    count += 1
                    return count > 3 ? code : nil
                }
            })
        } catch let error as OutputError {
            stopped = error
        }
        let error = try #require(stopped, "the build went on past \(name)")
        #expect(error.stopsTheBuild)
        #expect(error.description.contains("(\(name))"), "\(error)")
        #expect(error.description.contains(settings.output.path + "/media/"), "names the file: \(error)")
        #expect(!error.description.contains("\n"), "one line")
        // Nothing more was attempted than the photos already in flight.
        #expect(writes.withLock { $0 } <= 3 + 2 * 2, "writes after the fault: \(writes.withLock { $0 })")
        #expect(!FileManager.default.fileExists(atPath: BuildState.location(in: settings.stateFolder).path),
                "no state committed by a stopped build")

        let report = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(report.skipped.isEmpty && report.published == 6)
        #expect(try Self.site(settings.output) == (try await Self.cleanSite(settings, in: folder)))
    }

    /// The journal (written before any file) and the state (written last)
    /// are OUT's files like any other.
    @Test func aJournalOrStateThatCannotBeWrittenStopsTheBuild() async throws {
        for target in ["journal", "state.bin"] {
            let (folder, settings) = try IncrementalTests.library()
            var stopped: OutputError?
            do {
                _ = try await GalleryBuilder().build(settings: settings, quiet: true, faults: WriteFaults { path in
                    path.hasSuffix("/" + target) ? ENOSPC : nil
                })
            } catch let error as OutputError {
                stopped = error
            }
            let error = try #require(stopped, "\(target): the build did not stop")
            #expect(error.description.contains(".gallerygen/\(target)': No space left on device (ENOSPC)"), "\(error)")
            _ = try await GalleryBuilder().build(settings: settings, quiet: true)
            #expect(try Self.site(settings.output) == (try await Self.cleanSite(settings, in: folder)), "\(target)")
        }
    }

    /// Root can mount a small tmpfs: the real ENOSPC, EROFS, and the CLI's
    /// one line (no photo reported as skipped), then remounted larger the
    /// next build completes the site.
    static let canMount: Bool = {
        guard getuid() == 0 else { return false }
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("gallerygen-mount-probe-\(getpid())")
        try? FileManager.default.createDirectory(at: probe, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: probe) }
        guard mount("tmpfs", probe.path, "tmpfs", 0, "size=1m") == 0 else { return false }
        umount(probe.path)
        return true
    }()

    @Test(.enabled(if: canMount, "needs root and permission to mount a tmpfs (CI runs as root)"))
    func aFullFileSystemStopsTheBuildWithOneMessage() async throws {
        let folder = try TemporaryFolder()
        for i in 1...24 {
            try folder.write("src/Album \(i % 3)/p\(i).jpg", try IncrementalTests.photo(i, exif: IncrementalTests.exif("2024:03:\(10 + i % 9) 10:00:00")))
        }
        let source = folder.url.appendingPathComponent("src")
        let arguments = ["--thumbnail-size", "64x48", "--preview-size", "400x300", "--jobs", "2", "--format", "jpeg"]
        // How large the whole site is, to make a file system that holds half of it.
        let reference = folder.url.appendingPathComponent("reference")
        let first = try Self.runCapturing(["build", source.path, "--output", reference.path, "--quiet"] + arguments)
        #expect(first.status == 0)
        let bytes = try IncrementalTests.snapshot(reference).values.reduce(0) { $0 + $1.bytes.count }
        let mountPoint = folder.url.appendingPathComponent("small")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        let half = max(64 << 10, bytes / 2)
        #expect(mount("tmpfs", mountPoint.path, "tmpfs", 0, "size=\(half)") == 0)
        defer { umount(mountPoint.path) }
        let output = mountPoint.appendingPathComponent("site")

        let full = try Self.runCapturing(["build", source.path, "--output", output.path] + arguments)
        #expect(full.status != 0)
        let errorLines = full.standardError.split(separator: "\n").filter { $0.contains("error") || $0.contains("skipped") }
        #expect(errorLines.count == 1, "one line: \(errorLines)")
        #expect(errorLines.first?.contains("No space left on device (ENOSPC)") == true, "\(errorLines)")
        #expect(errorLines.first?.contains(output.path) == true)
        #expect(!full.standardError.contains("skipped"), "no photo blamed: \(full.standardError)")

        // Read-only: the same one line, with EROFS.
        #expect(mount("tmpfs", mountPoint.path, "tmpfs", UInt(MS_REMOUNT | MS_RDONLY), "size=\(half)") == 0)
        try FileManager.default.removeItem(at: source.appendingPathComponent("Album 1/p1.jpg"))  // something to do
        let readOnly = try Self.runCapturing(["build", source.path, "--output", output.path] + arguments)
        #expect(readOnly.status != 0)
        #expect(readOnly.standardError.contains("Read-only file system"), "\(readOnly.standardError)")
        #expect(!readOnly.standardError.contains("skipped"))

        // Room again: the next build completes the site exactly.
        #expect(mount("tmpfs", mountPoint.path, "tmpfs", UInt(MS_REMOUNT), "size=\(bytes * 4)") == 0)
        let healed = try Self.runCapturing(["build", source.path, "--output", output.path, "--quiet"] + arguments)
        #expect(healed.status == 0, "\(healed.standardError)")
        let clean = folder.url.appendingPathComponent("clean")
        _ = try Self.runCapturing(["build", source.path, "--output", clean.path, "--quiet"] + arguments)
        let a = try Self.site(clean), b = try Self.site(output)
        #expect(Set(a.keys) == Set(b.keys), "extra: \(Set(b.keys).subtracting(a.keys)), missing: \(Set(a.keys).subtracting(b.keys))")
        #expect(a == b)
        let leftovers = try FileManager.default.subpathsOfDirectory(atPath: output.path).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty, "temporary files left: \(leftovers)")
    }

    /// Runs gallerygen (or `executable`) with `environment` added; its exit
    /// status and standard error.
    static func runCapturing(_ arguments: [String], executable: URL = IncrementalTests.executable,
                             environment: [String: String] = [:]) throws -> (status: Int32, standardError: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        process.standardOutput = FileHandle.nullDevice
        let pipe = Pipe()
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    // MARK: Bounds on hostile files

    /// A TIFF (or DNG) whose first directory claims `width × height`.
    static func claimTIFFSize(_ file: [UInt8], width: UInt32, height: UInt32) -> [UInt8] {
        var bytes = file
        let ifd = Int(bytes[4]) | Int(bytes[5]) << 8 | Int(bytes[6]) << 16 | Int(bytes[7]) << 24
        let count = Int(bytes[ifd]) | Int(bytes[ifd + 1]) << 8
        for entry in 0..<count {
            let at = ifd + 2 + entry * 12
            let tag = Int(bytes[at]) | Int(bytes[at + 1]) << 8
            guard tag == 0x100 || tag == 0x101 else { continue }
            let value = tag == 0x100 ? width : height
            // LONG, one value, in place.
            bytes.replaceSubrange((at + 2)..<(at + 12), with: Fixtures.le16(4) + Fixtures.le32(1) + Fixtures.le32(value))
        }
        return bytes
    }

    /// A folder of hostile files of every camera format (HEIF claiming 200
    /// MP, a HEIF grid built from itself, TIFF and DNG claiming 10 and 3.6
    /// gigapixels, a cut and a garbage video) builds in bounded memory and
    /// time, each named with its reason, and the good photo is published.
    @Test func hostileFilesOfEveryFormatStayInBounds() async throws {
        let time = URL(fileURLWithPath: "/usr/bin/time")
        try #require(FileManager.default.isExecutableFile(atPath: time.path), "GNU time (scripts/deps.sh test)")
        let folder = try TemporaryFolder()
        let source = folder.url.appendingPathComponent("src")
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
        try folder.write("src/good.jpg", try IncrementalTests.photo(1))
        let heif = try CameraFixtures.heif(Fixtures.png(Fixtures.quadrants(width: 128, height: 96)), in: folder.url, name: "base.heic",
                                           arguments: ["--no-alpha"])
        try folder.write("src/huge.heic", try CameraFixtures.claimSize(try [UInt8](Data(contentsOf: heif)), width: 20_000, height: 10_000))
        try FileManager.default.copyItem(at: TestData.regressions.appendingPathComponent("heif-grid-built-from-itself.heic"),
                                         to: source.appendingPathComponent("self-grid.heic"))
        try folder.write("src/huge.tif", Self.claimTIFFSize(CameraFixtures.tiff(Fixtures.quadrants(width: 64, height: 48), layout: .rgb8),
                                                           width: 100_000, height: 100_000))
        try folder.write("src/giant.dng", Self.claimTIFFSize(CameraFixtures.dng(Fixtures.quadrants(width: 64, height: 48)),
                                                           width: 60_000, height: 60_000))
        let clip = folder.url.appendingPathComponent("clip.mp4")
        _ = try ToolRunner.run(try VideoProbeTests.tool("ffmpeg"), ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=320x240:r=25:d=2",
                                                                    "-c:v", "libx264", "-pix_fmt", "yuv420p", clip.path], timeLimit: 120)
        let clipBytes = try [UInt8](Data(contentsOf: clip))
        try folder.write("src/cut.mp4", Array(clipBytes.prefix(clipBytes.count / 3)))
        try folder.write("src/garbage.mp4", Array(clipBytes.prefix(64)) + (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) })

        let (status, text) = try Self.runCapturing(["-f", "__BOUNDS__ %e %M", IncrementalTests.executable.path, "build", source.path,
                                                    "--output", folder.url.appendingPathComponent("out").path, "--jobs", "2"],
                                                   executable: time)
        #expect(status == 0, "\(text)")
        let figures = try #require(text.split(separator: "\n").first { $0.hasPrefix("__BOUNDS__") }?.split(separator: " "))
        let seconds = Double(figures[1]) ?? .infinity, peakMB = (Double(figures[2]) ?? .infinity) / 1024
        #expect(seconds < 60, "\(seconds) s")
        #expect(peakMB < 300, "peak \(peakMB) MB")
        for name in ["huge.heic", "self-grid.heic", "huge.tif", "giant.dng", "cut.mp4", "garbage.mp4"] {
            #expect(text.contains("skipped \(name):"), "\(name) is named: \(text)")
        }
        #expect(text.contains("Built 1 photo"), "\(text)")
    }

    // MARK: Files changing under the build

    /// A file as the scan saw it.
    static func scanned(_ url: URL, in root: URL) throws -> SourceFile {
        var found: SourceFile?
        SourceScanner(root: root).walk { event in
            if case .media(let file) = event, file.url.lastPathComponent == url.lastPathComponent { found = file }
        }
        return try #require(found)
    }

    @Test func aFileReadSteadyIsOneVersionOfIt() throws {
        let folder = try TemporaryFolder()
        let first = try IncrementalTests.photo(1), second = try IncrementalTests.photo(2) + [0xFF, 0xD9]
        let url = try folder.write("src/a.jpg", first)
        let scan = try Self.scanned(url, in: folder.url.appendingPathComponent("src"))

        // Unchanged: the bytes, the scan's stamp.
        let (bytes, file) = try SourceFileReader.readSteady(scan)
        #expect(bytes == first && file.byteCount == scan.byteCount && file.modifiedNanoseconds == scan.modifiedNanoseconds)

        // Replaced after the scan (an editor's save through a temporary file
        // and rename): the new version, read twice to be sure it has settled,
        // with its own stamp for the cache.
        let temporary = folder.url.appendingPathComponent("src/.a.jpg.swp")
        try Data(second).write(to: temporary)
        #expect(rename(temporary.path, url.path) == 0)
        let (newBytes, newFile) = try SourceFileReader.readSteady(scan)
        #expect(newBytes == second && newFile.byteCount == Int64(second.count))

        // Removed: said so.
        try FileManager.default.removeItem(at: url)
        do {
            _ = try SourceFileReader.readSteady(scan)
            Issue.record("a removed file was read")
        } catch let error as SourceChangedError {
            #expect(error.removed && error.description == "it was removed while the build ran")
        }
    }

    /// A file still being copied (growing the whole time the build reads it)
    /// is not published half-read: skipped with the reason, nothing cached,
    /// and the next build (the copy done) publishes it whole.
    @Test func aPhotoStillBeingCopiedIsNotPublishedHalfRead() async throws {
        let (folder, settings) = try IncrementalTests.library()
        let whole = try IncrementalTests.photo(99, exif: IncrementalTests.exif("2024:01:09 10:00:00"))
        let url = try folder.write("src/Alpha/copying.jpg", Array(whole.prefix(200)))
        let copying = Atomic<Bool>(true)
        // The "copy": appends a byte at a time, then rewrites the start, in a loop.
        let writer = Thread {
            var length = 200
            while copying.load(ordering: .relaxed) {
                length = length >= whole.count ? 200 : length + 1
                try? Data(whole.prefix(length)).write(to: url)
                usleep(2_000)
            }
        }
        writer.start()
        let report = try await GalleryBuilder().build(settings: settings, quiet: true)
        copying.store(false, ordering: .relaxed)
        try await Task.sleep(nanoseconds: 50_000_000)
        let skipped = report.skipped.first { $0.path.hasSuffix("copying.jpg") }
        #expect(skipped?.reason.contains("changed while being read") == true, "\(report.skipped)")
        #expect(report.published == 6)
        // Every published file is whole (each JPEG ends with its end marker).
        for (path, data) in try Self.site(settings.output) where path.hasSuffix(".jpg") {
            #expect(data.suffix(2) == Data([0xFF, 0xD9]), "\(path) is cut short")
        }
        // The copy done: the next build publishes it, exactly as a clean build.
        try Data(whole).write(to: url)
        let next = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(next.skipped.isEmpty && next.published == 7)
        #expect(try Self.site(settings.output) == (try await Self.cleanSite(settings, in: folder)))
    }

    /// A folder removed while the walk is in it, photos removed or truncated
    /// between the scan and the read: no error for the removal, no wrong
    /// page, and the next build equals a clean one.
    @Test func filesAndFoldersVanishingMidBuild() async throws {
        let folder = try TemporaryFolder()
        for album in 0..<6 {
            for i in 0..<5 {
                try folder.write("src/A\(album)/p\(i).jpg", try IncrementalTests.photo(album * 10 + i,
                                                                                       exif: IncrementalTests.exif("2024:04:0\(1 + i) 1\(album):00:00")))
            }
        }
        let settings = BuildSettings(source: folder.url.appendingPathComponent("src"), output: folder.url.appendingPathComponent("out"),
                                     thumbnailBoxes: [PixelSize(width: 64, height: 48)], previewBoxes: [PixelSize(width: 128, height: 96)],
                                     jobs: 2)
        let vandal = Thread {
            usleep(5_000)
            for album in stride(from: 5, through: 1, by: -2) {
                try? FileManager.default.removeItem(at: settings.source.appendingPathComponent("A\(album)"))
                usleep(3_000)
            }
            // Truncated to nothing and cut in half.
            _ = truncate(settings.source.appendingPathComponent("A0/p4.jpg").path, 0)
            _ = truncate(settings.source.appendingPathComponent("A2/p3.jpg").path, 300)
        }
        vandal.start()
        let report = try await GalleryBuilder().build(settings: settings, quiet: true)
        try await Task.sleep(nanoseconds: 100_000_000)
        // Whatever was read is whole: no published JPEG is cut short.
        for (path, data) in try Self.site(settings.output) where path.hasSuffix(".jpg") {
            #expect(data.suffix(2) == Data([0xFF, 0xD9]), "\(path) is cut short")
        }
        for skipped in report.skipped {
            #expect(!skipped.reason.contains("No such file") && !skipped.reason.contains("removed"), "a removal is not a bad file: \(skipped)")
        }
        _ = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(try Self.site(settings.output) == (try await Self.cleanSite(settings, in: folder)))
    }
}

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
        var seed = 100
        func photo() throws -> [UInt8] {
            seed += 1
            return try IncrementalTests.photo(seed, exif: IncrementalTests.exif("2024:05:\(10 + seed % 19) 1\(seed % 10):00:00"))
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
