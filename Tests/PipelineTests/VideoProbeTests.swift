import Foundation
import Testing
import GalleryTestSupport
@testable import Video
@testable import GalleryCore

/// ffprobe through the one runner: facts, dates, rotation, and every way a
/// program can fail, named.
@Suite struct VideoProbeTests {
    static func tool(_ name: String) throws -> URL {
        try #require(ToolRunner.locate(name), "\(name) is not installed: run `bash scripts/deps.sh test`")
    }

    /// Makes a clip with ffmpeg's test sources.
    static func clip(_ folder: TemporaryFolder, _ name: String, _ arguments: [String]) throws -> URL {
        let url = folder.url.appendingPathComponent(name)
        _ = try ToolRunner.run(try tool("ffmpeg"), ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=320x240:r=25:d=2"]
                               + arguments + [url.path], timeLimit: 120)
        return url
    }

    @Test func iPhoneStyleClipHasItsLocalDayAndAudio() throws {
        let folder = try TemporaryFolder()
        let url = try Self.clip(folder, "IMG_0001.MOV", ["-f", "lavfi", "-i", "sine=d=2", "-c:v", "libx264", "-pix_fmt", "yuv420p",
                                                          "-c:a", "aac", "-metadata", "com.apple.quicktime.creationdate=2024-07-15T00:30:05+0900",
                                                          "-metadata", "creation_time=2024-07-14T15:30:05Z", "-movflags", "use_metadata_tags"])
        let facts = try #require(try VideoProbe.probe(url, ffprobe: try Self.tool("ffprobe"), modificationDate: Date()))
        #expect(facts.videoCodec == "h264" && facts.audioCodec == "aac")
        #expect(facts.storedSize == PixelSize(width: 320, height: 240) && facts.rotation == 0)
        #expect(abs(facts.duration - 2) < 0.2)
        #expect(facts.bitDepth == 8 && facts.pixelFormat == "yuv420p")
        let date = try #require(facts.captureDate)
        #expect(date.utcOffsetSeconds == 9 * 3600, "the QuickTime date (local + offset) wins over UTC creation_time")
        #expect(date.localDay == LocalDay(year: 2024, month: 7, day: 15))
    }

    /// A phone's portrait HEVC 10-bit clip: stored landscape, rotated by the display matrix.
    @Test func portraitHEVCTenBitIsReadAsPortrait() throws {
        let folder = try TemporaryFolder()
        let url = try Self.clip(folder, "portrait.mov", ["-c:v", "libx265", "-pix_fmt", "yuv420p10le", "-x265-params", "log-level=error"])
        _ = try ToolRunner.run(try Self.tool("exiftool"), ["-q", "-overwrite_original", "-Rotation=90", url.path], timeLimit: 60)
        let facts = try #require(try VideoProbe.probe(url, ffprobe: try Self.tool("ffprobe"), modificationDate: Date()))
        #expect(facts.videoCodec == "hevc")
        #expect(facts.bitDepth == 10)
        #expect(facts.rotation == 90)
        #expect(facts.displaySize == PixelSize(width: 240, height: 320))
        #expect(facts.audioCodec == nil)
        #expect(facts.captureDate == nil)
    }

    /// A container time in UTC says nothing of the local day: placed like a file time.
    @Test func utcCreationTimeIsPlacedLikeAFileTime() throws {
        let folder = try TemporaryFolder()
        let url = try Self.clip(folder, "clip.webm", ["-c:v", "libvpx-vp9", "-b:v", "200k", "-metadata", "creation_time=2024-07-14T15:30:05Z"])
        let facts = try #require(try VideoProbe.probe(url, ffprobe: try Self.tool("ffprobe"), modificationDate: Date()))
        #expect(facts.videoCodec == "vp9")
        let date = try #require(facts.captureDate)
        #expect(date.instant == Date(timeIntervalSince1970: 1_720_971_005))
    }

    @Test func garbageIsNamedWithFFprobesReason() throws {
        let folder = try TemporaryFolder()
        let url = try folder.write("broken.mp4", Array("this is not a video at all".utf8))
        #expect {
            _ = try VideoProbe.probe(url, ffprobe: try Self.tool("ffprobe"), modificationDate: Date())
        } throws: { error in
            guard case ExternalToolError.failed(let tool, _, let message) = error else { return false }
            return tool == "ffprobe" && message.contains("Invalid data")
        }
    }

    @Test func aHangingToolIsStoppedAtItsLimit() throws {
        let start = Date()
        #expect(throws: ExternalToolError.timedOut(tool: "sleep", seconds: 0.3)) {
            _ = try ToolRunner.run(URL(fileURLWithPath: "/bin/sleep"), ["30"], timeLimit: 0.3)
        }
        #expect(Date().timeIntervalSince(start) < 5)
    }

    /// A program that wants more memory than its limit fails, named like a
    /// bad file, instead of taking the machine's memory; the limit is the
    /// program's own (the shell that sets it is replaced by it).
    @Test func aToolIsHeldToItsMemoryLimit() throws {
        let python = try #require(ToolRunner.locate("python3"))
        let allocate = ["-c", "import os; b = bytearray(300 << 20); print(os.getpid(), len(b))"]
        #expect(throws: ExternalToolError.self) {
            _ = try ToolRunner.run(python, allocate, timeLimit: 30, memoryLimit: 100 << 20)
        }
        do {
            _ = try ToolRunner.run(python, allocate, timeLimit: 30, memoryLimit: 100 << 20)
        } catch {
            #expect("\(error)".contains("MemoryError"), "\(error)")
        }
        let output = try ToolRunner.run(python, allocate, timeLimit: 30)
        #expect(String(decoding: output.standardOutput, as: UTF8.self).hasSuffix(" \(300 << 20)\n"), "within the default limit")
        // The time limit still stops the program itself, not only the shell.
        let start = Date()
        #expect(throws: ExternalToolError.timedOut(tool: "sleep", seconds: 0.3)) {
            _ = try ToolRunner.run(URL(fileURLWithPath: "/bin/sleep"), ["30"], timeLimit: 0.3, memoryLimit: 64 << 20)
        }
        #expect(Date().timeIntervalSince(start) < 5)
    }

    @Test func missingToolsAreFoundMissing() {
        #expect(ToolRunner.locate("gallerygen-no-such-tool") == nil)
        #expect(ToolRunner.locate("ffprobe", configured: "/nonexistent/ffprobe") == nil)
        #expect(ExternalToolError.missing(tool: "ffmpeg", hint: "apt install ffmpeg").description.contains("not installed"))
    }

    @Test func quickTimeDatesParse() throws {
        let a = try #require(CaptureDate(iso8601: "2024-07-15T00:30:05+0900", source: .original))
        #expect(a.utcOffsetSeconds == 32_400 && a.localDay == LocalDay(year: 2024, month: 7, day: 15))
        let b = try #require(CaptureDate(iso8601: "2024-07-15T00:30:05-04:30", source: .original))
        #expect(b.utcOffsetSeconds == -16_200)
        let c = try #require(CaptureDate(iso8601: "2024-07-14T15:30:05.000000Z", source: .original))
        #expect(c.utcOffsetSeconds == 0 && c.instant == a.instant)
        #expect(CaptureDate(iso8601: "2024-07-15T00:30:05", source: .original) == nil)
        #expect(CaptureDate(iso8601: "garbage garbage garbage", source: .original) == nil)
    }
}
