import Foundation
import Testing
import GalleryTestSupport
@testable import GalleryCore
@testable import GalleryKit
@testable import Imaging

/// GIF compositing against hand-computed canvases, and animation round trips.
@Suite struct AnimationTests {
    typealias Frame = Fixtures.GIFFrame
    // Palette: 0 red, 1 green, 2 blue, 3 white. "." is transparent.
    static let colours: [Character: [UInt8]] = ["R": [255, 0, 0, 255], "G": [0, 255, 0, 255], "B": [0, 0, 255, 255],
                                                "W": [255, 255, 255, 255], ".": [0, 0, 0, 0]]

    /// A canvas from rows of R/G/B/W/. letters.
    static func canvas(_ rows: [String]) -> [UInt8] {
        rows.flatMap { $0.flatMap { colours[$0]! } }
    }

    static func frames(_ gif: [UInt8]) throws -> (canvases: [[UInt8]], durations: [Int], info: GIFAnimation.Info) {
        var canvases: [[UInt8]] = []
        var durations: [Int] = []
        let info = try gif.withUnsafeBytes { bytes in
            try GIFAnimation.forEachFrame(bytes, maximumPixels: 1 << 24) { image, duration in
                canvases.append(image.pixels)
                durations.append(duration)
            }
        }
        return (canvases, durations, info)
    }

    static func solid(_ w: Int, _ h: Int, _ index: UInt8) -> [UInt8] { [UInt8](repeating: index, count: w * h) }

    @Test func disposalNoneKeepsTheFrame() throws {
        let gif = Fixtures.gif(width: 4, height: 4, frames: [
            Frame(width: 4, height: 4, indices: Self.solid(4, 4, 0), disposal: 1),
            Frame(left: 1, top: 1, width: 2, height: 2, indices: Self.solid(2, 2, 1), disposal: 1),
        ])
        let result = try Self.frames(gif)
        #expect(result.canvases == [Self.canvas(["RRRR", "RRRR", "RRRR", "RRRR"]), Self.canvas(["RRRR", "RGGR", "RGGR", "RRRR"])])
    }

    @Test func disposalBackgroundClearsToTransparent() throws {
        let gif = Fixtures.gif(width: 4, height: 4, frames: [
            Frame(width: 4, height: 4, indices: Self.solid(4, 4, 0), disposal: 1),
            Frame(left: 0, top: 0, width: 2, height: 2, indices: Self.solid(2, 2, 2), disposal: 2),
            Frame(left: 2, top: 2, width: 2, height: 2, indices: Self.solid(2, 2, 1), disposal: 1),
        ])
        let result = try Self.frames(gif)
        #expect(result.canvases[1] == Self.canvas(["BBRR", "BBRR", "RRRR", "RRRR"]))
        // Frame 2's rectangle is cleared to transparent before frame 3 is drawn.
        #expect(result.canvases[2] == Self.canvas(["..RR", "..RR", "RRGG", "RRGG"]))
    }

    @Test func disposalPreviousRestoresTheRectangle() throws {
        let gif = Fixtures.gif(width: 4, height: 4, frames: [
            Frame(width: 4, height: 4, indices: Self.solid(4, 4, 0), disposal: 1),
            Frame(left: 1, top: 1, width: 3, height: 3, indices: Self.solid(3, 3, 1), disposal: 3),
            Frame(left: 0, top: 0, width: 1, height: 1, indices: [2], disposal: 1),
        ])
        let result = try Self.frames(gif)
        #expect(result.canvases[1] == Self.canvas(["RRRR", "RGGG", "RGGG", "RGGG"]))
        #expect(result.canvases[2] == Self.canvas(["BRRR", "RRRR", "RRRR", "RRRR"]))
    }

    @Test func transparentIndexLeavesThePixelBelow() throws {
        let gif = Fixtures.gif(width: 2, height: 2, frames: [
            Frame(width: 2, height: 2, indices: [0, 0, 0, 0], disposal: 1),
            Frame(width: 2, height: 2, indices: [1, 2, 2, 1], disposal: 1, transparentIndex: 1),
        ])
        let result = try Self.frames(gif)
        #expect(result.canvases[1] == Self.canvas(["RB", "BR"]))
        // A transparent first frame leaves the canvas transparent there.
        let first = Fixtures.gif(width: 2, height: 1, frames: [Frame(width: 2, height: 1, indices: [3, 1], transparentIndex: 1)])
        #expect(try Self.frames(first).canvases[0] == Self.canvas(["W."]))
    }

