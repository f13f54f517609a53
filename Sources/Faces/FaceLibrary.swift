import GalleryCore

/// Every face found in a library's photos, by the photo's content hash (a
/// renamed or re-captioned photo keeps its faces), each with the group of
/// faces it is in: the faces' table of the state folder (`faces.bin`),
/// never published. Only a build with `faces: auto` reads or writes it.
public struct FaceLibrary: Sendable, Equatable {
    /// A face and the group it is in (nil: in none, as a blurred face or a
    /// stranger seen once stays).
    public struct Entry: Sendable, Equatable {
        public var face: FoundFace
        public var group: Int?

        public init(face: FoundFace, group: Int? = nil) {
            self.face = face
            self.group = group
        }
    }

    /// The file's name in the state folder.
    public static let fileName = "faces.bin"

    /// What found the faces (`FaceModels.identity`): faces of another model
    /// are found again.
    public var model: String
    /// Each photo's faces, most confident first (photos with faces only:
    /// `record` keeps the others in `withoutFaces`).
    public var photos: [String: [Entry]]
    /// The photos looked at in which no face was found.
    public var withoutFaces = PhotoKeySet()
    /// A path below SOURCE of each photo (the last build's), for
    /// `gallerygen people` and the review page.
    public var paths: [String: String] = [:]
    /// Each named group's name as the last build gave it (people.yml or
    /// tags), for `gallerygen people` and the review page.
    public var names: [Int: String] = [:]
    /// The identifier the next new group takes: identifiers are never reused,
    /// so a name given to a group cannot pass to another.
    public var nextGroup: Int

    public init(model: String = FaceModels.identity, photos: [String: [Entry]] = [:], nextGroup: Int = 1) {
        self.model = model
        self.photos = photos
        self.nextGroup = nextGroup
    }

    /// A photo's faces; an empty list when none were found; nil when it was not looked at.
    public func faces(of hash: String) -> [Entry]? {
        photos[hash] ?? (withoutFaces.contains(hash) ? [] : nil)
    }

    /// Keeps what was found in photo `hash`.
    public mutating func record(_ hash: String, _ faces: [Entry]) {
        if faces.isEmpty {
            photos[hash] = nil
            withoutFaces.insert(hash)
        } else {
            withoutFaces.remove(hash)
            photos[hash] = faces
        }
    }

    /// The faces of each group, in a stable order (by photo, then face).
    public var members: [Int: [FaceID]] {
        var result: [Int: [FaceID]] = [:]
        for hash in photos.keys.sorted() {
            for (index, entry) in photos[hash]!.enumerated() {
                if let group = entry.group { result[group, default: []].append(FaceID(photo: hash, index: index)) }
            }
        }
        return result
    }

    public subscript(id: FaceID) -> Entry? {
        guard let faces = photos[id.photo], faces.indices.contains(id.index) else { return nil }
        return faces[id.index]
    }
}

/// One face of the library: its photo's content hash and its place in the photo's list.
public struct FaceID: Hashable, Sendable, Comparable {
    public var photo: String
    public var index: Int

    public init(photo: String, index: Int) {
        self.photo = photo
        self.index = index
    }

    public static func < (a: FaceID, b: FaceID) -> Bool { (a.photo, a.index) < (b.photo, b.index) }
}

// MARK: The file

extension FaceLibrary {
    static let magic = Array("gallerygen faces 3\n".utf8)
    /// The table before `withoutFaces` (faceless photos as empty lists): read, not written.
    static let magicWithoutKeys = Array("gallerygen faces 2\n".utf8)

    /// The file's bytes.
    public func encoded() -> [UInt8] {
        var out = Self.magic
        func int(_ value: Int) { withUnsafeBytes(of: Int64(value).littleEndian) { out.append(contentsOf: $0) } }
        func float(_ value: Float) { withUnsafeBytes(of: value.bitPattern.littleEndian) { out.append(contentsOf: $0) } }
        func double(_ value: Double) { withUnsafeBytes(of: value.bitPattern.littleEndian) { out.append(contentsOf: $0) } }
        func string(_ value: String) {
            int(value.utf8.count)
            out.append(contentsOf: value.utf8)
        }
        string(model)
        int(nextGroup)
        int(names.count)
        for (group, name) in names.sorted(by: { $0.key < $1.key }) {
            int(group)
            string(name)
        }
        int(photos.count)
        for hash in photos.keys.sorted() {
            let faces = photos[hash]!
            string(hash)
            string(paths[hash] ?? "")
            int(faces.count)
            for entry in faces {
                let face = entry.face
                for value in [face.box.x, face.box.y, face.box.width, face.box.height] { double(value) }
                float(face.score)
                int(face.pixels)
                int(entry.group ?? 0)
                for half in face.descriptor.halves { withUnsafeBytes(of: half.littleEndian) { out.append(contentsOf: $0) } }
            }
        }
        withoutFaces.encode(int: int, string: string) { out.append(contentsOf: $0) }
        return out
    }

