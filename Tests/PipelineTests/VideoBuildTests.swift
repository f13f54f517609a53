import SiteOutput
import Foundation
import Testing
import GalleryTestSupport
@testable import Video
@testable import GalleryCore
@testable import GalleryKit
@testable import Metadata

/// Videos, Live Photos and Motion Photos through the real pipeline: clips
/// made here with ffmpeg's test sources, pairs and Motion Photos assembled
/// in code, and the published files checked with ffprobe and exiftool.
@Suite(.serialized) struct VideoBuildTests {
    static func tool(_ name: String) throws -> URL {
        try #require(ToolRunner.locate(name), "\(name) is not installed: run `bash scripts/deps.sh test`")
    }

    /// Makes a clip of `seconds` at `size` with ffmpeg's `testsrc2`, plus `arguments` (codecs, tags).
    @discardableResult
    static func clip(_ url: URL, size: String = "320x240", seconds: Double = 2, audio: Bool = false, _ arguments: [String]) throws -> URL {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        var input = ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=\(size):r=25:d=\(seconds)"]
        if audio { input += ["-f", "lavfi", "-i", "sine=f=440:d=\(seconds)", "-c:a", "aac", "-shortest"] }
        _ = try ToolRunner.run(try tool("ffmpeg"), input + arguments + [url.path], timeLimit: 120)
        return url
    }

    static let h264 = ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"]
    static let hevc10 = ["-c:v", "libx265", "-pix_fmt", "yuv420p10le", "-x265-params", "log-level=error", "-tag:v", "hvc1"]

    static func photo(_ seed: Int) throws -> [UInt8] {
        var image = Fixtures.gradient(width: 160, height: 120)
        for i in stride(from: 0, to: image.pixels.count, by: 4) { image.pixels[i + 2] = UInt8(truncatingIfNeeded: seed * 71) }
        return try Fixtures.jpeg(image)
    }

