import Foundation
import GalleryCore

/// Turns high-bit-depth, wide-gamut or HDR pixels (as HEIF/AVIF describe them
/// with an `nclx` box: primaries, transfer function) into 8-bit sRGB, the one
/// colour space every browser shows the same.
///
/// - SDR with sRGB/BT.709 primaries: only the bit depth changes, with rounding.
/// - Other primaries (Display P3, BT.2020) without an ICC profile: converted
///   in linear light through the chromaticities libheif reports.
/// - HDR (PQ, HLG): decoded to light relative to SDR reference white (203
///   cd/m², ITU-R BT.2408), tone-mapped (identity up to a knee, then a
///   Reinhard shoulder that brings the content's peak to white, applied to the
///   largest channel so hues keep their ratios), then converted to sRGB.
///   Shown as-is, a PQ picture looks grey and flat; truncated, it loses its
///   highlights.
public struct SRGBConversion: Sendable {
    /// How the source encodes light.
    public enum Transfer: Sendable, Equatable {
        /// sRGB, BT.709 and the rest of the SDR curves.
        case sdr
        /// Already linear.
        case linear
        /// SMPTE ST 2084 (HDR10, Dolby Vision base layers, HDR AVIF).
        case pq
        /// ARIB STD-B67 Hybrid Log-Gamma (phones' HDR).
        case hlg
    }

    /// Chromaticities (x, y) of red, green, blue and white.
    public struct Primaries: Sendable, Equatable {
        public var red: SIMD2<Double>, green: SIMD2<Double>, blue: SIMD2<Double>, white: SIMD2<Double>
        public init(red: SIMD2<Double>, green: SIMD2<Double>, blue: SIMD2<Double>, white: SIMD2<Double>) {
            self.red = red
            self.green = green
            self.blue = blue
            self.white = white
        }
        /// BT.709 / sRGB.
        public static let bt709 = Primaries(red: [0.64, 0.33], green: [0.30, 0.60], blue: [0.15, 0.06], white: [0.3127, 0.3290])
        /// BT.2020 / BT.2100.
        public static let bt2020 = Primaries(red: [0.708, 0.292], green: [0.170, 0.797], blue: [0.131, 0.046], white: [0.3127, 0.3290])

        func close(to other: Primaries) -> Bool {
            let a = [red, green, blue, white], b = [other.red, other.green, other.blue, other.white]
            return zip(a, b).allSatisfy { abs($0.x - $1.x) < 0.002 && abs($0.y - $1.y) < 0.002 }
        }

        /// The matrix from linear RGB in these primaries to CIE XYZ.
        var toXYZ: [Double] {
            func xyz(_ c: SIMD2<Double>) -> SIMD3<Double> { [c.x / c.y, 1, (1 - c.x - c.y) / c.y] }
            let r = xyz(red), g = xyz(green), b = xyz(blue), w = xyz(white)
            let m = [r.x, g.x, b.x, r.y, g.y, b.y, r.z, g.z, b.z]
            guard let inverse = Self.invert(m) else { return [1, 0, 0, 0, 1, 0, 0, 0, 1] }
            let s = Self.multiply(inverse, w)
            return [r.x * s.x, g.x * s.y, b.x * s.z, r.y * s.x, g.y * s.y, b.y * s.z, r.z * s.x, g.z * s.y, b.z * s.z]
        }

        static func multiply(_ m: [Double], _ v: SIMD3<Double>) -> SIMD3<Double> {
            [m[0] * v.x + m[1] * v.y + m[2] * v.z, m[3] * v.x + m[4] * v.y + m[5] * v.z, m[6] * v.x + m[7] * v.y + m[8] * v.z]
        }

        static func multiply(_ a: [Double], _ b: [Double]) -> [Double] {
            var out = [Double](repeating: 0, count: 9)
            for i in 0..<3 { for j in 0..<3 { out[i * 3 + j] = (0..<3).reduce(0) { $0 + a[i * 3 + $1] * b[$1 * 3 + j] } } }
            return out
        }