    @Test func framesOffsetAndOutsideTheCanvasAreClipped() throws {
        let gif = Fixtures.gif(width: 4, height: 4, frames: [
            Frame(width: 4, height: 4, indices: Self.solid(4, 4, 3), disposal: 1),
            Frame(left: 3, top: 2, width: 3, height: 3, indices: Self.solid(3, 3, 2), disposal: 1),
            Frame(left: 9, top: 9, width: 2, height: 2, indices: Self.solid(2, 2, 0), disposal: 1),
        ])
        let result = try Self.frames(gif)
        #expect(result.canvases[1] == Self.canvas(["WWWW", "WWWW", "WWWB", "WWWB"]))
        #expect(result.canvases[2] == result.canvases[1])
    }

    @Test func interlacedFramesLandOnTheRightRows() throws {
        let rows: [UInt8] = [0, 1, 2, 3, 0, 1, 2, 3, 3, 2]
        let gif = Fixtures.gif(width: 1, height: 10, frames: [Frame(width: 1, height: 10, indices: rows, interlaced: true)])
        #expect(try Self.frames(gif).canvases[0] == Self.canvas(["R", "G", "B", "W", "R", "G", "B", "W", "W", "B"]))
    }

    @Test func indicesPastThePaletteAreSkipped() throws {
        // A 4-colour table written with 3-bit codes: index 6 has no colour.
        let gif = Fixtures.gif(width: 3, height: 1, frames: [
            Frame(width: 3, height: 1, indices: [0, 0, 0], disposal: 1),
            Frame(width: 3, height: 1, indices: [2, 6, 1], disposal: 1, minCodeSize: 3),
        ])
        #expect(try Self.frames(gif).canvases[1] == Self.canvas(["BRG"]))
    }

    @Test func localPalettesAndZeroSizedScreens() throws {
        let gif = Fixtures.gif(width: 0, height: 0, frames: [
            Frame(width: 2, height: 1, indices: [0, 1], localPalette: [(1, 2, 3), (4, 5, 6)]),
        ])
        let result = try Self.frames(gif)
        #expect(result.info.size == PixelSize(width: 2, height: 1))
        #expect(result.canvases[0] == [1, 2, 3, 255, 4, 5, 6, 255])
    }

    @Test func delaysAndLoopCountFollowBrowserRules() throws {
        let frame = Frame(width: 2, height: 2, indices: Self.solid(2, 2, 0))
        var a = frame, b = frame, c = frame
        a.delayCentiseconds = 0
        b.delayCentiseconds = 1
        c.delayCentiseconds = 25
        #expect(try Self.frames(Fixtures.gif(width: 2, height: 2, frames: [a, b, c], loop: 0)).durations == [100, 100, 250])
        #expect(try Self.frames(Fixtures.gif(width: 2, height: 2, frames: [a, b], loop: 0)).info.loopCount == 0)
        #expect(try Self.frames(Fixtures.gif(width: 2, height: 2, frames: [a, b], loop: 2)).info.loopCount == 3)
        #expect(try Self.frames(Fixtures.gif(width: 2, height: 2, frames: [a, b], loop: nil)).info.loopCount == 1)
    }

    @Test func truncatedGIFKeepsTheFramesThatArrived() throws {
        let gif = Fixtures.gif(width: 8, height: 8, frames: (0..<4).map { Frame(width: 8, height: 8, indices: Self.solid(8, 8, UInt8($0))) })
        let result = try Self.frames(Array(gif.prefix(gif.count - 40)))
        #expect(result.canvases.count >= 2 && result.canvases.count <= 4)
        #expect(throws: ImagingError.self) { try Self.frames(Array(gif.prefix(30))) }
    }

    /// Decodes an animated WebP: frame count, durations, loop count, first canvas.
    static func webpFrames(_ webp: [UInt8]) throws -> (count: Int, durations: [Int], info: GIFAnimation.Info, first: RGBAImage?) {
        var durations: [Int] = []
        var first: RGBAImage?
        let info = try webp.withUnsafeBytes { bytes in
            try WebPAnimation.forEachFrame(bytes, maximumPixels: 1 << 24) { image, duration in
                if first == nil { first = image }
                durations.append(duration)
            }
        }
        return (durations.count, durations, info, first)
    }

