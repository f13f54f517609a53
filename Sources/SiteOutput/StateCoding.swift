import GalleryCore

/// Why a state file could not be read (it is then ignored: full rebuild).
struct StateFormatError: Error {
    /// What was wrong.
    var reason: String
}

/// Appends little-endian fields to a byte buffer. The state of a 30,000-photo
/// library is read on every build, and JSON decoding it took a second; this
/// flat layout reads in milliseconds.
struct StateWriter {
    private(set) var bytes: [UInt8] = []

    mutating func reserve(_ count: Int) { bytes.reserveCapacity(count) }

    /// Empties the buffer, keeping its capacity.
    mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    mutating func int(_ value: Int64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func int(_ value: Int) { int(Int64(value)) }

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    mutating func raw(_ value: [UInt8]) { bytes.append(contentsOf: value) }

    mutating func double(_ value: Double) { int(Int64(bitPattern: value.bitPattern)) }

    /// A photo key or page key as its 24 hex digits.
    mutating func key(_ key: StateKey) {
        int(StateKey.hexCount)
        key.withHexDigits { bytes.append(contentsOf: $0) }
    }

    /// A content hash as the string of its 32 hex digits.
    mutating func contentHash(_ hash: ContentHash) {
        int(ContentHash.hexCount)
        hash.withHexDigits { bytes.append(contentsOf: $0) }
    }

    mutating func string(_ value: String) {
        // From the string's own UTF-8 (a million strings in a large state: no array each).
        var value = value
        value.withUTF8 { utf8 in
            int(utf8.count)
            bytes.append(contentsOf: utf8)
        }
    }

    /// Hands the bytes so far to `emit` and empties the buffer.
    mutating func flush<E: Error>(_ emit: (UnsafeRawBufferPointer) throws(E) -> Void) throws(E) {
        let result: Result<Void, E> = bytes.withUnsafeBytes { raw in Result { () throws(E) in try emit(raw) } }
        try result.get()
        removeAll()
    }

    /// Appends bytes as they are (an entry copied from another state file).
    mutating func raw(_ value: UnsafeRawBufferPointer) { bytes.append(contentsOf: value) }

    mutating func optional<T>(_ value: T?, _ write: (inout StateWriter, T) -> Void) {
        if let value {
            byte(1)
            write(&self, value)
        } else {
            byte(0)
        }
    }
}

/// Reads what `StateWriter` wrote; every read is bounds-checked, so a
/// truncated or corrupt file is an error, never a crash.
struct StateReader {
    private let bytes: UnsafeRawBufferPointer
    private var offset = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var isAtEnd: Bool { offset == bytes.count }

    /// Bytes read so far.
    var position: Int { offset }

    /// A digest of the bytes from `start` to the current position.
    func digest(from start: Int) -> StableHash.Digest {
        var hash = StableHash()
        hash.update(UnsafeRawBufferPointer(rebasing: bytes[start..<offset]))
        return hash.digest()
    }

    /// Steps over `length` bytes (a length already checked by `count()`).
    mutating func skip(_ length: Int) throws(StateFormatError) {
        guard length >= 0, bytes.count - offset >= length else { throw StateFormatError(reason: "truncated") }
        offset += length
    }

    mutating func int() throws(StateFormatError) -> Int64 {
        guard bytes.count - offset >= 8 else { throw StateFormatError(reason: "truncated") }
        let value = bytes.loadUnaligned(fromByteOffset: offset, as: Int64.self)
        offset += 8
        return Int64(littleEndian: value)
    }

    /// A length or element count: never more than the bytes left could hold.
    mutating func count() throws(StateFormatError) -> Int {
        let value = try int()
        guard value >= 0, value <= Int64(bytes.count - offset) else { throw StateFormatError(reason: "bad count \(value)") }
        return Int(value)
    }

    /// A non-negative number that is not a length (a pixel size, a frame count).
    mutating func natural() throws(StateFormatError) -> Int {
        let value = try int()
        guard value >= 0, value <= Int64(Int32.max) else { throw StateFormatError(reason: "bad number \(value)") }
        return Int(value)
    }

