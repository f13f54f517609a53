import GalleryCore

/// What the last full pass of the faces step published: each photo's named
/// faces, and the summary it printed. Kept in the state folder
/// (`faces-named.bin`) with what it was made from (the faces table's stamp,
/// people.yml's digest), so a rebuild where nothing changed publishes the
/// same people without reading the table (100,000 photos' faces) again.
public struct NamedFaces: Sendable, Equatable {
    public static let fileName = "faces-named.bin"

    /// The faces table it was made from (`OutputFolder.stateFileStamp`).
    public var tableStamp: String
    /// people.yml's entries as it read them (`digest(of:)`).
    public var peopleDigest: String
    /// The summary line and the warnings of that pass.
    public var summary: String
    public var problems: [String]
    /// The named faces of each photo, by content hash.
    public var faces: [String: [FaceRegion]]

    public init(tableStamp: String, peopleDigest: String, summary: String, problems: [String], faces: [String: [FaceRegion]]) {
        self.tableStamp = tableStamp
        self.peopleDigest = peopleDigest
        self.summary = summary
        self.problems = problems
        self.faces = faces
    }

    /// A digest of what people.yml says (a run of the same file gives the same).
    public static func digest(of people: PeopleList) -> String {
        var hash = StableHash()
        for entry in people.entries {
            hash.add(entry.name)
            for spelling in entry.also { hash.add("also " + spelling) }
            for face in entry.photos { hash.add("photo " + face.description) }
            for face in entry.not { hash.add("not " + face.description) }
            hash.add(entry.hidden ? "hidden" : "shown")
            hash.add(entry.avatar ?? "")
        }
        return hash.finalize()
    }

    static let magic = Array("gallerygen named faces 1\n".utf8)

    public func encoded() -> [UInt8] {
        var out = Self.magic
        func string(_ text: String) {
            withUnsafeBytes(of: Int64(text.utf8.count).littleEndian) { out.append(contentsOf: $0) }
            out.append(contentsOf: text.utf8)
        }
        string(tableStamp)
        string(peopleDigest)
        string(summary)
        string(problems.joined(separator: "\n"))
        string(String(faces.count))
        for hash in faces.keys.sorted() {
            string(hash)
            string(String(faces[hash]!.count))
            for region in faces[hash]! {
                string(region.name)
                for value in [region.area.x, region.area.y, region.area.width, region.area.height] { string(String(value.bitPattern)) }
            }
        }
        return out
    }

    public init?(decoding bytes: [UInt8]) {
        guard bytes.count >= Self.magic.count, Array(bytes[0..<Self.magic.count]) == Self.magic else { return nil }
        var at = Self.magic.count
        func string() -> String? {
            guard at + 8 <= bytes.count else { return nil }
            var length = 0
            for (shift, byte) in bytes[at..<(at + 8)].enumerated() { length |= Int(byte) << (8 * shift) }
            at += 8
            guard length >= 0, at + length <= bytes.count else { return nil }
            defer { at += length }
            return String(decoding: bytes[at..<(at + length)], as: UTF8.self)
        }
        func number() -> Int? { string().flatMap { Int($0) } }
        func double() -> Double? { string().flatMap { UInt64($0) }.map { Double(bitPattern: $0) } }
        guard let stamp = string(), let digest = string(), let summary = string(), let problems = string(), let count = number(),
              count >= 0 else { return nil }
        var faces: [String: [FaceRegion]] = [:]
        for _ in 0..<count {
            guard let hash = string(), let regionCount = number(), regionCount >= 0 else { return nil }
            var regions: [FaceRegion] = []
            for _ in 0..<regionCount {
                guard let name = string(), let x = double(), let y = double(), let width = double(), let height = double() else { return nil }
                regions.append(FaceRegion(name: name, area: NormalizedRect(x: x, y: y, width: width, height: height)))
            }
            faces[hash] = regions
        }
        guard at == bytes.count else { return nil }
        self.init(tableStamp: stamp, peopleDigest: digest, summary: summary, problems: problems.isEmpty ? [] : problems.components(separatedBy: "\n"),
                  faces: faces)
    }
}
