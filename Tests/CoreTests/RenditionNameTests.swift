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
        // Held by its name, a rendition spells the same path (an original's with its format's extension), and hashes it as the string is hashed.
        let named = keyed.rendition(contentHash: hash, size: size, madeWith: madeWith)
        if spec.role == .original {
            // An original published as it is: named from its stored size and its source's extension (no other stills), its size upright.
            let upright = PixelSize(width: 3, height: 4)
            let original = keyed.original(contentHash: hash, storedSize: size, size: upright, originalExtension: ext)
            #expect(original.path == reference(keyed, contentHash: hash.description, size: size, originalExtension: ext, madeWith: "")
                    && original.size == upright, "seed \(seed)")
        }
        guard spec.role != .original || ext == spec.format.fileExtension else {
            #expect(named.path == reference(keyed, contentHash: hash.description, size: size, originalExtension: spec.format.fileExtension, madeWith: madeWith))
            continue
        }
        #expect(named.path == expected && named.size == size, "seed \(seed)")
        var byName = StableHash(), byPath = StableHash()
        byName.add(pathOf: named)
        byPath.add(expected)
        #expect(byName.digest() == byPath.digest(), "seed \(seed)")
        if named.path != expected { return }
    }
}

/// A rendition held by its name keeps its path whatever its spec or size
/// become, equals (and hashes as) one given the same path as a string, and
/// one that shares its file spells the same path.
@Test func aNamedRenditionKeepsItsPath() {
    let thumbnail = KeyedRenditionSpec(RenditionSpec(role: .thumbnail, box: PixelSize(width: 400, height: 400), encoding: .webp(quality: 80)))
    let preview = KeyedRenditionSpec(RenditionSpec(role: .preview, box: PixelSize(width: 1600, height: 1600), encoding: .webp(quality: 80)))
    let jpeg = KeyedRenditionSpec(RenditionSpec(role: .preview, box: PixelSize(width: 1600, height: 1600), encoding: .jpeg(quality: 80)))
    let hash = ContentHash(StableHash.Digest(high: 0x0123_4567_89AB_CDEF, low: 0xFEDC_BA98_7654_3210))
    let size = PixelSize(width: 300, height: 200)
    let named = thumbnail.rendition(contentHash: hash, size: size, madeWith: "abc")
    let path = thumbnail.relativePath(contentHash: hash, size: size, madeWith: "abc")
    #expect(named.path == path)

    let spelled = Rendition(thumbnail, size: size, path: path)
    #expect(named == spelled && spelled == named)
    #expect(Set([named, spelled]).count == 1)
    #expect(named != Rendition(thumbnail, size: size, path: path + "x"))
    #expect(named != thumbnail.rendition(contentHash: hash, size: size, madeWith: "abd"))

    // Shared by a spec of the same format and size: still a name; of another format: spelled as it was.
    let shared = named.sharingItsFile(as: preview, size: size)
    #expect(shared.path == path && shared.spec == preview.spec)
    #expect(named.sharingItsFile(as: jpeg, size: size).path == path)
    #expect(named.sharingItsFile(as: preview, size: PixelSize(width: 30, height: 20)).path == path)
    let original = KeyedRenditionSpec(RenditionSpec(role: .original, box: size, encoding: .webp(quality: 80)))
    #expect(named.sharingItsFile(as: original, size: size).path == path, "an original's name is spelled otherwise")

    var resized = named
    resized.size = PixelSize(width: 3, height: 2)
    #expect(resized.path == path && resized.size == PixelSize(width: 3, height: 2))
    var respecified = named
    respecified.spec = jpeg.spec
    #expect(respecified.path == path && respecified.spec == jpeg.spec)
    var moved = named
    moved.path = "elsewhere.webp"
    #expect(moved.path == "elsewhere.webp" && moved != named && moved.size == size)

    // Held in 32 bytes: a photo has six to twelve of them all build long.
    #expect(MemoryLayout<Rendition>.stride == 32)
}
