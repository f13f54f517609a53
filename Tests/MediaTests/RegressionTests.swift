import Foundation
import Testing
import GalleryTestSupport
@testable import GalleryCore
@testable import Containers
@testable import Imaging
@testable import Metadata

/// Every input a fuzz target found to crash, replayed through every reader.
@Suite struct RegressionTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Regressions")

    @Test(arguments: try! FileManager.default.contentsOfDirectory(atPath: RegressionTests.folder.path).filter { !$0.hasSuffix(".md") })
    func replay(name: String) throws {
        let bytes = try [UInt8](Data(contentsOf: Self.folder.appendingPathComponent(name)))
        bytes.withUnsafeBytes { raw in
            _ = try? MetadataReader.read(raw, modificationDate: Date())
            _ = try? GIFAnimation.forEachFrame(raw, maximumPixels: 1 << 20) { _, _ in }
            _ = try? JPEGCodec.decode(raw, scaleDenominator: 8, maximumPixels: 1 << 22)
            _ = try? WebPCodec.decode(raw, maximumPixels: 1 << 22)
            _ = try? PNGCodec.decode(raw, maximumPixels: 1 << 22)
            _ = try? HEIFCodec.withDecoded(raw, maximumPixels: 1 << 22) { _, _ in }
            _ = try? TIFFCodec.decode(raw, maximumPixels: 1 << 22)
            _ = try? MetadataReader.read(raw, fileName: "input.tif", modificationDate: Date())
        }
        _ = try? LocationStripper.strip(bytes)
    }

    /// The file that overflowed libheif's stack is refused by our own check,
    /// in the metadata read and in the decoder, before libheif parses it.
    @Test func heifItemBuiltFromItselfIsRefused() throws {
        let bytes = try [UInt8](Data(contentsOf: Self.folder.appendingPathComponent("heif-grid-built-from-itself.heic")))
        try bytes.withUnsafeBytes { raw in
            let reason = try #require(HEIFCodedSize.violation(raw))
            #expect(reason.contains("item 2 is built from itself") && reason.contains("dimg"))
            #expect(throws: (any Error).self) { try MetadataReader.read(raw, modificationDate: Date()) }
            #expect(throws: (any Error).self) { try HEIFCodec.withDecoded(raw, maximumPixels: 1 << 22) { _, _ in } }
        }
        // A reference box that claims more bytes than its iref holds: libheif
        // still reads its references, so the check must too.
        let overrun = try [UInt8](Data(contentsOf: Self.folder.appendingPathComponent("heif-reference-box-longer-than-iref.heic")))
        try overrun.withUnsafeBytes { raw in
            let reason = try #require(HEIFCodedSize.violation(raw))
            #expect(reason.contains("item 2 is built from itself"))
            #expect(throws: (any Error).self) { try HEIFCodec.withDecoded(raw, maximumPixels: 1 << 22) { _, _ in } }
        }
        // The same file with a box of 64-bit size before `meta` (legal ISO BMFF,
        // and what libheif reads): the check must walk past it, not give up.
        let ftypSize = Int(bytes[3])
        let largeFree: [UInt8] = [0, 0, 0, 1] + Array("free".utf8) + [0, 0, 0, 0, 0, 0, 0, 24] + [UInt8](repeating: 0, count: 8)
        let hidden = Array(bytes[..<ftypSize]) + largeFree + Array(bytes[ftypSize...])
        hidden.withUnsafeBytes { raw in
            #expect(HEIFCodedSize.violation(raw)?.contains("item 2 is built from itself") == true)
        }
    }

    /// An AVIF whose header says 49×32 and whose AV1 sequence header allows
    /// frames of 32768 pixels a side: dav1d asked for 3.2 GB. Refused in the
    /// metadata read and by the decoder before libheif is handed it.
    @Test func avifSequenceHeaderLargerThanItsHeaderIsRefused() throws {
        let bytes = try [UInt8](Data(contentsOf: Self.folder.appendingPathComponent("avif-sequence-header-larger-than-header.avif")))
        try bytes.withUnsafeBytes { raw in
            let reason = try #require(HEIFCodedSize.violation(raw))
            #expect(reason.contains("header says at most 49x32"), "\(reason)")
            #expect(throws: (any Error).self) { try MetadataReader.read(raw, modificationDate: Date()) }
            #expect(throws: (any Error).self) { try HEIFCodec.withDecoded(raw, maximumPixels: 1 << 22) { _, _ in } }
        }
    }

    @Test func gifFrameBesideTheCanvasIsClipped() throws {
        let gif = Fixtures.gif(width: 4, height: 4, frames: [
            Fixtures.GIFFrame(width: 4, height: 4, indices: [UInt8](repeating: 3, count: 16), disposal: 1),
            Fixtures.GIFFrame(left: 10, top: 1, width: 2, height: 2, indices: [0, 0, 0, 0], disposal: 2),
        ])
        var canvases: [[UInt8]] = []
        _ = try gif.withUnsafeBytes { raw in
            try GIFAnimation.forEachFrame(raw, maximumPixels: 1 << 20) { image, _ in canvases.append(image.pixels) }
        }
        #expect(canvases.count == 2 && canvases[1] == canvases[0])
    }
}
