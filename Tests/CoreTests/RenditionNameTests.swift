import Testing
import GalleryTestSupport
@testable import GalleryCore

/// A rendition's name, written byte by byte, is the one the plain
/// interpolation gave: a different name would make every photo again.
@Test func renditionNamesAreWhatTheInterpolatedFormulaGave() {
    func reference(_ keyed: KeyedRenditionSpec, contentHash: String, size: PixelSize, originalExtension: String, madeWith: String) -> String {
        var hasher = StableHash()
        hasher.update(contentHash)
        hasher.update(keyed.key)
        hasher.update(size.description)
        if !madeWith.isEmpty { hasher.update(madeWith) }
        let name = hasher.digest().hex(digits: 20)
        if keyed.spec.role == .original { return "media/\(name.prefix(2))/\(name)-original.\(originalExtension)" }
        return "media/\(name.prefix(2))/\(name)-\(size.width)x\(size.height).\(keyed.spec.format.fileExtension)"
    }
    let seed = UInt64.random(in: 0...UInt64.max)
    var generator = SeededGenerator(seed: seed)
    let encodings: [Encoding] = [.webp(quality: 80), .jpeg(quality: 92), .h264(crf: 23, preset: "veryfast")]
    let roles: [RenditionRole] = [.thumbnail, .preview, .poster, .original, .video]
    let sizes = [0, 1, 9, 10, 99, 100, 4032, 65_535, Int.max, -1, Int.min]
    for _ in 0..<5_000 {
        let box = PixelSize(width: Int.random(in: 1...8000, using: &generator), height: Int.random(in: 1...8000, using: &generator))
        let spec = RenditionSpec(role: roles.randomElement(using: &generator)!, box: box, encoding: encodings.randomElement(using: &generator)!,
                                 animated: Bool.random(using: &generator), keepsLocation: Bool.random(using: &generator))
        let keyed = KeyedRenditionSpec(spec)
        let size = Bool.random(using: &generator)
            ? PixelSize(width: sizes.randomElement(using: &generator)!, height: sizes.randomElement(using: &generator)!)
            : PixelSize(width: Int.random(in: 1...20_000, using: &generator), height: Int.random(in: 1...20_000, using: &generator))
        let hash = ContentHash(StableHash.Digest(high: generator.next(), low: generator.next()))
        let madeWith = Bool.random(using: &generator) ? "" : String(StableHash.Digest(high: generator.next(), low: 0).hex(digits: 8))
        let ext = ["jpg", "png", "gif", "webp", "jpeg"].randomElement(using: &generator)!
        let made = keyed.relativePath(contentHash: hash, size: size, originalExtension: ext, madeWith: madeWith)
        let expected = reference(keyed, contentHash: hash.description, size: size, originalExtension: ext, madeWith: madeWith)
        #expect(made == expected, "seed \(seed)")
        if made != expected { return }
    }
}
