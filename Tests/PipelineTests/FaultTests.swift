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
    /// Every state committed from the previous one's file is checked against the state encoded whole.
    init() { BuildState.checkCommitsFromBase() }

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