    /// A Motion Photo: `still` with an XMP packet saying so (v1 MicroVideo or
    /// v2 Container directory) and `mp4` appended.
    static func motionPhoto(_ still: [UInt8], mp4: [UInt8], version: Int) -> [UInt8] {
        let description = version == 1
            ? "<rdf:Description xmlns:GCamera=\"http://ns.google.com/photos/1.0/camera/\" GCamera:MicroVideo=\"1\" GCamera:MicroVideoVersion=\"1\" GCamera:MicroVideoOffset=\"\(mp4.count)\"/>"
            : """
              <rdf:Description xmlns:Camera="http://ns.google.com/photos/1.0/camera/" xmlns:Container="http://ns.google.com/photos/1.0/container/" xmlns:Item="http://ns.google.com/photos/1.0/container/item/" Camera:MotionPhoto="1" Camera:MotionPhotoVersion="1"><Container:Directory><rdf:Seq><rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="image/jpeg" Item:Semantic="Primary" Item:Length="0" Item:Padding="0"/></rdf:li><rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="video/mp4" Item:Semantic="MotionPhoto" Item:Length="\(mp4.count)" Item:Padding="0"/></rdf:li></rdf:Seq></Container:Directory></rdf:Description>
              """
        let xmp = "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">\(description)</rdf:RDF></x:xmpmeta>"
        let payload = Array("http://ns.adobe.com/xap/1.0/\0".utf8) + Array(xmp.utf8)
        let segment: [UInt8] = [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        return Array(still[0..<2]) + segment + Array(still[2...]) + mp4
    }

    static func probe(_ url: URL) throws -> [String: Any] {
        let output = try ToolRunner.run(try tool("ffprobe"), ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", url.path],
                                        timeLimit: 30)
        return try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput)) as? [String: Any])
    }

    static func videoStream(_ url: URL) throws -> [String: Any] {
        let streams = try probe(url)["streams"] as? [[String: Any]] ?? []
        return try #require(streams.first { $0["codec_type"] as? String == "video" })
    }

    /// Every tag exiftool finds in a published file, group:name → value.
    static func exifTags(_ url: URL) throws -> [String: Any] {
        let output = try ToolRunner.run(try tool("exiftool"), ["-j", "-a", "-G1", "-n", url.path], timeLimit: 60)
        let list = try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput)) as? [[String: Any]])
        return list.first ?? [:]
    }

    /// A phone library: an iPhone clip (H.264+AAC, QuickTime date, place and
    /// device tags), a portrait HEVC 10-bit clip, VP9/WebM, an HLG clip, a
    /// Live Photo, a clip that only shares a name with a still, v1 and v2
    /// Motion Photos, garbage and a truncated clip.
    @Test func aPhoneLibraryBuildsWithEveryVideoPlayableAndClean() async throws {
        let folder = try TemporaryFolder()
        let source = folder.url.appendingPathComponent("src")
        let phone = source.appendingPathComponent("Phone")
        try Self.clip(phone.appendingPathComponent("IMG_0100.MOV"), audio: true, Self.h264 + [
            "-metadata", "com.apple.quicktime.creationdate=2024-07-15T00:30:05+0900",
            "-metadata", "com.apple.quicktime.location.ISO6709=+35.0116+135.7681+012.000/",
            "-metadata", "com.apple.quicktime.make=Apple", "-metadata", "com.apple.quicktime.model=iPhone 15",
            "-metadata", "creation_time=2024-07-14T15:30:05Z", "-movflags", "use_metadata_tags"])
        let portrait = try Self.clip(phone.appendingPathComponent("portrait.mov"), Self.hevc10)
        _ = try ToolRunner.run(try Self.tool("exiftool"), ["-q", "-overwrite_original", "-Rotation=90", portrait.path], timeLimit: 60)
        try Self.clip(phone.appendingPathComponent("screen.webm"), ["-c:v", "libvpx-vp9", "-b:v", "200k", "-deadline", "realtime"])
        try Self.clip(phone.appendingPathComponent("hdr.mp4"), seconds: 1, Self.hevc10 + [
            "-color_primaries", "bt2020", "-color_trc", "arib-std-b67", "-colorspace", "bt2020nc"])
        // A Live Photo, and a long clip that merely shares a still's name.
        try folder.write("src/Phone/IMG_0200.JPG", try Self.photo(1))
        try Self.clip(phone.appendingPathComponent("IMG_0200.MOV"), seconds: 1.5, Self.h264 + [
            "-metadata", "com.apple.quicktime.content.identifier=7A1C-LIVE", "-movflags", "use_metadata_tags"])
        try folder.write("src/Phone/DSC_0300.jpg", try Self.photo(2))
        try Self.clip(phone.appendingPathComponent("DSC_0300.mp4"), size: "64x48", seconds: 17, Self.h264)
        // Motion Photos, v1 and v2, whose clips carry a place of their own.
        let motionClip = try Self.clip(folder.url.appendingPathComponent("motion.mp4"), seconds: 1, Self.h264 + [
            "-metadata", "location=+48.8566+002.3522/", "-metadata", "creation_time=2024-07-16T10:00:00Z"])
        let mp4 = try [UInt8](Data(contentsOf: motionClip))
        try folder.write("src/Phone/MVIMG_0400.jpg", Self.motionPhoto(try Self.photo(3), mp4: mp4, version: 1))
        try folder.write("src/Phone/PXL_0500.MP.jpg", Self.motionPhoto(try Self.photo(4), mp4: mp4, version: 2))
        // Broken files.
        try folder.write("src/Phone/garbage.mp4", Array("not a video, whatever the name says".utf8))
        let whole = try [UInt8](Data(contentsOf: phone.appendingPathComponent("IMG_0100.MOV")))
        try folder.write("src/Phone/truncated.mov", Array(whole.prefix(whole.count / 3)))

        let output = folder.url.appendingPathComponent("out")
        var settings = BuildSettings(source: source, output: output)
        settings.thumbnailBoxes = [PixelSize(width: 120, height: 90)]
        settings.previewBoxes = [PixelSize(width: 320, height: 240), PixelSize(width: 640, height: 480)]
        settings.publishOriginals = true
        settings.jobs = 2
        let report = try await GalleryBuilder().build(settings: settings, quiet: true)

        let reasons = Dictionary(uniqueKeysWithValues: report.skipped.map { ($0.path, $0.reason) })
        #expect(reasons.count == 2, "\(reasons)")
        #expect(reasons["Phone/garbage.mp4"]?.contains("Invalid data") == true, "\(reasons)")
        #expect(reasons["Phone/truncated.mov"] != nil, "\(reasons)")
        // IMG_0100, portrait, screen, hdr, DSC_0300.mp4 (not a Live clip: 17 s) are videos;
        // IMG_0200 (Live), DSC_0300.jpg, MVIMG_0400, PXL_0500 are photos.
        #expect(report.videos == 5 && report.published == 9, "\(report.summary)")
        #expect(report.summary.contains("Built 4 photos and 5 videos"))

        let album = try String(contentsOf: output.appendingPathComponent("albums/phone/index.html"), encoding: .utf8)
        #expect(album.components(separatedBy: "data-live=\"true\"").count - 1 == 3, "the Live Photo and both Motion Photos")
        #expect(album.components(separatedBy: "badge-video").count - 1 == 5)
        #expect(!album.contains("IMG_0200.MOV"), "a Live Photo's clip is not an item of its own")
        #expect(album.contains("4 photos, 5 videos"))

        // Every playback file: H.264 High 8-bit 4:2:0, AAC or no audio, moov first, and no metadata.
        let media = output.appendingPathComponent("media")
        let files = FileManager.default.enumerator(atPath: media.path)?.compactMap { $0 as? String } ?? []
        let mp4s = files.filter { $0.hasSuffix(".mp4") }
        #expect(mp4s.count == 8, "5 videos + 3 motions: \(mp4s)")
        for path in mp4s {
            let url = media.appendingPathComponent(path)
            let video = try Self.videoStream(url)
            #expect(video["codec_name"] as? String == "h264" && video["pix_fmt"] as? String == "yuv420p", "\(path)")
            #expect(["High", "Constrained Baseline", "Main"].contains(video["profile"] as? String ?? ""), "\(path)")
            let bytes = try [UInt8](Data(contentsOf: url))
            let moov = bytes.indices.dropLast(4).first { bytes[$0] == 0x6D && bytes[$0 + 1] == 0x6F && bytes[$0 + 2] == 0x6F && bytes[$0 + 3] == 0x76 }
            let mdat = bytes.indices.dropLast(4).first { bytes[$0] == 0x6D && bytes[$0 + 1] == 0x64 && bytes[$0 + 2] == 0x61 && bytes[$0 + 3] == 0x74 }
            #expect(moov != nil && mdat != nil && moov! < mdat!, "+faststart: \(path)")
            let tags = try Self.exifTags(url)
            // The System group is the file system's (modification time, permissions), not the file's.
            for (key, value) in tags where !key.hasPrefix("System:") && !key.hasPrefix("ExifTool:") {
                let lower = key.lowercased()
                #expect(!lower.contains("gps") && !lower.contains("location") && !lower.contains("iso6709"), "\(path): \(key)")
                #expect(!lower.contains("make") && !lower.contains("model") && !lower.contains("identifier"), "\(path): \(key)")
                if lower.hasSuffix("date"), let text = value as? String { #expect(text.hasPrefix("0000"), "\(path): \(key) = \(text)") }
                if let text = value as? String { #expect(!text.contains("iPhone") && !text.contains("+35.0116"), "\(path): \(key)") }
            }
        }

        // Portrait stays portrait; HDR comes out SDR BT.709; the iPhone clip is a remux.
        let pages = output.appendingPathComponent("albums/phone")
        func player(_ page: String) throws -> (src: String, width: Int, height: Int) {
            let html = try String(contentsOf: pages.appendingPathComponent(page), encoding: .utf8)
            let tag = try #require(html.range(of: "<video class=\"photo-video\"[^>]*>", options: .regularExpression).map { String(html[$0]) },
                                   "\(page) has a player")
            #expect(tag.contains("controls") && tag.contains("playsinline") && tag.contains("preload=\"metadata\"") && tag.contains("poster=\""))
            func attribute(_ name: String) -> String? {
                tag.range(of: "\(name)=\"[^\"]*\"", options: .regularExpression).map { String(tag[$0].dropFirst(name.count + 2).dropLast()) }
            }
            return (attribute("src") ?? "", Int(attribute("width") ?? "") ?? 0, Int(attribute("height") ?? "") ?? 0)
        }
        let upright = try player("portrait.html")
        #expect(upright.width == 240 && upright.height == 320)
        let uprightStream = try Self.videoStream(pages.appendingPathComponent(upright.src))
        #expect(uprightStream["width"] as? Int == 240 && uprightStream["height"] as? Int == 320)
        let hdr = try Self.videoStream(pages.appendingPathComponent(try player("hdr.html").src))
        #expect(hdr["color_transfer"] as? String == "bt709", "\(hdr)")
        let iphone = try player("img-0100.html")
        let remuxed = try Self.probe(pages.appendingPathComponent(iphone.src))
        let sums = try [pages.appendingPathComponent(iphone.src), phone.appendingPathComponent("IMG_0100.MOV")].map { url in
            try ToolRunner.run(try Self.tool("ffmpeg"), ["-v", "error", "-i", url.path, "-map", "0:v", "-c", "copy", "-f", "md5", "-"],
                               timeLimit: 60).standardOutput
        }
        #expect(!sums[0].isEmpty && sums[0] == sums[1], "remuxed: the same coded video, not re-encoded")
        #expect(((remuxed["streams"] as? [[String: Any]]) ?? []).contains { $0["codec_name"] as? String == "aac" })

        // The iPhone clip's local day (00:30 on the 15th in Japan, the 14th in UTC).
        let moments = try String(contentsOf: output.appendingPathComponent("moments/index.html"), encoding: .utf8)
        #expect(moments.contains("datetime=\"2024-07-15\""))
        #expect(!moments.contains("datetime=\"2024-07-14\""))

        // The Motion Photos' published originals end where their clips began.
        for page in ["mvimg-0400.html", "pxl-0500-mp.html"] {
            let html = try String(contentsOf: pages.appendingPathComponent(page), encoding: .utf8)
            #expect(html.contains("class=\"live-motion\"") && html.contains("Motion Photo"), "\(page)")
            let download = try #require(html.range(of: "href=\"[^\"]*-original\\.jpg\"", options: .regularExpression).map { String(html[$0].dropFirst(6).dropLast()) })
            let bytes = try [UInt8](Data(contentsOf: pages.appendingPathComponent(download)))
            #expect(!String(decoding: bytes, as: UTF8.self).contains("ftyp"), "\(page): the original carries no clip")
            #expect(bytes.suffix(2) == [0xFF, 0xD9])
        }
    }

    /// A rebuild makes nothing, and a renamed clip reuses its files: no transcode twice.
    @Test func noOpAndRenameNeverTranscodeAgain() async throws {
        let folder = try TemporaryFolder()
        let source = folder.url.appendingPathComponent("src")
        try Self.clip(source.appendingPathComponent("a/clip.webm"), ["-c:v", "libvpx-vp9", "-b:v", "200k", "-deadline", "realtime"])
        try folder.write("src/a/IMG_1.JPG", try Self.photo(1))
        try Self.clip(source.appendingPathComponent("a/IMG_1.MOV"), seconds: 1, Self.h264)
        var settings = BuildSettings(source: source, output: folder.url.appendingPathComponent("out"))
        settings.thumbnailBoxes = [PixelSize(width: 120, height: 90)]
        settings.previewBoxes = [PixelSize(width: 320, height: 240)]
        let first = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(first.videos == 1 && first.published == 2 && first.skipped.isEmpty, "\(first.summary)")
        let again = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(again.renditionsMade == 0 && again.filesWritten.isEmpty, "\(again.summary) \(again.filesWritten)")
        try FileManager.default.createDirectory(at: source.appendingPathComponent("b"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: source.appendingPathComponent("a/clip.webm"), to: source.appendingPathComponent("b/renamed.webm"))
        let renamed = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(renamed.renditionsMade == 0 && renamed.videos == 1, "\(renamed.summary)")
        #expect(!renamed.filesWritten.contains { $0.hasSuffix(".mp4") })
        // A new quality is a new file name: that one is made.
        settings.videoQuality = 30
        let requality = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(requality.filesWritten.filter { $0.hasSuffix(".mp4") }.count == 2, "\(requality.filesWritten)")
    }

    /// Without ffmpeg, videos are skipped with the install hint, photos build,
    /// and a Live Photo is published as its still.
    @Test func withoutFFmpegVideosAreSkippedWithTheHint() async throws {
        let folder = try TemporaryFolder()
        let source = folder.url.appendingPathComponent("src")
        try Self.clip(source.appendingPathComponent("clip.mp4"), seconds: 1, Self.h264)
        try folder.write("src/IMG_1.JPG", try Self.photo(1))
        try Self.clip(source.appendingPathComponent("IMG_1.MOV"), seconds: 1, Self.h264)
        var settings = BuildSettings(source: source, output: folder.url.appendingPathComponent("out"))
        settings.ffmpeg = folder.url.appendingPathComponent("no/ffmpeg").path
        let report = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(report.published == 1 && report.videos == 0)
        #expect(report.skipped.map(\.path) == ["clip.mp4"])
        #expect(report.skipped.first?.reason.contains("ffmpeg is not installed") == true)
        #expect(report.skipped.first?.reason.contains("apt install ffmpeg") == true)
        let index = try String(contentsOf: folder.url.appendingPathComponent("out/index.html"), encoding: .utf8)
        #expect(index.contains("img-1.html") && !index.contains("data-live"))
    }

    /// Too long, a tool that crashes, a tool that fails half-way: named, and
    /// no half file under a real name.
    @Test func limitsAndToolFailuresAreNamedAndLeaveNoHalfFile() async throws {
        let folder = try TemporaryFolder()
        let source = folder.url.appendingPathComponent("src")
        try Self.clip(source.appendingPathComponent("long.mp4"), seconds: 3, Self.h264)
        var settings = BuildSettings(source: source, output: folder.url.appendingPathComponent("out"))
        settings.maxVideoSeconds = 2
        var report = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(report.skipped.first?.reason == "is 3 s long, over max_video_seconds (2 s)", "\(report.skipped)")

        // An "ffmpeg" that writes half a file and then crashes, beside the real ffprobe.
        let tools = folder.url.appendingPathComponent("tools")
        try FileManager.default.createDirectory(at: tools, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: tools.appendingPathComponent("ffprobe"), withDestinationURL: try Self.tool("ffprobe"))
        let script = """
            #!/bin/sh
            for last; do :; done
            case "$*" in *image2pipe*) exec \(try Self.tool("ffmpeg").path) "$@";; esac
            printf 'half a video' > "${last#file:}"
            kill -SEGV $$
            """
        let fake = try folder.write("tools/ffmpeg", Array(script.utf8))
        chmod(fake.path, 0o755)
        settings.maxVideoSeconds = 1800
        settings.ffmpeg = fake.path
        report = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(report.skipped.first?.reason == "ffmpeg crashed (signal 11)", "\(report.skipped)")
        let left = FileManager.default.enumerator(atPath: settings.output.path)?.compactMap { $0 as? String } ?? []
        #expect(!left.contains { $0.hasSuffix(".mp4") || $0.contains(".tmp-") }, "\(left)")
    }

    /// An iPhone still whose maker note carries Live Photo identifier `identifier`.
    static func appleStill(_ seed: Int, identifier: String) throws -> [UInt8] {
        let id = Array(identifier.utf8) + [0]
        var note = Array("Apple iOS\0".utf8) + [0, 1] + Array("MM".utf8) + [0, 1]
        note += [0, 0x11, 0, 2] + Fixtures.be32(UInt32(id.count)) + Fixtures.be32(UInt32(16 + 12 + 4)) + [0, 0, 0, 0] + id
        var tiff = CameraFixtures.TIFFBuilder()
        let exif = tiff.directory([0x927C: .bytes(note)])
        tiff.setFirstDirectory(tiff.directory([0x0110: .ascii("iPhone 15"), 0x8769: .longs([exif])]))
        var image = Fixtures.gradient(width: 160, height: 120)
        for i in stride(from: 0, to: image.pixels.count, by: 4) { image.pixels[i] = UInt8(truncatingIfNeeded: seed * 37) }
        return try Fixtures.jpeg(image, exif: tiff.bytes)
    }

    /// Same name is not enough when both files say whose they are: a clip
    /// with another Live Photo's identifier is a video of its own.
    @Test func liveIdentifiersDecideThePair() async throws {
        let folder = try TemporaryFolder()
        let source = folder.url.appendingPathComponent("src")
        try folder.write("src/IMG_0600.JPG", try Self.appleStill(1, identifier: "AAAA-1111"))
        try Self.clip(source.appendingPathComponent("IMG_0600.MOV"), seconds: 1, Self.h264 + [
            "-metadata", "com.apple.quicktime.content.identifier=BBBB-2222", "-movflags", "use_metadata_tags"])
        try folder.write("src/IMG_0700.JPG", try Self.appleStill(2, identifier: "CCCC-3333"))
        try Self.clip(source.appendingPathComponent("IMG_0700.MOV"), seconds: 1, Self.h264 + [
            "-metadata", "com.apple.quicktime.content.identifier=CCCC-3333", "-movflags", "use_metadata_tags"])
        var settings = BuildSettings(source: source, output: folder.url.appendingPathComponent("out"))
        settings.thumbnailBoxes = [PixelSize(width: 120, height: 90)]
        settings.previewBoxes = [PixelSize(width: 320, height: 240)]
        for round in 0..<2 {
            let report = try await GalleryBuilder().build(settings: settings, quiet: true)
            #expect(report.published == 3 && report.videos == 1 && report.skipped.isEmpty, "round \(round): \(report.summary)")
            let index = try String(contentsOf: folder.url.appendingPathComponent("out/index.html"), encoding: .utf8)
            let items = index.components(separatedBy: "<li style=").dropFirst()
            func item(_ page: String) -> String? { items.first { $0.contains("href=\"albums/\(page)\"") } }
            #expect(item("img-0600.html")?.contains("data-live") == false && item("img-0600-2.html")?.contains("badge-video") == true,
                    "round \(round): \(items.count)")
            #expect(item("img-0700.html")?.contains("data-live=\"true\"") == true && items.count == 3, "round \(round)")
            if round == 1 { #expect(report.renditionsMade == 0, "the cached decision holds") }
        }
    }

    /// gallerygen killed (SIGKILL) while ffmpeg writes: no half file under a
    /// real name, and the next build clears the temporary one and finishes.
    @Test func aBuildKilledMidTranscodeLeavesNoHalfFile() async throws {
        let folder = try TemporaryFolder()
        let source = folder.url.appendingPathComponent("src")
        try Self.clip(source.appendingPathComponent("clip.webm"), ["-c:v", "libvpx-vp9", "-b:v", "200k", "-deadline", "realtime"])
        let marker = folder.url.appendingPathComponent("transcoding")
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("tools"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: folder.url.appendingPathComponent("tools/ffprobe"), withDestinationURL: try Self.tool("ffprobe"))
        let script = """
            #!/bin/sh
            for last; do :; done
            case "$*" in *image2pipe*) exec \(try Self.tool("ffmpeg").path) "$@";; esac
            printf 'the first half of a video' > "${last#file:}"
            touch \(marker.path)
            sleep 3
            exit 1
            """
        let fake = try folder.write("tools/ffmpeg", Array(script.utf8))
        chmod(fake.path, 0o755)
        let config = try folder.write("gallery.yml", Array("ffmpeg: \(fake.path)\n".utf8))
        let out = folder.url.appendingPathComponent("out")
        let process = Process()
        process.executableURL = GallerygenBinary.url
        process.arguments = ["build", source.path, "-o", out.path, "--config", config.path, "--quiet"]
        process.standardError = FileHandle.nullDevice
        try process.run()
        for _ in 0..<400 where !FileManager.default.fileExists(atPath: marker.path) { try await Task.sleep(nanoseconds: 25_000_000) }
        #expect(FileManager.default.fileExists(atPath: marker.path), "the transcode started")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        func files() -> [String] { FileManager.default.enumerator(atPath: out.path)?.compactMap { $0 as? String } ?? [] }
        #expect(!files().contains { $0.hasSuffix(".mp4") }, "no half file under a real name: \(files())")
        #expect(files().contains { $0.contains(".mp4.tmp-") }, "the temporary file is what was left")

        let report = try await GalleryBuilder().build(settings: BuildSettings(source: source, output: out), quiet: true)
        #expect(report.videos == 1 && report.skipped.isEmpty, "\(report.summary)")
        #expect(files().filter { $0.hasSuffix(".mp4") }.count == 1)
        #expect(!files().contains { $0.contains(".tmp-") }, "\(files())")
    }

    /// A Samsung HEIC Motion Photo (the MP4 in a top-level `mpvd` box) is a
    /// still with motion; its published original is a JPEG without the clip.
    @Test func samsungHEICMotionPhotoPlays() async throws {
        let folder = try TemporaryFolder()
        let source = folder.url.appendingPathComponent("src")
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
        let heic = try CameraFixtures.heif(Fixtures.png(Fixtures.quadrants(width: 128, height: 96)), in: folder.url, name: "still.heic",
                                           arguments: ["--no-alpha"])
        let clip = try Self.clip(folder.url.appendingPathComponent("motion.mp4"), seconds: 1, Self.h264)
        let mp4 = try [UInt8](Data(contentsOf: clip))
        let file = try [UInt8](Data(contentsOf: heic)) + Fixtures.be32(UInt32(8 + mp4.count)) + Array("mpvd".utf8) + mp4
        try folder.write("src/20240716_101500.heic", file)
        var settings = BuildSettings(source: source, output: folder.url.appendingPathComponent("out"))
        settings.publishOriginals = true
        let report = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(report.published == 1 && report.skipped.isEmpty, "\(report.summary)")
        let page = try String(contentsOf: folder.url.appendingPathComponent("out/albums/20240716-101500.html"), encoding: .utf8)
        #expect(page.contains("class=\"live-motion\"") && page.contains("Motion Photo"))
        let mp4s = FileManager.default.enumerator(atPath: settings.output.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".mp4") }
        #expect(mp4s?.count == 1)
    }

    @Test func motionPhotoClipsAreFoundOnlyWhereAnMP4Starts() throws {
        let mp4: [UInt8] = [0, 0, 0, 16] + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array(repeating: 7, count: 100)
        let still = try Self.photo(9)
        for version in [1, 2] {
            let file = Self.motionPhoto(still, mp4: mp4, version: version)
            let range = try file.withUnsafeBytes { MotionPhoto.clipRange(in: $0, format: .jpeg, xmp: try JPEGStructure($0).xmp) }
            #expect(range == (file.count - mp4.count)..<file.count, "v\(version)")
        }
        // An XMP that claims a clip where none starts is not believed.
        let lying = Self.motionPhoto(still, mp4: Array(repeating: 1, count: 116), version: 1)
        #expect(try lying.withUnsafeBytes { MotionPhoto.clipRange(in: $0, format: .jpeg, xmp: try JPEGStructure($0).xmp) } == nil)
        // Numbers near Int.max in the directory are refused, not summed into a trap.
        let huge = Self.motionPhoto(still, mp4: mp4, version: 2).withUnsafeBytes { Array($0) }
        let text = String(decoding: huge, as: UTF8.self)
            .replacingOccurrences(of: "Item:Padding=\"0\"/></rdf:li></rdf:Seq>", with: "Item:Padding=\"9223372036854775807\"/></rdf:li></rdf:Seq>")
        #expect(MotionPhoto.lengthsFromEnd(text).allSatisfy { $0 > 0 && $0 <= Int(Int32.max) * 2 })
        #expect(MotionPhoto.lengthsFromEnd("Camera:MotionPhoto=\"1\" <Container:Item Item:Semantic=\"MotionPhoto\" Item:Length=\"9223372036854775807\" Item:Padding=\"9\"/>").isEmpty)
        // A Samsung HEIC's mpvd box.
        let fileType: [UInt8] = [0, 0, 0, 16] + Array("ftypheic".utf8) + [0, 0, 0, 0]
        let samsung = fileType + Fixtures.be32(UInt32(8 + mp4.count)) + Array("mpvd".utf8) + mp4
        #expect(samsung.withUnsafeBytes { MotionPhoto.clipRange(in: $0, format: .heif) } == 24..<samsung.count)
    }
}
