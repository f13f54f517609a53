import CResample
import Foundation

/// Separable Lanczos-3 resampling with precomputed taps.
///
/// Rows are filtered horizontally once each, into a small ring of float rows
/// that the vertical pass reads, so the intermediate image is never held whole:
/// memory is a few rows, not megapixels. Transparent images are filtered in
/// premultiplied alpha so colour never bleeds out of invisible pixels.
public enum LanczosResampler {
    /// The Lanczos window radius.
    static let radius = 3.0

    /// Precomputed filter taps for one axis: output i reads `taps` inputs from
    /// `starts[i]` with `weights[i * taps ..< (i + 1) * taps]`.
    struct Taps: Sendable {
        var starts: [Int]
        var weights: [Float]
        var count: Int
    }

    @inline(__always)
    static func lanczos(_ x: Double) -> Double {
        if x == 0 { return 1 }
        if abs(x) >= radius { return 0 }
        let px = Double.pi * x
        return radius * sin(px) * sin(px / radius) / (px * px)
    }

    /// Taps by (input, output) length.
    private static let tapsCache = MadeOnce<SIMD2<Int>, Taps>(limit: 256)

    /// The taps from `input` to `output` samples, computed once per pair.
    static func taps(from input: Int, to output: Int) -> Taps {
        tapsCache.value(for: SIMD2(input, output)) { computeTaps(from: input, to: output) }
    }

    static func computeTaps(from input: Int, to output: Int) -> Taps {
        let scale = Double(input) / Double(output)
        let filterScale = max(scale, 1)
        let support = radius * filterScale
        // Samples sit at j + 0.5; those strictly inside (center - support,
        // center + support) number at most ceil(2 × support), and the window
        // below starts at the first of them: a wider window would only add
        // taps of weight zero (8 rather than 9 for a 1.25× reduction, which
        // the vector kernels feel).
        let count = min(input, Int(ceil(2 * support)))
        var starts = [Int](repeating: 0, count: output)
        var weights = [Float](repeating: 0, count: output * count)
        var local = [Double](repeating: 0, count: count)
        for i in 0..<output {
            let center = (Double(i) + 0.5) * scale
            var start = Int(floor(center - support + 0.5))
            start = max(0, min(start, input - count))
            var sum = 0.0
            for k in 0..<count {
                let w = lanczos((Double(start + k) + 0.5 - center) / filterScale)
                local[k] = w
                sum += w
            }
            starts[i] = start
            for k in 0..<count { weights[i * count + k] = Float(sum != 0 ? local[k] / sum : (k == 0 ? 1 : 0)) }
        }
        return Taps(starts: starts, weights: weights, count: count)
    }

    /// Resizes `image` to exactly `width × height`.
    public static func resize(_ image: RGBAImage, width: Int, height: Int, kernel: Int32 = 0) -> RGBAImage {
        if width == image.width, height == image.height { return image }
        return image.withBorrowedPixels { resize($0, width: width, height: height, kernel: kernel) }
    }