    /// The model a table's first bytes name (`model`), without reading the
    /// rest; nil when they are not the start of a table this version writes.
    public static func model(inHeader bytes: [UInt8]) -> String? {
        // Both versions' magic strings are the same length.
        guard bytes.count > magic.count + 8, [magic, magicWithoutKeys].contains(Array(bytes[0..<magic.count])) else { return nil }
        var length = 0
        for (shift, byte) in bytes[magic.count..<(magic.count + 8)].enumerated() { length |= Int(byte) << (8 * shift) }
        let start = magic.count + 8
        guard length >= 0, length <= 1024, start + length <= bytes.count else { return nil }
        return String(decoding: bytes[start..<(start + length)], as: UTF8.self)
    }

    /// Reads a file's bytes; nil when they are not a faces table this
    /// version writes (the faces are then found again, never misread).
    public init?(decoding bytes: [UInt8]) {
        guard let table = bytes.withUnsafeBytes({ Self.decode($0) }) else { return nil }
        self = table
    }

    /// Reads fixed-size fields with unaligned loads (a table of 100,000
    /// photos is read by every rebuild that adds one).
    private static func decode(_ bytes: UnsafeRawBufferPointer) -> FaceLibrary? {
        var at = 0
        func take(_ count: Int) -> UnsafeRawBufferPointer? {
            guard count >= 0, count <= bytes.count - at else { return nil }
            defer { at += count }
            return UnsafeRawBufferPointer(rebasing: bytes[at..<(at + count)])
        }
        func int() -> Int? { take(8).map { Int(Int64(littleEndian: $0.loadUnaligned(as: Int64.self))) } }
        func float() -> Float? { take(4).map { Float(bitPattern: UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self))) } }
        func double() -> Double? { take(8).map { Double(bitPattern: UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self))) } }
        func string() -> String? {
            guard let count = int(), let raw = take(count) else { return nil }
            return String(decoding: raw, as: UTF8.self)
        }
        guard let version = take(magic.count).map(Array.init), version == magic || version == magicWithoutKeys,
              let model = string(), let nextGroup = int(),
              let nameCount = int(), nameCount >= 0, nameCount <= bytes.count else { return nil }
        var names: [Int: String] = [:]
        for _ in 0..<nameCount {
            guard let group = int(), let name = string() else { return nil }
            names[group] = name
        }
        guard let count = int(), count >= 0, count <= bytes.count else { return nil }
        var photos: [String: [Entry]] = [:], paths: [String: String] = [:], withoutFaces = PhotoKeySet()
        for _ in 0..<count {
            guard let hash = string(), let path = string(), let faceCount = int(), faceCount >= 0, faceCount <= bytes.count - at else { return nil }
            if !path.isEmpty { paths[hash] = path }
            var faces: [Entry] = []
            for _ in 0..<faceCount {
                guard let x = double(), let y = double(), let width = double(), let height = double(), let score = float(),
                      let pixels = int(), let group = int(), let raw = take(2 * FaceDescriptor.length) else { return nil }
                let halves = (0..<FaceDescriptor.length).map { UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: 2 * $0, as: UInt16.self)) }
                guard let descriptor = FaceDescriptor(halves: halves) else { return nil }
                let box = NormalizedRect(x: x, y: y, width: width, height: height)
                faces.append(Entry(face: FoundFace(box: box, score: score, pixels: pixels, descriptor: descriptor), group: group == 0 ? nil : group))
            }
            if faces.isEmpty { withoutFaces.insert(hash) } else { photos[hash] = faces }
        }
        if version == magic {
            guard let keys = PhotoKeySet.decode(int: int, string: string, take: take) else { return nil }
            withoutFaces = keys
        }
        guard at == bytes.count else { return nil }
        var table = FaceLibrary(model: model, photos: photos, nextGroup: nextGroup)
        table.withoutFaces = withoutFaces
        table.paths = paths
        table.names = names
        return table
    }
}
