/// What a camera's file name says of a burst: phones name each frame of a
/// burst so that the frames share a part and differ by a sequence number,
/// and mark the frame the camera picked as the cover. The schemes, from
/// real files (the cases photo importers' issues collect):
///
/// - Motorola, Fairphone, Oppo, Honor, Google Camera (`…_BURST` then a
///   sequence of up to four digits): `IMG_20180914_094602055_BURST000_COVER.jpg`,
///   `IMG20250208154709_BURST001.jpg`: the burst is the name before `_BURST`;
/// - Huawei/Nexus, Pixel XL, Nothing (`<serial>IMG_<serial>_BURST<instant>`):
///   `00015IMG_00015_BURST20171111030039_COVER.jpg`,
///   `00001IMG_00001_BURST1713793240432_COVER.jpg`: the burst is the instant;
/// - Sony Xperia, its predictive capture too (`DSC_<serial>_BURST<instant>`):
///   `DSC_0052_BURST20230709220904977_COVER.JPG`, `DSCPDC_0000_BURST20180224164317669.JPG`;
/// - Samsung (`<date>_<time>_<three digits>`): `20231207_101605_001.jpg`;
///   it marks no cover in the name.
///
/// A name none of these fit is no burst by name (a maker note or the
/// pixels may still say so).
public struct BurstName: Equatable, Sendable {
    /// The same for every frame of one burst (letter case folded), and only for them.
    public var key: String
    /// The frame's place in the burst.
    public var index: Int
    /// The frame the camera picked as the burst's cover (`_COVER`).
    public var isCover: Bool

    public init(key: String, index: Int, isCover: Bool) {
        self.key = key
        self.index = index
        self.isCover = isCover
    }

    /// The burst a file name says its file is a frame of, or nil.
    public static func parse(_ fileName: String) -> BurstName? {
        var stem = Substring(fileName.lowercased())
        if let dot = stem.lastIndex(of: "."), dot != stem.startIndex { stem = stem[..<dot] }
        var isCover = false
        if stem.hasSuffix("_cover") {
            stem = stem.dropLast(6)
            isCover = true
        }
        if let marker = stem.range(of: "_burst", options: .backwards) {
            let digits = stem[marker.upperBound...]
            let before = stem[..<marker.lowerBound]
            guard !digits.isEmpty, digits.allSatisfy(\.isASCIINumber) else { return nil }
            if digits.count <= 4 {
                // A sequence number: the burst is everything before it.
                guard !before.isEmpty, let index = Int(digits) else { return nil }
                return BurstName(key: String(before), index: index, isCover: isCover)
            }
            // An instant: the burst is it (and the camera's prefix); the frame's serial is the last run of digits before it.
            guard digits.count >= 10, let serial = lastDigits(of: before), let index = Int(serial.digits) else { return nil }
            let prefix = before[..<serial.start].filter { !$0.isASCIINumber }
            return BurstName(key: prefix + "_burst" + digits, index: index, isCover: isCover)
        }
        // Samsung: eight digits, six digits, three digits.
        let parts = stem.split(separator: "_", omittingEmptySubsequences: false)
        if parts.count == 3, parts[0].count == 8, parts[1].count == 6, parts[2].count == 3,
           parts.allSatisfy({ $0.allSatisfy(\.isASCIINumber) }), let index = Int(parts[2]) {
            return BurstName(key: parts[0] + "_" + parts[1], index: index, isCover: isCover)
        }
        return nil
    }

    /// The last run of ASCII digits in `text`, and where it starts.
    static func lastDigits(of text: Substring) -> (digits: Substring, start: Substring.Index)? {
        var end = text.endIndex
        while end > text.startIndex, !text[text.index(before: end)].isASCIINumber { end = text.index(before: end) }
        var start = end
        while start > text.startIndex, text[text.index(before: start)].isASCIINumber { start = text.index(before: start) }
        guard start < end, text.distance(from: start, to: end) <= 6 else { return nil }
        return (text[start..<end], start)
    }
}

extension Character {
    /// 0–9 only (not other scripts' digits, which no camera writes in a name).
    public var isASCIINumber: Bool { isASCII && isNumber }
}