    mutating func byte() throws(StateFormatError) -> UInt8 {
        guard offset < bytes.count else { throw StateFormatError(reason: "truncated") }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func double() throws(StateFormatError) -> Double { Double(bitPattern: UInt64(bitPattern: try int())) }

    mutating func string() throws(StateFormatError) -> String {
        let length = try count()
        guard bytes.count - offset >= length else { throw StateFormatError(reason: "truncated") }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + length)]), as: UTF8.self)
        offset += length
        return text
    }

    /// A digest written as its first `digits` hex digits (a string): any
    /// other string is a damaged state.
    private mutating func hexDigest(digits: Int, naming what: String) throws(StateFormatError) -> StableHash.Digest {
        let length = try count()
        guard bytes.count - offset >= length else { throw StateFormatError(reason: "truncated") }
        guard let digest = StableHash.Digest(hexPrefix: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + length)]), digits: digits) else {
            throw StateFormatError(reason: "bad \(what)")
        }
        offset += length
        return digest
    }

    /// A content hash (32 hex digits).
    mutating func contentHash() throws(StateFormatError) -> ContentHash {
        ContentHash(try hexDigest(digits: ContentHash.hexCount, naming: "content hash"))
    }

    /// A content hash, or nil where none was written (an empty string).
    mutating func contentHashOrNone() throws(StateFormatError) -> ContentHash? {
        let start = offset
        if try count() == 0 { return nil }
        offset = start
        return try contentHash()
    }

    /// A photo key or page key (24 hex digits).
    mutating func key() throws(StateFormatError) -> StateKey {
        StateKey(try hexDigest(digits: StateKey.hexCount, naming: "key"))
    }

    mutating func optional<T>(_ read: (inout StateReader) throws(StateFormatError) -> T) throws(StateFormatError) -> T? {
        switch try byte() {
        case 0: return nil
        case 1: return try read(&self)
        case let other: throw StateFormatError(reason: "bad optional flag \(other)")
        }
    }
}

extension CachedPhoto {
    /// Stable codes for the formats (never reorder).
    private static let formats: [SourceFormat] = [.jpeg, .png, .gif, .webp, .heif, .tiff, .raw, .video, .jxl]
    private static let dateSources: [CaptureDateSource] = [.original, .digitized, .modified, .fileTime, .exportRecord]
    private static let serviceStatuses: [ServiceStatus] = [.trashed, .archived, .hidden, .recentlyDeleted]

    func write(to writer: inout StateWriter) {
        writer.int(size)
        writer.int(modified)
        writer.contentHash(contentHash)
        writer.optional(clip) { w, clip in
            w.int(clip.size)
            w.int(clip.modified)
            // An unreadable clip's hash is written as no digits.
            if let hash = clip.contentHash { w.contentHash(hash) } else { w.string("") }
            w.byte(clip.belongsToStill ? 1 : 0)
        }
        writer.string(sidecarStamp)
        // One byte of flags (older states wrote 0 or 1 for the first alone).
        writer.byte((peopleKept ? 1 : 0) | (facesFound ? 2 : 0))
        writer.byte(placeKept ? 1 : 0)
        writer.optional(looks) { w, looks in
            w.int(Int64(bitPattern: looks.hash))
            w.int(Int64(looks.sharpness))
            looks.withPlaceholder { bytes in
                w.int(bytes.count)
                w.raw(bytes)
            }
        }
        if looks != nil { writer.int(Int64(bitPattern: looksKey)) }
        Self.write(metadata, to: &writer)
    }

    /// The metadata's bytes: last in an entry, so its digest is made from
    /// the bytes as read (`metadataDigest`), with no encoding again.
    static func write(_ m: PhotoMetadata, to writer: inout StateWriter) {
        writer.byte(UInt8(Self.formats.firstIndex(of: m.format)!))
        writer.int(m.storedSize.width)
        writer.int(m.storedSize.height)
        writer.byte(UInt8(m.orientation.rawValue))
        writer.int(m.captureDate.wallClockSeconds)
        writer.optional(m.captureDate.utcOffsetSeconds) { $0.int($1) }
        writer.byte(UInt8(Self.dateSources.firstIndex(of: m.captureDate.source)!))
        writer.optional(m.camera.make) { $0.string($1) }
        writer.optional(m.camera.model) { $0.string($1) }
        writer.optional(m.camera.lens) { $0.string($1) }
        writer.optional(m.camera.focalLength) { $0.double($1) }
        writer.optional(m.camera.fNumber) { $0.double($1) }
        writer.optional(m.camera.exposureTime) { $0.double($1) }
        writer.optional(m.camera.iso) { $0.int($1) }
        writer.int(m.frameCount)
        writer.optional(m.motion) { Self.write($1, to: &$0) }
        writer.optional(m.embeddedClip) { $0.int($1.lowerBound); $0.int($1.upperBound) }
        let words = m.words
        writer.optional(words.title) { $0.string($1) }
        writer.optional(words.caption) { $0.string($1) }
        writer.int(words.keywords.count)
        for keyword in words.keywords { writer.string(keyword) }
        writer.optional(words.rating) { $0.int($1) }
        writer.int(words.people.count)
        for name in words.people { writer.string(name) }
        writer.int(words.faces.count)
        for face in words.faces {
            writer.string(face.name)
            writer.double(face.area.x)
            writer.double(face.area.y)
            writer.double(face.area.width)
            writer.double(face.area.height)
        }
        writer.optional(words.serviceStatus) { $0.byte(UInt8(Self.serviceStatuses.firstIndex(of: $1)!)) }
        writer.optional(m.burstIdentifier) { $0.string($1) }
        writer.optional(m.place) { w, place in
            w.string(place.name)
            w.string(place.region)
            w.string(place.country)
            w.string(place.countryCode)
            w.int(Int(place.latitudeE5))
            w.int(Int(place.longitudeE5))
        }
    }