    /// Resizes pixels someone else owns (a decoder's buffer) to exactly
    /// `width × height`, reading each source row once.
    /// Both passes run in C (`CResample`'s `kernel`: 0, the one chosen for
    /// this CPU; -1, the Swift loops, the tests' reference).
    public static func resize(_ image: BorrowedPixels, width: Int, height: Int, kernel: Int32 = 0) -> RGBAImage {
        let horizontal = taps(from: image.width, to: width)
        let vertical = taps(from: image.height, to: height)
        let premultiply = image.hasAlpha
        let hStarts32 = horizontal.starts.map { Int32(truncatingIfNeeded: $0) }
        let sourceWidth = image.width
        let channels = image.channels, rowBytes = image.rowBytes

        // Ring of horizontally filtered rows; row r lives in slot r % capacity.
        let capacity = vertical.count
        let ring = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: capacity * width)
        let sourceRow = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: sourceWidth)
        let accumulator = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: width)
        let rowPointers = UnsafeMutablePointer<UnsafePointer<Float>?>.allocate(capacity: capacity)
        defer {
            ring.deallocate()
            sourceRow.deallocate()
            accumulator.deallocate()
            rowPointers.deallocate()
        }
        var nextRow = 0

        return RGBAImage(width: width, height: height, hasAlpha: image.hasAlpha) { output in
            do {
                let input = image.base
                horizontal.weights.withUnsafeBufferPointer { hWeights in
                    horizontal.starts.withUnsafeBufferPointer { hStarts in
                        let hCount = horizontal.count
                        func filterRow(_ y: Int, into target: UnsafeMutablePointer<SIMD4<Float>>) {
                            let row = input + y * rowBytes
                            if kernel >= 0 {
                                gg_resample_load_rgba(kernel, row, Int32(channels), premultiply ? 1 : 0,
                                                      UnsafeMutableRawPointer(sourceRow).assumingMemoryBound(to: Float.self), Int32(sourceWidth))
                            } else if premultiply {
                                for x in 0..<sourceWidth {
                                    let p = row + x * 4
                                    let a = Float(p[3])
                                    let f = a * (1 / 255)
                                    sourceRow[x] = SIMD4(Float(p[0]) * f, Float(p[1]) * f, Float(p[2]) * f, a)
                                }
                            } else {
                                for x in 0..<sourceWidth {
                                    let p = row + x * channels
                                    sourceRow[x] = SIMD4(Float(p[0]), Float(p[1]), Float(p[2]), 255)
                                }
                            }
                            if kernel >= 0 {
                                gg_resample_horizontal_rgba(kernel, UnsafeRawPointer(sourceRow).assumingMemoryBound(to: Float.self),
                                                            hStarts32, hWeights.baseAddress!, Int32(hCount),
                                                            UnsafeMutableRawPointer(target).assumingMemoryBound(to: Float.self), Int32(width))
                                return
                            }
                            // Four independent accumulators: one chain of dependent
                            // adds would stall on FMA latency at every tap.
                            let quads = hCount & ~3
                            for x in 0..<width {
                                let s = sourceRow + hStarts[x]
                                let w = hWeights.baseAddress! + x * hCount
                                var a0 = SIMD4<Float>(repeating: 0), a1 = a0, a2 = a0, a3 = a0
                                var k = 0
                                while k < quads {
                                    a0 += w[k] * s[k]
                                    a1 += w[k + 1] * s[k + 1]
                                    a2 += w[k + 2] * s[k + 2]
                                    a3 += w[k + 3] * s[k + 3]
                                    k += 4
                                }
                                while k < hCount {
                                    a0 += w[k] * s[k]
                                    k += 1
                                }
                                target[x] = (a0 + a1) + (a2 + a3)
                            }
                        }
                        for y in 0..<height {
                            let start = vertical.starts[y]
                            while nextRow < start + vertical.count {
                                filterRow(nextRow, into: ring + (nextRow % capacity) * width)
                                nextRow += 1
                            }
                            let vCount = vertical.count
                            if kernel >= 0 {
                                // A ring row of `width` pixels is `width × 4` floats: the planes' kernel serves.
                                for k in 0..<vCount {
                                    rowPointers[k] = UnsafeRawPointer(ring + ((start + k) % capacity) * width).assumingMemoryBound(to: Float.self)
                                }
                                vertical.weights.withUnsafeBufferPointer { weights in
                                    gg_resample_vertical(kernel, rowPointers, weights.baseAddress! + y * vCount, Int32(vCount),
                                                         UnsafeMutableRawPointer(accumulator).assumingMemoryBound(to: Float.self), Int32(width * 4))
                                }
                            } else {
                                // Two taps per sweep halves the passes over the accumulator row.
                                accumulator.initialize(repeating: SIMD4(repeating: 0), count: width)
                                var k = 0
                                while k + 1 < vCount {
                                    let w0 = vertical.weights[y * vCount + k], w1 = vertical.weights[y * vCount + k + 1]
                                    let r0 = ring + ((start + k) % capacity) * width
                                    let r1 = ring + ((start + k + 1) % capacity) * width
                                    for x in 0..<width { accumulator[x] += w0 * r0[x] + w1 * r1[x] }
                                    k += 2
                                }
                                if k < vCount {
                                    let w = vertical.weights[y * vCount + k]
                                    let row = ring + ((start + k) % capacity) * width
                                    for x in 0..<width { accumulator[x] += w * row[x] }
                                }
                            }
                            let out = output.baseAddress! + y * width * 4
                            if kernel >= 0 {
                                gg_resample_store_rgba(kernel, UnsafeRawPointer(accumulator).assumingMemoryBound(to: Float.self),
                                                       premultiply ? 1 : 0, out, Int32(width))
                                continue
                            }
                            let low = SIMD4<Float>(repeating: 0), high = SIMD4<Float>(repeating: 255)
                            for x in 0..<width {
                                var v = accumulator[x]
                                if premultiply {
                                    let a = min(max(v.w, 0), 255)
                                    let f: Float = a > 0 ? 255 / a : 0
                                    v = SIMD4(v.x * f, v.y * f, v.z * f, a)
                                }
                                // Clamped to 0...255, so +0.5 and truncation round to nearest.
                                v = v.clamped(lowerBound: low, upperBound: high) + 0.5
                                let o = out + x * 4
                                o[0] = UInt8(Int32(v.x))
                                o[1] = UInt8(Int32(v.y))
                                o[2] = UInt8(Int32(v.z))
                                o[3] = premultiply ? UInt8(Int32(v.w)) : 255
                            }
                        }
                    }
                }
            }
        }
    }
}