    @Test func gifRoundTripKeepsFramesTimingAndLoops() throws {
        var frames: [Frame] = []
        for i in 0..<5 {
            var f = Frame(width: 40, height: 30, indices: (0..<1200).map { UInt8(($0 / 40 / 8 + i) % 4) })
            f.delayCentiseconds = [0, 3, 8, 15, 40][i]
            frames.append(f)
        }
        let gif = Fixtures.gif(width: 40, height: 30, frames: frames, loop: 4)
        let outputs = try gif.withUnsafeBytes {
            try AnimationMaker.make($0, format: .gif, sizes: [PixelSize(width: 40, height: 30), PixelSize(width: 20, height: 15)],
                                    quality: 90, maximumPixels: 1 << 24)
        }
        for (output, size) in zip(outputs, [PixelSize(width: 40, height: 30), PixelSize(width: 20, height: 15)]) {
            let decoded = try Self.webpFrames(output)
            #expect(decoded.count == 5)
            #expect(decoded.durations == [100, 30, 80, 150, 400], "0 cs becomes 100 ms as in browsers")
            #expect(decoded.info.loopCount == 5)
            #expect(decoded.info.size == size)
        }
        // The first full-size frame looks like the source's (lossy, so within a tolerance).
        let source = try Self.frames(gif).canvases[0]
        let first = try #require(try Self.webpFrames(outputs[0]).first)
        var total = 0, count = 0
        for i in 0..<source.count where i % 4 != 3 { total += abs(Int(source[i]) - Int(first.pixels[i])); count += 1 }
        #expect(Double(total) / Double(count) < 12, "mean error \(Double(total) / Double(count))")
    }

    @Test func webpRoundTrip() throws {
        let encoder = try AnimatedWebPEncoder(size: PixelSize(width: 32, height: 32), quality: 90)
        for (i, duration) in [50, 80, 120].enumerated() {
            var image = Fixtures.gradient(width: 32, height: 32)
            for p in stride(from: 0, to: image.pixels.count, by: 4) { image.pixels[p + 2] = UInt8(i * 80) }
            try encoder.add(image, duration: duration)
        }
        let source = try encoder.finish(loopCount: 2)
        let outputs = try source.withUnsafeBytes {
            try AnimationMaker.make($0, format: .webp, sizes: [PixelSize(width: 16, height: 16)], quality: 80, maximumPixels: 1 << 24)
        }
        let decoded = try Self.webpFrames(outputs[0])
        #expect(decoded.count == 3 && decoded.durations == [50, 80, 120] && decoded.info.loopCount == 2)
    }

    @Test func animationsInTheBuildAndTheFrameBudget() async throws {
        let folder = try TemporaryFolder()
        let frames = (0..<6).map { Frame(width: 60, height: 40, indices: Self.solid(60, 40, UInt8($0 % 4))) }
        try folder.write("src/anim/a.gif", Fixtures.gif(width: 60, height: 40, frames: frames))
        try folder.write("src/anim/one.gif", Fixtures.gif(width: 60, height: 40, frames: [frames[0]]))
        var settings = BuildSettings(source: folder.url.appendingPathComponent("src"), output: folder.url.appendingPathComponent("out"),
                                     thumbnailBoxes: [PixelSize(width: 30, height: 20)], previewBoxes: [PixelSize(width: 60, height: 40)],
                                     format: .jpeg)
        _ = try await GalleryBuilder().build(settings: settings, quiet: true)
        let page = try String(contentsOf: settings.output.appendingPathComponent("albums/anim/index.html"), encoding: .utf8)
        #expect(page.contains("data-animated=\"true\""))
        #expect(page.contains("<source media=\"(prefers-reduced-motion: reduce)\""))
        // The pause button comes with every page that shows an animation (the script moves nothing in to make room).
        let toggle = "<button class=\"animation-toggle\" type=\"button\">Pause animations</button>"
        for path in ["albums/anim/index.html", "moments/index.html", "albums/anim/a.html"] {
            let html = try String(contentsOf: settings.output.appendingPathComponent(path), encoding: .utf8)
            #expect(html.components(separatedBy: toggle).count == 2, "\(path)")
        }
        let media = try FileManager.default.subpathsOfDirectory(atPath: settings.output.appendingPathComponent("media").path)
            .filter { $0.contains(".") }
        // a.gif: 2 animated WebP + 2 posters (JPEG, the still format); one.gif: 2 still JPEGs.
        #expect(media.filter { $0.hasSuffix(".webp") }.count == 2)
        #expect(media.filter { $0.hasSuffix(".jpg") }.count == 4)
        for file in media where file.hasSuffix(".webp") {
            let bytes = try [UInt8](Data(contentsOf: settings.output.appendingPathComponent("media/" + file)))
            #expect(try Self.webpFrames(bytes).count == 6)
        }
        // Over the budget: published as a still, with a note.
        settings.output = folder.url.appendingPathComponent("out2")
        settings.maxAnimationMegapixels = 0.0001  // 100 pixels
        _ = try await GalleryBuilder().build(settings: settings, quiet: true)
        let stills = try FileManager.default.subpathsOfDirectory(atPath: settings.output.appendingPathComponent("media").path)
            .filter { $0.contains(".") }
        #expect(stills.allSatisfy { $0.hasSuffix(".jpg") })
        for path in ["albums/anim/index.html", "moments/index.html"] {
            let html = try String(contentsOf: settings.output.appendingPathComponent(path), encoding: .utf8)
            #expect(!html.contains("animation-toggle"), "nothing moves, nothing to pause: \(path)")
        }
    }
}