        static func invert(_ m: [Double]) -> [Double]? {
            let det = m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) + m[2] * (m[3] * m[7] - m[4] * m[6])
            guard abs(det) > 1e-12 else { return nil }
            let d = 1 / det
            return [(m[4] * m[8] - m[5] * m[7]) * d, (m[2] * m[7] - m[1] * m[8]) * d, (m[1] * m[5] - m[2] * m[4]) * d,
                    (m[5] * m[6] - m[3] * m[8]) * d, (m[0] * m[8] - m[2] * m[6]) * d, (m[2] * m[3] - m[0] * m[5]) * d,
                    (m[3] * m[7] - m[4] * m[6]) * d, (m[1] * m[6] - m[0] * m[7]) * d, (m[0] * m[4] - m[1] * m[3]) * d]
        }
    }

    public var transfer: Transfer
    public var primaries: Primaries
    /// Largest sample value (255, 1023, 4095, …).
    public var maximumValue: Int

    /// SDR reference white in cd/m² (ITU-R BT.2408).
    static let referenceWhite = 203.0
    /// Nominal peak of HDR content, cd/m²: PQ masters and HLG displays
    /// (BT.2100's reference HLG display) are graded for 1000.
    static let contentPeak = 1000.0
    /// Relative light below which HDR is left alone.
    static let knee = 0.8

    public init(transfer: Transfer, primaries: Primaries, maximumValue: Int) {
        self.transfer = transfer
        self.primaries = primaries
        self.maximumValue = maximumValue
    }

    /// True when the samples only need their depth reduced.
    public var isDepthOnly: Bool { transfer == .sdr && primaries.close(to: .bt709) }

    /// Converts interleaved samples (`channels` 3 or 4, each `UInt16` when
    /// `maximumValue` > 255, else `UInt8`) into 8-bit sRGB RGBA.
    /// `premultiplied` alpha is undone on the way.
    public func convert(base: UnsafeRawPointer, width: Int, height: Int, rowBytes: Int, channels: Int,
                        premultiplied: Bool) -> RGBAImage {
        let wide = maximumValue > 255
        let hasAlpha = channels == 4
        let maximum = Double(maximumValue)
        if isDepthOnly {
            let half = maximumValue / 2
            return RGBAImage(width: width, height: height, hasAlpha: hasAlpha) { out in
                for y in 0..<height {
                    let row = base + y * rowBytes
                    for x in 0..<width {
                        let o = (y * width + x) * 4
                        for c in 0..<4 {
                            let v: Int
                            if c == 3, !hasAlpha { v = maximumValue } else {
                                v = wide ? Int(row.loadUnaligned(fromByteOffset: (x * channels + c) * 2, as: UInt16.self))
                                         : Int(row.load(fromByteOffset: x * channels + c, as: UInt8.self))
                            }
                            out[o + c] = UInt8(min(255, (min(v, maximumValue) * 255 + half) / maximumValue))
                        }
                        if premultiplied, hasAlpha { RGBAImage.unpremultiply(out, at: o) }
                    }
                }
            }
        }

        // Sample code → linear light (relative to SDR white), one table entry per code.
        let decode: [Float] = (0...maximumValue).map { Float(linear(Double($0) / maximum)) }
        let toSRGB = Primaries.multiply(Primaries.invert(Primaries.bt709.toXYZ) ?? [], primaries.toXYZ)
        let m = toSRGB.map(Float.init)
        let hdr = transfer == .pq || transfer == .hlg
        let peak = Float(Self.contentPeak / Self.referenceWhite), knee = Float(Self.knee)
        // Linear [0, 1] → sRGB 8-bit, 4096 steps (finer than 8-bit output anywhere on the curve that matters).
        let encodeSteps = 4096
        let encode: [UInt8] = (0...encodeSteps).map { UInt8((Self.srgbEncode(Double($0) / Double(encodeSteps)) * 255).rounded()) }
        let lumaWeights = SIMD3<Float>(0.2627, 0.6780, 0.0593)  // BT.2020, for HLG's system gamma
        return RGBAImage(width: width, height: height, hasAlpha: hasAlpha) { out in
            for y in 0..<height {
                let row = base + y * rowBytes
                for x in 0..<width {
                    func sample(_ c: Int) -> Int {
                        min(maximumValue, wide ? Int(row.loadUnaligned(fromByteOffset: (x * channels + c) * 2, as: UInt16.self))
                                               : Int(row.load(fromByteOffset: x * channels + c, as: UInt8.self)))
                    }
                    var rgb = SIMD3<Float>(decode[sample(0)], decode[sample(1)], decode[sample(2)])
                    if transfer == .hlg {
                        // HLG's OOTF (system gamma 1.2 on a 1000 cd/m² display), from scene to display light.
                        let ys = max((rgb * lumaWeights).sum(), 0)
                        rgb *= Float(Self.contentPeak / Self.referenceWhite) * (ys > 0 ? Float(pow(Double(ys), 0.2)) : 0)
                    }
                    var v = SIMD3<Float>(m[0] * rgb.x + m[1] * rgb.y + m[2] * rgb.z,
                                         m[3] * rgb.x + m[4] * rgb.y + m[5] * rgb.z,
                                         m[6] * rgb.x + m[7] * rgb.y + m[8] * rgb.z)
                    v = v.replacing(with: 0, where: v .< 0)
                    if hdr {
                        let l = v.max()
                        if l > knee {
                            let a = (l - knee) / (1 - knee), aw = (peak - knee) / (1 - knee)
                            let mapped = knee + (1 - knee) * (a * (1 + a / (aw * aw)) / (1 + a))
                            v *= mapped / l
                        }
                    }
                    let o = (y * width + x) * 4
                    for c in 0..<3 {
                        let index = Int((min(max(v[c], 0), 1) * Float(encodeSteps)).rounded())
                        out[o + c] = encode[index]
                    }
                    out[o + 3] = hasAlpha ? UInt8((sample(3) * 255 + maximumValue / 2) / maximumValue) : 255
                    if premultiplied, hasAlpha { RGBAImage.unpremultiply(out, at: o) }
                }
            }
        }
    }

    /// A normalised sample (0…1) as linear light, 1 = SDR reference white
    /// (for HLG: scene light, 1 = the signal's peak).
    func linear(_ e: Double) -> Double {
        switch transfer {
        case .linear: return e
        case .sdr: return Self.srgbDecode(e)
        case .pq:
            let m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128
            let c1 = 3424.0 / 4096, c2 = 2413.0 / 4096 * 32, c3 = 2392.0 / 4096 * 32
            let p = pow(e, 1 / m2)
            let y = pow(max(p - c1, 0) / (c2 - c3 * p), 1 / m1)
            return y * 10000 / Self.referenceWhite
        case .hlg:
            let a = 0.17883277, b = 1 - 4 * a, c = 0.5 - a * log(4 * a)
            return e <= 0.5 ? e * e / 3 : (exp((e - c) / a) + b) / 12
        }
    }

    static func srgbDecode(_ e: Double) -> Double {
        e <= 0.04045 ? e / 12.92 : pow((e + 0.055) / 1.055, 2.4)
    }

    static func srgbEncode(_ l: Double) -> Double {
        l <= 0.0031308 ? l * 12.92 : 1.055 * pow(l, 1 / 2.4) - 0.055
    }
}
