import SiteOutput
import Foundation
import Testing
import GalleryTestSupport
@testable import Video
@testable import GalleryCore
@testable import GalleryKit
@testable import Metadata

/// The small decisions around videos: the Live Photo identifier in Apple's
/// maker note, playback sizes, the progress lines of an encode.
@Suite struct VideoDetailTests {
    @Test func appleMakerNoteGivesTheLivePhotoIdentifier() {
        let identifier = Array("5A6B-7C8D-LIVE".utf8) + [0]
        var note = Array("Apple iOS\0".utf8) + [0, 1] + Array("MM".utf8)
        note += [0, 2]  // two entries
        note += [0, 1, 0, 9] + [0, 0, 0, 4] + [0, 0, 0, 0]  // tag 1 (SLONG): not it
        note += [0, 0x11, 0, 2] + Fixtures.be32(UInt32(identifier.count)) + Fixtures.be32(UInt32(16 + 2 * 12 + 4))
        note += [0, 0, 0, 0] + identifier
        #expect(note.withUnsafeBytes { ExifReader.appleNoteText($0, tag: 0x11) } == "5A6B-7C8D-LIVE")
        #expect(note.withUnsafeBytes { ExifReader.appleNoteText($0, tag: 0x0B) } == nil)
        #expect(Array("Nikon\0".utf8).withUnsafeBytes { ExifReader.appleNoteText($0, tag: 0x11) } == nil)
    }

    @Test func playbackSizesTurnWithTheClipAndStayEven() {
        let box = PixelSize(width: 1920, height: 1080)
        #expect(PixelSize(width: 1080, height: 1920).fittingVideo(in: box) == PixelSize(width: 1080, height: 1920))
        #expect(PixelSize(width: 3840, height: 2160).fittingVideo(in: box) == PixelSize(width: 1920, height: 1080))
        #expect(PixelSize(width: 2160, height: 3840).fittingVideo(in: box) == PixelSize(width: 1080, height: 1920))
        #expect(PixelSize(width: 1001, height: 601).fittingVideo(in: box) == PixelSize(width: 1000, height: 600))
        let facts = VideoFacts(duration: 3, storedSize: PixelSize(width: 1920, height: 1080), rotation: 90, videoCodec: "h264",
                               pixelFormat: "yuv420p", bitDepth: 8, profile: "High", audioCodec: "aac")
        #expect(facts.videoStreamPlaysAsIs(in: box), "a portrait phone clip fits the turned box")
        var tenBit = facts
        tenBit.pixelFormat = "yuv420p10le"
        tenBit.bitDepth = 10
        #expect(!tenBit.videoStreamPlaysAsIs(in: box))
        var hlg = facts
        hlg.colorTransfer = "arib-std-b67"
        #expect(!hlg.videoStreamPlaysAsIs(in: box))
        #expect(!facts.videoStreamPlaysAsIs(in: PixelSize(width: 1280, height: 720)))
        let input = URL(fileURLWithPath: "/in.mov"), output = URL(fileURLWithPath: "/out.mp4")
        let spec = RenditionSpec(role: .video, box: box, encoding: .h264(crf: 23, preset: "veryfast"))
        let remux = VideoTools.playbackArguments(input: input, facts: facts, spec: spec, output: output, threads: 2)
        #expect(remux.method == .remuxed && remux.arguments.contains("copy") && !remux.arguments.contains("libx264"))
        let transcode = VideoTools.playbackArguments(input: input, facts: hlg, spec: spec, output: output, threads: 2)
        #expect(transcode.method == .transcoded && transcode.arguments.contains("libx264"))
        #expect(transcode.arguments.contains { $0.contains("tonemap") }, "HDR is tone-mapped")
        for arguments in [remux.arguments, transcode.arguments] {
            #expect(arguments.contains("-map_metadata") && arguments.contains("+faststart") && arguments.last == "file:/out.mp4")
        }
    }

    /// The live line names the clip being encoded and how far it is.
    @Test func progressNamesTheClipBeingEncoded() {
        let progress = ProgressReporter(quiet: true)
        for _ in 0..<3 { progress.photoFound() }
        progress.scanDone()
        progress.photoDone()
        progress.videoStarted("Trip/IMG_0100.MOV")
        progress.videoProgress("Trip/IMG_0100.MOV", fraction: 0.427)
        progress.videoStarted("Trip/clip.webm")
        #expect(progress.status().hasPrefix("1/3 items"))
        #expect(progress.status().hasSuffix(" · video Trip/IMG_0100.MOV 42% (+1)"), "\(progress.status())")
        progress.videoFinished("Trip/IMG_0100.MOV")
        #expect(progress.status().hasSuffix(" · video Trip/clip.webm 0%"))
        progress.videoFinished("Trip/clip.webm")
        #expect(!progress.status().contains("video"))
    }

    @Test func progressLinesGiveOutTimes() {
        let lines = ProgressLines()
        #expect(lines.outTimes(Data("frame=10\nout_time_us=1500".utf8)) == [])
        #expect(lines.outTimes(Data("000\nout_time_ms=1\nout_time_us=N/A\nout_time_us=2000000\n".utf8)) == [1_500_000, 2_000_000])
    }
}
