import GalleryCore
/// The picture sizes the coded streams of a HEIF declare, read with bounds
/// checks: the SPS in each `hvcC` (HEVC), the AV1 sequence header in each
/// `av1C` and at the start of each `av01` item's data (libheif hands the
/// decoder both, and dav1d sizes its buffers by the sequence header's
/// maximum frame size: a 49×32 AVIF asked it for 3.2 GB, found by FuzzHEIF),
/// and each `grid` item's canvas.
///
/// A stream larger than `HEIFSizeRule` allows is refused before decoding.
public enum HEIFCodedSize {
    /// Why the file's streams or grids declare more than its header allows,
    /// or nil; files without the boxes pass (libheif then refuses them).
    /// Checked by the metadata read and again by the decoder, which may be
    /// handed a file the metadata read never saw.
    public static func violation(_ bytes: UnsafeRawBufferPointer) -> String? {
        let r = ByteReader(bytes: bytes)
        // meta is a full box: 4 bytes of version and flags before its children.
        guard let meta = child("meta", in: 0..<r.count, r), meta.count >= 4 else { return nil }
        if let (type, item) = referenceCycle(r, meta: (meta.lowerBound + 4)..<meta.upperBound) {
            return "HEIF item \(item) is built from itself (a cycle of '\(type)' references)"
        }
        guard let iprp = child("iprp", in: (meta.lowerBound + 4)..<meta.upperBound, r),
              let ipco = child("ipco", in: iprp, r) else { return nil }
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
            } else if r.matches(offset + 4, "av1C"), body.count > 4, let obus = r.slice(body.lowerBound + 4, body.count - 4),
                      let size = av1Size(Array(obus)) {
                coded.append(size)
            }
            offset += size
        }
        coded += itemSizes(r, meta: (meta.lowerBound + 4)..<meta.upperBound)
        // Each dimension on its own: a 17456x32 header must not allow a
        // square canvas (found by FuzzHEIF: a grid asking for 767 MB).
        let allowedWidth = HEIFSizeRule.allowedSide(forHeaderSide: largest.width)
        let allowedHeight = HEIFSizeRule.allowedSide(forHeaderSide: largest.height)
        for size in coded where size.width > allowedWidth || size.height > allowedHeight {
            return "HEIF stream declares a \(size.width)x\(size.height) picture but its header says at most "
                + "\(largest.width)x\(largest.height)"
        }
        return nil
    }

    /// The sizes the items' own data declares: each `grid` item's canvas
    /// (its descriptor, ISO/IEC 23008-12 6.6.2.3) and each `av01` item's
    /// sequence header, found through `iinf` (item types) and `iloc` (where
    /// each item's data is: in `idat`, or at file offsets).
    static func itemSizes(_ r: ByteReader, meta: Range<Int>) -> [(width: Int, height: Int)] {
        var found: [(width: Int, height: Int)] = []
        for item in items(of: ["grid", "av01"], r, meta: meta) {
            guard let first = item.extents.first else { continue }
            if item.type == "grid" {
                // Descriptor: version, flags (bit 0: 32-bit sizes), rows-1, columns-1, width, height.
                guard let flags = r.u8(first.lowerBound + 1) else { continue }
                let wide = flags & 1 == 1
                let width = wide ? r.u32be(first.lowerBound + 4) : r.u16be(first.lowerBound + 4)
                let height = wide ? r.u32be(first.lowerBound + 8) : r.u16be(first.lowerBound + 6)
                if let width, let height { found.append((width, height)) }
            } else {
                // The decoder is handed the extents joined: a sequence header
                // comes before the frame, within the first few hundred bytes.
                var data: [UInt8] = []
                for extent in item.extents where data.count < av1HeaderWindow {
                    let length = min(extent.count, av1HeaderWindow - data.count)
                    guard let bytes = r.slice(extent.lowerBound, length) else { break }
                    data += bytes
                }
                if let size = av1Size(data) { found.append(size) }
            }
        }
        return found
    }

    /// How much of an `av01` item's data is searched for its sequence header.
    static let av1HeaderWindow = 4096

    /// The items of the given types with their data's extents (absolute
    /// offsets in the file; an extent of length 0 runs to the end of its
    /// file or `idat`, as libheif reads it).
    static func items(of types: Set<String>, _ r: ByteReader, meta: Range<Int>) -> [(type: String, extents: [Range<Int>])] {
        guard let iinf = child("iinf", in: meta, r), let iloc = child("iloc", in: meta, r) else { return [] }
        // iinf: version, flags, entry count (16 or 32 bits), then infe boxes (version 2: 16-bit IDs, 3: 32-bit).
        guard let iinfVersion = r.u8(iinf.lowerBound) else { return [] }
        var offset = iinf.lowerBound + 4 + (iinfVersion == 0 ? 2 : 4)
        var wanted: [Int: String] = [:]
        var entries = 0
        while offset + 8 <= iinf.upperBound, entries < 65_536 {
            entries += 1
            guard let size = r.u32be(offset), size >= 8, offset + size <= iinf.upperBound else { break }
            if r.matches(offset + 4, "infe"), let version = r.u8(offset + 8), version >= 2 {
                let idAt = offset + 12, idSize = version == 2 ? 2 : 4
                if let id = idSize == 2 ? r.u16be(idAt) : r.u32be(idAt),
                   let type = types.first(where: { r.matches(idAt + idSize + 2, $0) }) { wanted[id] = type }
            }
            offset += size
        }
        guard !wanted.isEmpty, let version = r.u8(iloc.lowerBound), version <= 2,
              let sizes = r.u8(iloc.lowerBound + 4), let more = r.u8(iloc.lowerBound + 5) else { return [] }
        let offsetSize = sizes >> 4, lengthSize = sizes & 0xF, baseSize = more >> 4, indexSize = version >= 1 ? more & 0xF : 0
        func value(_ at: Int, _ width: Int) -> Int? {
            switch width {
            case 0: return 0
            case 4: return r.u32be(at)
            case 8: guard let high = r.u32be(at), let low = r.u32be(at + 4), high < 1 << 20 else { return nil }; return high << 32 | low
            default: return nil
            }
        }
        let idat = child("idat", in: meta, r)
        var p = iloc.lowerBound + 6
        guard let count = version < 2 ? r.u16be(p) : r.u32be(p) else { return [] }
        p += version < 2 ? 2 : 4
        var found: [(type: String, extents: [Range<Int>])] = []
        for _ in 0..<min(count, 65_536) {
            guard let id = version < 2 ? r.u16be(p) : r.u32be(p) else { break }
            p += version < 2 ? 2 : 4
            var method = 0
            if version >= 1 { guard let m = r.u16be(p) else { break }; method = m & 0xF; p += 2 }
            p += 2  // data reference index
            guard let base = value(p, baseSize), let extentCount = r.u16be(p + baseSize) else { break }
            p += baseSize + 2
            // Offsets are from the file's start (method 0) or idat's payload (method 1).
            let space: Range<Int>? = method == 0 ? 0..<r.count : (method == 1 ? idat : nil)
            var extents: [Range<Int>] = []
            for _ in 0..<extentCount {
                p += indexSize
                guard let extentOffset = value(p, offsetSize), let length = value(p + offsetSize, lengthSize) else { return found }
                p += offsetSize + lengthSize
                if let space, extents.count < 64 {
                    let start = space.lowerBound + base + extentOffset
                    let end = length == 0 ? space.upperBound : start + length
                    extents.append(start..<max(start, end))
                }
            }
            if let type = wanted[id], !extents.isEmpty { found.append((type, extents)) }
        }
        return found
    }

    /// The first item that reaches itself through the `iref` references (a
    /// grid whose tile is the grid, two items built from each other), with
    /// the reference type, or nil. libheif 1.15 follows such references
    /// without end and overflows the stack (found by FuzzHEIF: a `dimg` from
    /// item 2 to item 2), which no `catch` can stop: it is refused first.
    static func referenceCycle(_ r: ByteReader, meta: Range<Int>) -> (type: String, item: Int)? {
        guard let iref = child("iref", in: meta, r), let version = r.u8(iref.lowerBound) else { return nil }
        let idSize = version == 0 ? 2 : 4
        func id(_ at: Int) -> Int? { idSize == 2 ? r.u16be(at) : r.u32be(at) }
        var edges: [Int: [(to: Int, type: String)]] = [:]
        var offset = iref.lowerBound + 4
        var references = 0
        // A reference box whose size runs past `iref` is read up to iref's
        // end, as libheif 1.15 reads it (found by FuzzHEIF: a `dimg` of item 2
        // to item 2 declaring 171 bytes in an iref of 40 went unseen by a
        // strict walk, and libheif followed it until the stack overflowed).
        while references < 65_536, let box = referenceBox(at: offset, in: iref, r) {
            var typeBytes: [UInt8] = []
            for i in 0..<4 { if let byte = r.u8(box.type + i) { typeBytes.append(UInt8(byte)) } }
            let type = String(decoding: typeBytes, as: UTF8.self)
            let body = box.payload
            if let from = id(body.lowerBound), let count = r.u16be(body.lowerBound + idSize) {
                for index in 0..<count {
                    let at = body.lowerBound + idSize + 2 + index * idSize
                    guard at + idSize <= body.upperBound, let to = id(at) else { break }
                    edges[from, default: []].append((to, type))
                    references += 1
                }
            }
            offset = body.upperBound
        }
        // Depth-first search with colours, iteratively (a hostile file must
        // not overflow our stack either).
        var state: [Int: Int] = [:]  // 1: on the current path, 2: done
        for start in edges.keys.sorted() where state[start] == nil {
            var stack: [(item: Int, next: Int)] = [(start, 0)]
            state[start] = 1
            while let top = stack.last {
                let out = edges[top.item] ?? []
                if top.next < out.count {
                    stack[stack.count - 1].next += 1
                    let (to, type) = out[top.next]
                    switch state[to] {
                    case 1: return (type, to)
                    case 2: continue
                    default:
                        state[to] = 1
                        stack.append((to, 0))
                    }
                } else {
                    state[top.item] = 2
                    stack.removeLast()
                }
            }
        }
        return nil
    }

    /// A box of `iref`: as `box`, but one whose size overruns `range` ends
    /// with `range`, as libheif reads it.
    static func referenceBox(at offset: Int, in range: Range<Int>, _ r: ByteReader) -> (type: Int, payload: Range<Int>)? {
        if let whole = box(at: offset, in: range, r) { return whole }
        guard offset >= range.lowerBound, offset + 8 <= range.upperBound, let size32 = r.u32be(offset), size32 >= 8 else { return nil }
        return (offset + 4, (offset + 8)..<range.upperBound)
    }

    /// The payload range of the first box of `type` among the boxes in `range`.
    static func child(_ type: String, in range: Range<Int>, _ r: ByteReader) -> Range<Int>? {
        var offset = range.lowerBound
        while let box = box(at: offset, in: range, r) {
            if r.matches(offset + 4, type) { return box.payload }
            offset = box.payload.upperBound
        }
        return nil
    }

    /// The box at `offset` inside `range`: its payload, or nil when no whole
    /// box starts there. ISO BMFF sizes: 32 bits; 1, a 64-bit size after the
    /// type (16-byte header); 0, the rest of `range`. libheif reads all three,
    /// so a check that stopped at a 64-bit size would let a hostile file hide
    /// its boxes behind one (a `free` box before `meta` skipped every check).
    static func box(at offset: Int, in range: Range<Int>, _ r: ByteReader) -> (type: Int, payload: Range<Int>)? {
        guard offset >= range.lowerBound, offset + 8 <= range.upperBound, let size32 = r.u32be(offset) else { return nil }
        let header: Int, size: Int
        switch size32 {
        case 0:
            header = 8; size = range.upperBound - offset
        case 1:
            guard let high = r.u32be(offset + 8), let low = r.u32be(offset + 12), high < 1 << 20 else { return nil }
            header = 16; size = high << 32 | low
        default:
            header = 8; size = size32
        }
        guard size >= header, size <= range.upperBound - offset else { return nil }
        return (offset + 4, (offset + header)..<(offset + size))
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

extension HEIFCodedSize {
    // MARK: AV1

    /// max_frame_width/height of the first sequence header among `data`'s
    /// OBUs (AV1 5.3 and 5.5), or nil when there is none or it is cut short.
    static func av1Size(_ data: [UInt8]) -> (width: Int, height: Int)? {
        var offset = 0
        var units = 0
        while offset < data.count, units < 64 {
            units += 1
            let header = Int(data[offset])
            let type = header >> 3 & 0xF, hasExtension = header & 4 != 0, hasSize = header & 2 != 0
            offset += hasExtension ? 2 : 1
            var size = data.count - offset
            if hasSize {
                // leb128, at most 8 bytes.
                var value = 0
                var i = 0
                while true {
                    guard offset < data.count, i < 8 else { return nil }
                    let byte = Int(data[offset])
                    value |= (byte & 0x7F) << (7 * i)
                    offset += 1
                    i += 1
                    if byte & 0x80 == 0 { break }
                }
                size = value
            }
            guard size >= 0, offset <= data.count else { return nil }
            if type == 1 { return sequenceHeaderSize(Array(data[offset..<min(data.count, offset + size)])) }
            guard size <= data.count - offset else { return nil }
            offset += size
        }
        return nil
    }

    /// The maximum frame size of an AV1 sequence header OBU's payload (AV1 5.5.1).
    static func sequenceHeaderSize(_ payload: [UInt8]) -> (width: Int, height: Int)? {
        var bits = BitReader(payload)
        guard bits.skip(3), bits.skip(1), let reduced = bits.read(1) else { return nil }
        if reduced == 1 {
            guard bits.skip(5) else { return nil }  // seq_level_idx[0]
        } else {
            guard let timing = bits.read(1) else { return nil }
            var decoderModel = 0
            var bufferDelayLength = 0
            if timing == 1 {
                guard bits.skip(64), let equal = bits.read(1) else { return nil }
                // uvlc() (AV1 4.10.3) reads as ue(v) does; past 31 leading zeros dav1d refuses it too.
                if equal == 1 { guard bits.exponentialGolomb() != nil else { return nil } }
                guard let model = bits.read(1) else { return nil }
                decoderModel = model
                if model == 1 {
                    guard let length = bits.read(5), bits.skip(32 + 5 + 5) else { return nil }
                    bufferDelayLength = length + 1
                }
            }
            guard let initialDelay = bits.read(1), let points = bits.read(5) else { return nil }
            for _ in 0...points {
                guard bits.skip(12), let level = bits.read(5) else { return nil }
                if level > 7 { guard bits.skip(1) else { return nil } }
                if decoderModel == 1 {
                    guard let present = bits.read(1) else { return nil }
                    if present == 1 { guard bits.skip(2 * bufferDelayLength + 1) else { return nil } }
                }
                if initialDelay == 1 {
                    guard let present = bits.read(1) else { return nil }
                    if present == 1 { guard bits.skip(4) else { return nil } }
                }
            }
        }
        guard let widthBits = bits.read(4), let heightBits = bits.read(4),
              let width = bits.read(widthBits + 1), let height = bits.read(heightBits + 1) else { return nil }
        return (width + 1, height + 1)
    }
}

/// Reads bits most significant first; every read is bounds-checked.
public struct BitReader {
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
