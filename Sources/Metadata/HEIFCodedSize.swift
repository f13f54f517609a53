import GalleryCore

/// The picture sizes the HEVC streams of a HEIF declare (the SPS in each
/// `hvcC`), read with bounds checks. (An AVIF's `av1C` rarely carries its
/// sequence header; there libheif's own size limit, which the decoder caps
/// by the same rule, is the guard.)
///
/// A stream larger than `HEIFSizeRule` allows is refused before decoding.
enum HEIFCodedSize {
    /// Throws when a stream declares a picture larger than every `ispe`
    /// allows; files without the boxes pass (libheif then refuses them).
    static func check(_ bytes: UnsafeRawBufferPointer) throws(MetadataError) {
        let r = ByteReader(bytes: bytes)
        // meta is a full box: 4 bytes of version and flags before its children.
        guard let meta = child("meta", in: 0..<r.count, r), meta.count >= 4,
              let iprp = child("iprp", in: (meta.lowerBound + 4)..<meta.upperBound, r),
              let ipco = child("ipco", in: iprp, r) else { return }
        var largest = (width: 0, height: 0)
        var coded: [(width: Int, height: Int)] = []
        var offset = ipco.lowerBound
        var boxes = 0
        while offset + 8 <= ipco.upperBound, boxes < 10_000 {
            boxes += 1
            guard let size = r.u32be(offset), size >= 8, offset + size <= ipco.upperBound else { break }
            let body = (offset + 8)..<(offset + size)
            if r.matches(offset + 4, "ispe"), let w = r.u32be(body.lowerBound + 4), let h = r.u32be(body.lowerBound + 8) {
                largest = (max(largest.width, w), max(largest.height, h))
            } else if r.matches(offset + 4, "hvcC"), let size = hevcSize(r, body) {
                coded.append(size)
            }
            offset += size
        }
        let allowed = HEIFSizeRule.allowedSide(forHeaderSide: max(largest.width, largest.height))
        for size in coded where max(size.width, size.height) > allowed {
            throw .malformed("HEIF stream declares a \(size.width)x\(size.height) picture but its header says at most "
                             + "\(largest.width)x\(largest.height)")
        }
    }

    /// The payload range of the first box of `type` among the boxes in `range`.
    static func child(_ type: String, in range: Range<Int>, _ r: ByteReader) -> Range<Int>? {
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound {
            guard let size = r.u32be(offset), size >= 8, offset + size <= range.upperBound else { return nil }
            if r.matches(offset + 4, type) { return (offset + 8)..<(offset + size) }
            offset += size
        }
        return nil
    }

    // MARK: HEVC

    /// Width and height from the first SPS in an `hvcC` record.
    static func hevcSize(_ r: ByteReader, _ body: Range<Int>) -> (width: Int, height: Int)? {
        guard body.count > 23, let arrays = r.u8(body.lowerBound + 22) else { return nil }
        var offset = body.lowerBound + 23
        for _ in 0..<arrays {
            guard let type = r.u8(offset), let count = r.u16be(offset + 1) else { return nil }
            offset += 3
            for _ in 0..<count {
                guard let length = r.u16be(offset), offset + 2 + length <= body.upperBound else { return nil }
                if type & 0x3F == 33, let nal = r.slice(offset + 2, length) { return spsSize(Array(nal)) }
                offset += 2 + length
            }
        }
        return nil
    }

    /// pic_width/height_in_luma_samples of an HEVC SPS NAL unit (ITU-T H.265 7.3.2.2).
    static func spsSize(_ nal: [UInt8]) -> (width: Int, height: Int)? {
        // Emulation prevention: 00 00 03 → 00 00.
        var rbsp: [UInt8] = []
        rbsp.reserveCapacity(nal.count)
        var zeros = 0
        for byte in nal.dropFirst(2) {
            if zeros >= 2, byte == 3 { zeros = 0; continue }
            zeros = byte == 0 ? zeros + 1 : 0
            rbsp.append(byte)
        }
        var bits = BitReader(rbsp)
        guard bits.skip(4), let subLayers = bits.read(3), bits.skip(1) else { return nil }
        guard bits.skip(96) else { return nil }  // general profile, tier and level
        var profilePresent: [Bool] = [], levelPresent: [Bool] = []
        for _ in 0..<subLayers {
            guard let p = bits.read(1), let l = bits.read(1) else { return nil }
            profilePresent.append(p == 1)
            levelPresent.append(l == 1)
        }
        if subLayers > 0 { guard bits.skip(2 * (8 - subLayers)) else { return nil } }
        for i in 0..<subLayers {
            guard bits.skip(profilePresent[i] ? 88 : 0), bits.skip(levelPresent[i] ? 8 : 0) else { return nil }
        }
        guard bits.exponentialGolomb() != nil, let chroma = bits.exponentialGolomb() else { return nil }
        if chroma == 3 { guard bits.skip(1) else { return nil } }
        guard let width = bits.exponentialGolomb(), let height = bits.exponentialGolomb() else { return nil }
        return (width, height)
    }
}

/// Reads bits most significant first; every read is bounds-checked.
struct BitReader {
    let bytes: [UInt8]
    var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func read(_ count: Int) -> Int? {
        guard count >= 0, count <= 32, position + count <= bytes.count * 8 else { return nil }
        var value = 0
        for _ in 0..<count {
            value = value << 1 | Int(bytes[position >> 3] >> (7 - UInt8(position & 7)) & 1)
            position += 1
        }
        return value
    }

    mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, position + count <= bytes.count * 8 else { return false }
        position += count
        return true
    }

    /// ue(v).
    mutating func exponentialGolomb() -> Int? {
        var zeros = 0
        while true {
            guard let bit = read(1) else { return nil }
            if bit == 1 { break }
            zeros += 1
            if zeros > 31 { return nil }
        }
        guard let rest = read(zeros) else { return nil }
        return (1 << zeros) - 1 + rest
    }
}
