/// A face the build machine found in a photo (`faces: auto`): where it is in
/// the upright picture, how sure the detector was, and its descriptor, which
/// places photos of one person near each other. Kept in the state folder by
/// the photo's content hash; never published.
public struct FoundFace: Hashable, Sendable {
    /// The face's box in the upright picture, normalised to 0…1.
    public var box: NormalizedRect
    /// The detector's confidence (HOG: above 0; most clear frontal faces
    /// score above 0.5).
    public var score: Float
    /// The box's shorter side in the pixels it was found in.
    public var pixels: Int
    /// The face's descriptor, `FaceDescriptor.length` values.
    public var descriptor: FaceDescriptor

    public init(box: NormalizedRect, score: Float, pixels: Int, descriptor: FaceDescriptor) {
        self.box = box
        self.score = score
        self.pixels = pixels
        self.descriptor = descriptor
    }
}

/// A face's 128 values, held as half-precision floats (256 bytes, not 512:
/// a library of 100,000 faces keeps all of them; their rounding moves a
/// distance by a few thousandths, against a threshold of 0.5). Two faces'
/// distance is the euclidean one (`FaceGrouping`'s index measures it).
public struct FaceDescriptor: Hashable, Sendable {
    public static let length = 128
    /// The values' bit patterns (IEEE 754 binary16).
    public private(set) var halves: [UInt16]

    public init(_ values: [Float]) {
        precondition(values.count == Self.length, "a face descriptor has \(Self.length) values")
        halves = values.map { Float16($0).bitPattern }
    }

    /// From stored bit patterns; nil when there are not `length` of them.
    public init?(halves: [UInt16]) {
        guard halves.count == Self.length else { return nil }
        self.halves = halves
    }

    public var values: [Float] { halves.map { Float(Float16(bitPattern: $0)) } }
}
