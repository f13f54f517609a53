import Foundation

/// A rectangle in fractions of an image's width and height (0…1 on each
/// axis, origin top left): how XMP face regions are written, and how the
/// site places an outline over a picture of any size.
public struct NormalizedRect: Hashable, Sendable, Codable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// A rectangle given by its centre (MWG's `stArea:x`/`y` are the centre).
    public init(centreX: Double, centreY: Double, width: Double, height: Double) {
        self.init(x: centreX - width / 2, y: centreY - height / 2, width: width, height: height)
    }

    /// Why a rectangle read from a file cannot be a region, or nil when it can:
    /// finite, of positive size, and inside the image (a region reaching up to
    /// 5 % past an edge is clipped: taggers round, and draw boxes to the edge).
    public var flaw: FaceRegion.Flaw? {
        guard x.isFinite, y.isFinite, width.isFinite, height.isFinite else { return .notANumber }
        guard width > 0, height > 0 else { return .emptySize }
        let slack = 0.05
        guard x >= -slack, y >= -slack, x + width <= 1 + slack, y + height <= 1 + slack, width <= 1 + slack, height <= 1 + slack else {
            return .outsideImage
        }
        return nil
    }

    /// This rectangle clipped to the image (0…1).
    public var clipped: NormalizedRect {
        if x >= 0, y >= 0, x + width <= 1, y + height <= 1 { return self }
        let left = min(1, max(0, x)), top = min(1, max(0, y))
        let right = min(1, max(0, x + width)), bottom = min(1, max(0, y + height))
        return NormalizedRect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// The same region of the picture once `orientation` has turned it upright.
    /// Regions are written for the image as stored (MWG Guidelines 2.0, 5.9):
    /// the rotation that makes the pixels upright applies to them too.
    public func upright(_ orientation: Orientation) -> NormalizedRect {
        // Two opposite corners mapped; the box is the rectangle between them.
        let a = Self.uprightPoint(x, y, orientation), b = Self.uprightPoint(x + width, y + height, orientation)
        return NormalizedRect(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(a.x - b.x), height: abs(a.y - b.y))
    }

    /// The region of the stored picture that `orientation` turns into this
    /// upright one: how a face found in upright pixels is kept beside the
    /// regions taggers wrote (`upright` brings it back).
    public func stored(_ orientation: Orientation) -> NormalizedRect {
        let inverse: Orientation
        switch orientation {
        case .right: inverse = .left
        case .left: inverse = .right
        default: inverse = orientation  // mirrors, half turns and the diagonals undo themselves
        }
        return upright(inverse)
    }

    /// Where a point of the stored image (in fractions) is seen upright: the
    /// inverse of `Orientation.sourcePixel`, on fractions instead of pixels.
    static func uprightPoint(_ x: Double, _ y: Double, _ orientation: Orientation) -> (x: Double, y: Double) {
        switch orientation {
        case .up: return (x, y)
        case .upMirrored: return (1 - x, y)
        case .down: return (1 - x, 1 - y)
        case .downMirrored: return (x, 1 - y)
        case .leftMirrored: return (y, x)
        case .right: return (1 - y, x)
        case .rightMirrored: return (1 - y, 1 - x)
        case .left: return (y, 1 - x)
        }
    }

    /// The rectangle in pixels of a picture of `size`, rounded outwards and
    /// kept inside it (at least one pixel each way).
    public func pixels(in size: PixelSize) -> (x: Int, y: Int, width: Int, height: Int) {
        let w = Double(size.width), h = Double(size.height)
        let left = max(0, min(size.width - 1, Int((x * w).rounded(.down))))
        let top = max(0, min(size.height - 1, Int((y * h).rounded(.down))))
        let right = max(left + 1, min(size.width, Int(((x + width) * w).rounded(.up))))
        let bottom = max(top + 1, min(size.height, Int(((y + height) * h).rounded(.up))))
        return (left, top, right - left, bottom - top)
    }

    /// The square a round avatar is cut from: centred on this face, its side
    /// `scale` times the face's longer side in pixels of a picture of
    /// `size`, moved (not shrunk) to stay inside the picture where it can,
    /// and as a fraction of that picture again.
    public func avatarSquare(in size: PixelSize, scale: Double = 1.6) -> NormalizedRect {
        let w = Double(size.width), h = Double(size.height)
        let side = min(min(w, h), max(1, max(width * w, height * h) * scale))
        let centreX = (x + width / 2) * w, centreY = (y + height / 2) * h
        let left = min(max(0, centreX - side / 2), w - side), top = min(max(0, centreY - side / 2), h - side)
        return NormalizedRect(x: left / w, y: top / h, width: side / w, height: side / h)
    }
}

/// A face a photographer's tool tagged in a photo (an XMP region): the name
/// it was given and where it is, in fractions of the image as stored.
public struct FaceRegion: Hashable, Sendable, Codable {
    /// The name as written (cleaned: no control characters, trimmed).
    public var name: String
    /// Where the face is, in the frame of the stored pixels (`upright(_:)`
    /// turns it into the frame a viewer sees).
    public var area: NormalizedRect

    public init(name: String, area: NormalizedRect) {
        self.name = name
        self.area = area
    }

    /// Why a region read from a file was not kept: the build's summary counts them by this.
    public enum Flaw: String, Sendable, Codable, CaseIterable {
        case notANumber = "not a number"
        case emptySize = "zero or negative size"
        case outsideImage = "outside the image"
        case tooMany = "more than 200 in one photo"
        case badName = "a name too long or with control characters"
    }

    /// Regions kept of one photo at most; the rest are dropped.
    public static let maximumPerPhoto = 200
    /// The longest name kept, in characters.
    public static let maximumNameLength = 200

    /// A name as a file gives it, made fit to publish: trimmed, in Unicode's
    /// composed form (NFC); nil, with the flaw, when it is empty, longer
    /// than `maximumNameLength` or holds control or format characters.
    public static func cleanName(_ raw: String) -> (name: String?, flaw: Flaw?) {
        let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping
        if trimmed.isEmpty { return (nil, nil) }
        if trimmed.count > maximumNameLength { return (nil, .badName) }
        for scalar in trimmed.unicodeScalars {
            let category = scalar.properties.generalCategory
            if category == .control || category == .format || category == .lineSeparator || category == .paragraphSeparator {
                return (nil, .badName)
            }
        }
        // Runs of spaces inside a name are one space.
        let words = trimmed.split(whereSeparator: { $0.isWhitespace })
        return (words.joined(separator: " "), nil)
    }

    /// How two spellings of one person are told apart: not at all when they
    /// differ only in letter case or Unicode form.
    public static func personKey(_ name: String) -> String {
        name.precomposedStringWithCanonicalMapping.lowercased()
    }
}

/// Regions dropped while reading, counted by why (the build's summary says how many).
public struct DroppedRegions: Hashable, Sendable, Codable {
    public var counts: [FaceRegion.Flaw: Int] = [:]
    public init() {}
    public var total: Int { counts.values.reduce(0, +) }
    public mutating func add(_ flaw: FaceRegion.Flaw, _ count: Int = 1) { counts[flaw, default: 0] += count }
    public mutating func add(_ other: DroppedRegions) { for (flaw, count) in other.counts { add(flaw, count) } }
    /// "3 outside the image, 1 zero or negative size"; "" when none.
    public var summary: String {
        FaceRegion.Flaw.allCases.compactMap { flaw in counts[flaw].map { "\($0) \(flaw.rawValue)" } }.joined(separator: ", ")
    }
}