    /// A digest of `metadata` as the state keeps it (no GPS, people and
    /// place only when published): what page fingerprints hash for an
    /// item's metadata, from its bytes, not through an `Encoder`.
    static func digest(of metadata: PhotoMetadata) -> StableHash.Digest {
        var writer = StateWriter()
        write(metadata, to: &writer)
        var hash = StableHash()
        writer.bytes.withUnsafeBytes { hash.update($0) }
        return hash.digest()
    }

    private static func write(_ date: CaptureDate, to writer: inout StateWriter) {
        writer.int(date.wallClockSeconds)
        writer.optional(date.utcOffsetSeconds) { $0.int($1) }
        writer.byte(UInt8(dateSources.firstIndex(of: date.source)!))
    }

    private static func readDate(_ reader: inout StateReader) throws(StateFormatError) -> CaptureDate {
        let wallClock = try reader.int()
        let offset = try reader.optional { (r: inout StateReader) throws(StateFormatError) in Int(try r.int()) }
        let sourceCode = Int(try reader.byte())
        guard sourceCode < dateSources.count else { throw StateFormatError(reason: "bad date source") }
        return CaptureDate(wallClockSeconds: wallClock, utcOffsetSeconds: offset, source: dateSources[sourceCode])
    }

    private static func write(_ facts: VideoFacts, to writer: inout StateWriter) {
        writer.double(facts.duration)
        writer.int(facts.storedSize.width)
        writer.int(facts.storedSize.height)
        writer.int(facts.rotation)
        writer.string(facts.videoCodec)
        writer.string(facts.pixelFormat)
        writer.int(facts.bitDepth)
        writer.optional(facts.colorTransfer) { $0.string($1) }
        writer.optional(facts.profile) { $0.string($1) }
        writer.optional(facts.audioCodec) { $0.string($1) }
        writer.optional(facts.captureDate) { write($1, to: &$0) }
        writer.optional(facts.contentIdentifier) { $0.string($1) }
        writer.optional(facts.camera.make) { $0.string($1) }
        writer.optional(facts.camera.model) { $0.string($1) }
    }

    private static func readVideoFacts(_ reader: inout StateReader) throws(StateFormatError) -> VideoFacts {
        func text(_ r: inout StateReader) throws(StateFormatError) -> String { try r.string() }
        let duration = try reader.double()
        let width = try reader.natural(), height = try reader.natural()
        let rotation = try reader.natural()
        let codec = try reader.string(), pixelFormat = try reader.string()
        let depth = try reader.natural()
        var facts = VideoFacts(duration: duration, storedSize: PixelSize(width: width, height: height), rotation: rotation,
                               videoCodec: codec, pixelFormat: pixelFormat, bitDepth: depth,
                               colorTransfer: try reader.optional(text), profile: try reader.optional(text),
                               audioCodec: try reader.optional(text),
                               captureDate: try reader.optional { (r: inout StateReader) throws(StateFormatError) in try readDate(&r) })
        facts.contentIdentifier = try reader.optional(text)
        facts.camera = CameraFacts(make: try reader.optional(text), model: try reader.optional(text))
        return facts
    }

    init(reading reader: inout StateReader) throws(StateFormatError) {
        let size = try reader.int()
        let modified = try reader.int()
        let contentHash = try reader.contentHash()
        let clip = try reader.optional { (r: inout StateReader) throws(StateFormatError) -> CachedClip in
            CachedClip(size: try r.int(), modified: try r.int(), contentHash: try r.contentHashOrNone(), belongsToStill: try r.byte() == 1)
        }
        let stamp = try reader.string()
        let flags = try reader.byte()
        let keptPlace = try reader.byte() == 1
        let looks = try reader.optional { (r: inout StateReader) throws(StateFormatError) -> PictureLooks in
            let hash = UInt64(bitPattern: try r.int()), sharpness = try r.int()
            guard (0...Int64(UInt32.max)).contains(sharpness) else { throw StateFormatError(reason: "bad sharpness") }
            let length = try r.count()
            guard length <= PictureLooks.maximumPlaceholder else { throw StateFormatError(reason: "a placeholder of \(length) bytes") }
            var placeholder: [UInt8] = []
            placeholder.reserveCapacity(length)
            for _ in 0..<length { placeholder.append(try r.byte()) }
            return PictureLooks(hash: hash, sharpness: UInt32(sharpness), placeholder: placeholder)
        }
        let looksKey = looks == nil ? 0 : UInt64(bitPattern: try reader.int())
        let start = reader.position
        let metadata = try Self.readMetadata(&reader)
        self.init(size: size, modified: modified, contentHash: contentHash, metadata: metadata, clip: clip, sidecarStamp: stamp,
                  keepPeople: flags & 1 != 0, keepPlace: keptPlace, metadataDigest: reader.digest(from: start))
        facesFound = flags & 2 != 0
        self.looks = looks
        self.looksKey = looksKey
    }

