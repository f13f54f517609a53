import CResample
import Foundation
import Testing
import GalleryTestSupport
@testable import Imaging

/// The resampler's C kernels (AVX-512 VNNI and AVX2+FMA where the CPU has
/// them, SSE2, portable C) against the Swift reference loops: the planes' kernels work in fixed
/// point and must agree with each other exactly and with the float
/// reference within ±1 (the reference rounds once, they round their Q14
/// weights and the passes' results), on sizes that exercise every vector
/// width and tail, down and up, with changes of sample range both ways.
@Suite struct ResampleKernelTests {
    /// A plane with texture: a gradient, hard edges and noise, so the sums
    /// reach 0 and 255 (where rounding and clamping meet) and everything between.
    static func plane(width: Int, height: Int, seed: UInt64) -> Plane {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        var samples = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                state ^= state << 13; state ^= state >> 7; state ^= state << 17
                let edge: Int = (x / 7 + y / 5) % 2 == 0 ? 255 : 0
                let gradient = (x * 255) / max(1, width - 1)
                samples[y * width + x] = UInt8(clamping: ((x + y) % 3 == 0 ? edge : gradient) + Int(state % 9) - 4)
            }
        }
        return Plane(width: width, height: height, samples: samples)
    }

    static let cases: [(sw: Int, sh: Int, w: Int, h: Int)] = [
        (1003, 757, 401, 303), (4000, 48, 1600, 19), (160, 120, 400, 300), (17, 9, 5, 3),
        (1, 1, 1, 1), (300, 2, 7, 1), (33, 65, 33, 64), (96, 96, 95, 97), (90, 1500, 13, 20), (1000, 750, 800, 600),
        (1601, 1203, 281, 211), (2, 3, 1, 1), (1008, 756, 400, 300),
        // 8.5× down: windows of ~30 quads of rows (the VNNI pass) on a width with every tail.
        (700, 1700, 330, 200),
    ]

    /// Full to limited range (a JPEG's planes into a WebP), none, and limited to full.
    static let ranges: [(scale: Float, offset: Float)] = [(1, 0), (219.0 / 255.0, 16), (255.0 / 219.0, -16 * 255.0 / 219.0)]

    @Test func everyKernelMatchesTheSwiftReference() throws {
        #expect(gg_resample_has(1) == 1 && gg_resample_has(2) == 1, "x86-64: SSE2 and portable C")
        let kernels = ([2, 1, 3, 4] as [Int32]).filter { gg_resample_has($0) == 1 }
        for (index, c) in Self.cases.enumerated() {
            let source = Self.plane(width: c.sw, height: c.sh, seed: UInt64(index + 1))
            for (scale, offset) in Self.ranges {
                let reference = PlaneResampler(sourceWidth: c.sw, sourceHeight: c.sh, width: c.w, height: c.h,
                                               sampleScale: scale, sampleOffset: offset, kernel: -1)
                reference.push(source)
                let expected = reference.finish()
                var portable: [UInt8]?
                for kernel in kernels {
                    let name = String(cString: gg_resample_kernel_name(kernel))
                    let fast = PlaneResampler(sourceWidth: c.sw, sourceHeight: c.sh, width: c.w, height: c.h,
                                              sampleScale: scale, sampleOffset: offset, kernel: kernel)
                    fast.push(source)
                    let got = fast.finish()
                    #expect(got.width == c.w && got.height == c.h)
                    // The vector kernels compute the portable kernel's integers.
                    if let portable { #expect(got.samples == portable, "\(name) \(c) scale \(scale): not the portable kernel's result") }
                    portable = portable ?? got.samples
                    var worst = 0, differing = 0
                    for i in 0..<expected.samples.count {
                        let d = abs(Int(got.samples[i]) - Int(expected.samples[i]))
                        worst = max(worst, d)
                        if d > 0 { differing += 1 }
                    }
                    #expect(worst <= 1, "\(name) \(c) scale \(scale): off by \(worst)")
                    // Not a different filter: almost every sample is the same byte
                    // (about 0.5 % differ on these textures; a few more of a tiny
                    // picture whose 700-tap filters round 700 weights).
                    #expect(differing * 100 <= expected.samples.count + 500, "\(name) \(c) scale \(scale): \(differing) of \(expected.samples.count) differ")
                }
            }
        }
    }

    /// The output plane is not zero-filled up front: a resampler that got no
    /// rows (a stream that failed at once) still hands out zeros, never the
    /// heap's old bytes, and one cut short repeats its last row.
    @Test func rowsNeverMadeAreZeroAndAShortSourceRepeatsItsLastRow() {
        for _ in 0..<3 {
            // Freed dirty memory of the output's size, for the allocator to hand out again.
            var dirty = [UInt8](repeating: 0xAB, count: 160 * 120)
            dirty.withUnsafeMutableBufferPointer { $0[0] = 0xAB }
            dirty = []
            let empty = PlaneResampler(sourceWidth: 400, sourceHeight: 300, width: 160, height: 120).finish()
            #expect(empty.samples.allSatisfy { $0 == 0 })
        }
        // Cut short after an odd and an even number of rows (a filter's
        // windows start on even rows), in every kernel and the reference:
        // the rows below are the last one again (its value; the rows
        // before differ, so a wrong row would show).
        let kernels: [Int32] = [-1, 1, 2] + ([3, 4] as [Int32]).filter { gg_resample_has($0) != 0 }
        for kernel in kernels {
            for rowsGiven in [9, 10] {
                let short = PlaneResampler(sourceWidth: 67, sourceHeight: 48, width: 33, height: 24, kernel: kernel)
                for y in 0..<rowsGiven {
                    let row = [UInt8](repeating: UInt8(100 + 10 * y), count: 67)
                    row.withUnsafeBufferPointer { short.push($0.baseAddress!) }
                }
                let last = UInt8(100 + 10 * (rowsGiven - 1))
                let made = short.finish()
                #expect(made.samples[(16 * 33)...].allSatisfy { $0 == last }, "kernel \(kernel), \(rowsGiven) rows")
            }
        }
    }

    /// Windows laid on pairs: even starts in order, every tap inside its
    /// window but a last one that is negligible, and a pair saved exactly
    /// where that is so (a 12 MP photo's 16-tap windows to 1600 × 1200).
    @Test func pairedWindowsDropOnlyNegligibleTaps() {
        var tight: [String] = []
        for (from, to) in [(4032, 1600), (3024, 1200), (2016, 800), (1512, 600), (1008, 400), (756, 300), (4032, 1200),
                           (1600, 280), (2016, 1600), (800, 400), (4608, 1600), (1000, 999), (90, 1500), (3, 1), (7, 2)] {
            let taps = LanczosResampler.taps(from: from, to: to)
            let windows = PlaneResampler.pairedWindows(taps)
            #expect(windows.starts.allSatisfy { $0 % 2 == 0 })
            #expect(zip(windows.starts, windows.starts.dropFirst()).allSatisfy { $0 <= $1 }, "\(from) to \(to): starts out of order")
            var dropped = 0
            for i in 0..<to {
                let window = PlaneResampler.windowWeights(taps, windows, i)
                let kept = window.reduce(0, +), all = taps.weights[i * taps.count ..< (i + 1) * taps.count].reduce(0, +)
                if abs(kept - all) > 1e-6 { dropped += 1 }
                #expect(abs(kept - all) <= PlaneResampler.negligibleTap, "\(from) to \(to), output \(i)")
            }
            if windows.pairs * 2 == taps.count {
                tight.append("\(from)>\(to)")
                #expect(dropped > 0, "\(from) to \(to): a pair saved where no tap is dropped")
            } else {
                #expect(windows.pairs == (taps.count + 2) / 2 && dropped == 0, "\(from) to \(to)")
            }
        }
        // 2.52× (a 12 MP photo's planes to 1600 × 1200): 16 taps in 8 pairs;
        // 2.88× (16 MP): 18 in 9. Not 2× exactly (800 → 400), whose end
        // taps weigh ~0.006, nor odd tap counts (nothing to save).
        #expect(tight == ["4032>1600", "3024>1200", "2016>800", "1512>600", "1008>400", "756>300", "4608>1600"])
        #expect(PlaneResampler.pairedWindows(LanczosResampler.taps(from: 1008, to: 400)).pairs == 8)
    }

    /// Q14 weights keep their sum exactly (a flat area stays flat) and each
    /// is its float weight rounded, but for the one that takes the remainder.
    @Test func fixedPointWeightsKeepTheirSum() {
        let sizes: [(from: Int, to: Int)] = [(4000, 1600), (1600, 280), (3, 1), (1000, 999), (90, 1500), (7, 1)]
        let scales: [Float] = [1, 219.0 / 255.0, 255.0 / 219.0]
        for (from, to) in sizes {
            let taps = LanczosResampler.taps(from: from, to: to)
            for scale in scales {
                let sum = Int((scale * 16384).rounded())
                for row in 0..<to {
                    let weights = taps.weights[row * taps.count ..< (row + 1) * taps.count]
                    let fixed = PlaneResampler.fixedPoint(weights, scale: scale)
                    #expect(fixed.reduce(0) { $0 + Int($1) } == sum)
                    var off = 0
                    for (q, w) in zip(fixed, weights) where abs(Float(q) - w * scale * 16384) > 0.501 { off += 1 }
                    #expect(off <= 1, "\(from) to \(to), row \(row): \(off) weights off their rounding")
                }
            }
        }
    }

    /// The RGBA path's vertical pass (the same kernel over four floats a
    /// pixel), opaque and with alpha (premultiplied), against its Swift loops.
    @Test func rgbaResizingMatchesItsSwiftReference() {
        for hasAlpha in [false, true] {
            for (index, c) in [(301, 203, 97, 61), (64, 48, 160, 120), (9, 7, 3, 2)].enumerated() {
                var plane = Self.plane(width: c.0 * 4, height: c.1, seed: UInt64(index + 11))
                if hasAlpha {
                    // Some pixels fully transparent, some opaque: division by alpha and its zero case.
                    for i in stride(from: 3, to: plane.samples.count, by: 36) { plane.samples[i] = 0 }
                    for i in stride(from: 7, to: plane.samples.count, by: 36) { plane.samples[i] = 255 }
                }
                let image = RGBAImage(width: c.0, height: c.1, pixels: plane.samples, hasAlpha: hasAlpha)
                let expected = LanczosResampler.resize(image, width: c.2, height: c.3, kernel: -1)
                for kernel in ([1, 2, 3, 4] as [Int32]).filter({ gg_resample_has($0) == 1 }) {
                    let got = LanczosResampler.resize(image, width: c.2, height: c.3, kernel: kernel)
                    let worst = zip(got.pixels, expected.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
                    #expect(got.pixels.count == expected.pixels.count && worst <= 1, "kernel \(kernel) \(c) alpha \(hasAlpha): off by \(worst)")
                }
            }
        }
    }

    /// Three bytes a pixel (what libraw and some decoders hand over).
    @Test func rgbRowsMatchTheirSwiftReference() {
        let plane = Self.plane(width: 211 * 3, height: 77, seed: 5)
        plane.samples.withUnsafeBufferPointer { bytes in
            let pixels = BorrowedPixels(base: bytes.baseAddress!, width: 211, height: 77, rowBytes: 211 * 3, channels: 3, hasAlpha: false)
            let expected = LanczosResampler.resize(pixels, width: 90, height: 31, kernel: -1)
            for kernel in ([1, 2, 3, 4] as [Int32]).filter({ gg_resample_has($0) == 1 }) {
                let got = LanczosResampler.resize(pixels, width: 90, height: 31, kernel: kernel)
                let worst = zip(got.pixels, expected.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
                #expect(worst <= 1, "kernel \(kernel): off by \(worst)")
            }
        }
    }

    @Test func theKernelIsChosenByTheCPU() {
        let name = String(cString: gg_resample_kernel_name(0))
        let cpu = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let flags = cpu.split(separator: "\n").first { $0.hasPrefix("flags") } ?? ""
        let words = Set(flags.split(separator: " ").map(String.init))
        let avx2 = words.contains("avx2") && words.contains("fma")
        let vnni = ["avx512f", "avx512bw", "avx512vl", "avx512_vnni"].allSatisfy(words.contains)
        #expect(name == (avx2 ? (vnni ? "avx512-vnni" : "avx2+fma") : "sse2"))
    }
}