    static func readMetadata(_ reader: inout StateReader) throws(StateFormatError) -> PhotoMetadata {
        let formatCode = Int(try reader.byte())
        guard formatCode < Self.formats.count else { throw StateFormatError(reason: "bad format") }
        let width = try reader.natural(), height = try reader.natural()
        guard let orientation = Orientation(rawValue: Int(try reader.byte())) else { throw StateFormatError(reason: "bad orientation") }
        let wallClock = try reader.int()
        let offset = try reader.optional { (r: inout StateReader) throws(StateFormatError) in Int(try r.int()) }
        let sourceCode = Int(try reader.byte())
        guard sourceCode < Self.dateSources.count else { throw StateFormatError(reason: "bad date source") }
        func text(_ r: inout StateReader) throws(StateFormatError) -> String { try r.string() }
        func number(_ r: inout StateReader) throws(StateFormatError) -> Double { try r.double() }
        let camera = CameraFacts(make: try reader.optional(text), model: try reader.optional(text), lens: try reader.optional(text),
                                 focalLength: try reader.optional(number), fNumber: try reader.optional(number),
                                 exposureTime: try reader.optional(number),
                                 iso: try reader.optional { (r: inout StateReader) throws(StateFormatError) in Int(try r.int()) })
        let frameCount = try reader.natural()
        var metadata = PhotoMetadata(format: Self.formats[formatCode], storedSize: PixelSize(width: width, height: height),
                                     orientation: orientation,
                                     captureDate: CaptureDate(wallClockSeconds: wallClock, utcOffsetSeconds: offset,
                                                              source: Self.dateSources[sourceCode]),
                                     camera: camera, frameCount: frameCount)
        metadata.motion = try reader.optional { (r: inout StateReader) throws(StateFormatError) in try Self.readVideoFacts(&r) }
        metadata.embeddedClip = try reader.optional { (r: inout StateReader) throws(StateFormatError) -> Range<Int> in
            let lower = try r.natural(), upper = try r.natural()
            guard lower <= upper else { throw StateFormatError(reason: "bad clip range") }
            return lower..<upper
        }
        var words = PhotoWords(title: try reader.optional(text), caption: try reader.optional(text))
        let keywordCount = try reader.count()
        for _ in 0..<keywordCount { words.keywords.append(try reader.string()) }
        words.rating = try reader.optional { (r: inout StateReader) throws(StateFormatError) in max(-1, min(5, Int(try r.int()))) }
        let peopleCount = try reader.count()
        for _ in 0..<peopleCount { words.people.append(try reader.string()) }
        let faceCount = try reader.count()
        for _ in 0..<faceCount {
            let name = try reader.string()
            let area = NormalizedRect(x: try reader.double(), y: try reader.double(), width: try reader.double(), height: try reader.double())
            guard area.flaw == nil else { throw StateFormatError(reason: "bad face region") }
            words.faces.append(FaceRegion(name: name, area: area))
        }
        words.serviceStatus = try reader.optional { (r: inout StateReader) throws(StateFormatError) -> ServiceStatus in
            let code = Int(try r.byte())
            guard code < Self.serviceStatuses.count else { throw StateFormatError(reason: "bad service status") }
            return Self.serviceStatuses[code]
        }
        metadata.words = words
        metadata.burstIdentifier = try reader.optional(text)
        metadata.place = try reader.optional { (r: inout StateReader) throws(StateFormatError) -> Place in
            let name = try r.string(), region = try r.string(), country = try r.string(), code = try r.string()
            let latitude = try r.int(), longitude = try r.int()
            guard abs(latitude) <= 9_000_000, abs(longitude) <= 18_000_000 else { throw StateFormatError(reason: "bad place position") }
            return Place(name: name, region: region, country: country, countryCode: code,
                         latitudeE5: Int32(latitude), longitudeE5: Int32(longitude))
        }
        return metadata
    }
}
