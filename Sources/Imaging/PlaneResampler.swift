import CResample

/// Lanczos-3 for one 8-bit plane, fed a row at a time.
///
/// The loops below run in C (`CResample`: AVX2+FMA, SSE2 or portable C,
/// chosen by the CPU at the first call); the Swift loops are the reference
/// the tests hold the kernels to (`reference: true`).
///
/// Vertical pass first: each source row is converted to float once, into a
/// ring as tall as the vertical filter, and every output row is the weighted
/// sum of the rows in its window (contiguous, so sixteen lanes at a time),
/// then filtered horizontally with zero-padded taps read four at a time. The
/// horizontal pass runs on output rows only, so the cost that scales with the
/// source is the vectorised one, and no full-size image is ever held: a
/// 12 MP photo streams through a few hundred kilobytes.
final class PlaneResampler {
    /// Source plane size.
    let sourceWidth: Int, sourceHeight: Int
    /// Output plane size.
    let width: Int, height: Int

    private let verticalStarts: [Int]
    private let verticalWeights: [Float]
    private let verticalCount: Int
    /// Where each output sample's taps start (Int32: the C kernels' type).
    private let horizontalStarts: [Int32]
    /// Runs the Swift loops instead of the C kernels (tests).
    private let reference: Bool
    /// Which C kernel: 0, the one chosen for this CPU; tests name one.
    private let kernel: Int32
    /// `width × horizontalStride` weights, zero past each pixel's real taps.
    private let horizontalWeights: UnsafeMutablePointer<Float>
    private let horizontalStride: Int
    /// `verticalCount` source rows; row r lives in slot r % verticalCount.
    private let ring: UnsafeMutablePointer<Float>
    /// One vertically filtered row, then `horizontalStride` zeros that padded
    /// taps may read.
    private let column: UnsafeMutablePointer<Float>
    private let rowPointers: UnsafeMutablePointer<UnsafePointer<Float>>
    private var output: [UInt8]
    private var received = 0
    private var produced = 0

    /// Applied to every source sample as it is converted to float: a change
    /// of sample range (full to limited) costs nothing here and is rounded
    /// once, with the output, because the filter is linear.
    private let sampleScale: Float, sampleOffset: Float

    /// A resampler from `sourceWidth × sourceHeight` to `width × height`,
    /// mapping each source sample s to `s × sampleScale + sampleOffset`.
    init(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int, sampleScale: Float = 1, sampleOffset: Float = 0,
         reference: Bool = false, kernel: Int32 = 0) {
        self.reference = reference
        self.kernel = kernel
        self.sampleScale = sampleScale
        self.sampleOffset = sampleOffset
        precondition(sourceWidth > 0 && sourceHeight > 0 && width > 0 && height > 0, "empty plane")
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.width = width
        self.height = height
        let vertical = LanczosResampler.taps(from: sourceHeight, to: height)
        verticalStarts = vertical.starts
        verticalWeights = vertical.weights
        verticalCount = vertical.count
        let horizontal = LanczosResampler.taps(from: sourceWidth, to: width)
        horizontalStarts = horizontal.starts.map { Int32(truncatingIfNeeded: $0) }
        // A multiple of four: the kernels read eight taps at a time, then four.
        horizontalStride = (horizontal.count + 3) & ~3
        horizontalWeights = .allocate(capacity: width * horizontalStride)
        horizontalWeights.initialize(repeating: 0, count: width * horizontalStride)
        for x in 0..<width {
            for k in 0..<horizontal.count {
                horizontalWeights[x * horizontalStride + k] = horizontal.weights[x * horizontal.count + k]
            }
        }
        ring = .allocate(capacity: verticalCount * sourceWidth)
        column = .allocate(capacity: sourceWidth + horizontalStride)
        column.initialize(repeating: 0, count: sourceWidth + horizontalStride)
        rowPointers = .allocate(capacity: verticalCount)
        output = [UInt8](repeating: 0, count: width * height)
    }

    deinit {
        horizontalWeights.deallocate()
        ring.deallocate()
        column.deallocate()
        rowPointers.deallocate()
    }

    /// Takes the next source row (`sourceWidth` samples) and makes every output
    /// row whose window it completes.
    func push(_ row: UnsafePointer<UInt8>) {
        guard received < sourceHeight else { return }
        let slot = ring + (received % verticalCount) * sourceWidth
        if !reference {
            gg_resample_load(kernel, row, slot, Int32(sourceWidth), sampleScale, sampleOffset)
        } else if sampleScale == 1, sampleOffset == 0 {
            for x in 0..<sourceWidth { slot[x] = Float(row[x]) }
        } else {
            for x in 0..<sourceWidth { slot[x] = Float(row[x]) * sampleScale + sampleOffset }
        }
        received += 1
        makeCompletedRows()
    }

    /// Makes every output row whose window the rows received so far complete.
    private func makeCompletedRows() {
        while produced < height, verticalStarts[produced] + verticalCount <= received {
            makeRow(produced)
            produced += 1
        }
    }

    /// Pushes every row of `plane`.
    func push(_ plane: Plane) {
        plane.samples.withUnsafeBufferPointer { samples in
            for y in 0..<plane.height { push(samples.baseAddress! + y * plane.width) }
        }
    }

    /// The finished plane. If the source ended early (it cannot, for a decode
    /// that succeeded) the missing rows repeat the last one received.
    func finish() -> Plane {
        if received > 0 {
            // The last row is already converted: copy it in place of pushing.
            let last = ring + ((received - 1) % verticalCount) * sourceWidth
            while received < sourceHeight {
                (ring + (received % verticalCount) * sourceWidth).update(from: last, count: sourceWidth)
                received += 1
                makeCompletedRows()
            }
        }
        return Plane(width: width, height: height, samples: output)
    }

    /// Rounds to the nearest integer in 0...255: adding 2^23 to a value in
    /// that range leaves the rounded integer in the low mantissa bits, which
    /// avoids a checked float-to-integer conversion per sample.
    @inline(__always)
    static func bytes(_ values: SIMD4<Float>) -> SIMD4<UInt8> {
        var clamped = values
        clamped.replace(with: 0, where: clamped .< 0)
        clamped.replace(with: 255, where: clamped .> 255)
        let shifted = clamped + SIMD4(repeating: 8_388_608)
        return SIMD4<UInt8>(truncatingIfNeeded: unsafeBitCast(shifted, to: SIMD4<UInt32>.self))
    }

    private func makeRow(_ y: Int) {
        let start = verticalStarts[y]
        let count = verticalCount
        for k in 0..<count { rowPointers[k] = UnsafePointer(ring + ((start + k) % count) * sourceWidth) }
        if !reference {
            verticalWeights.withUnsafeBufferPointer { all in
                // An optional pointer has the same layout as a pointer: C's `const float *const *`.
                let rows = UnsafeRawPointer(rowPointers).assumingMemoryBound(to: UnsafePointer<Float>?.self)
                gg_resample_vertical(kernel, rows, all.baseAddress! + y * count, Int32(count), column, Int32(sourceWidth))
            }
            output.withUnsafeMutableBufferPointer { out in
                horizontalStarts.withUnsafeBufferPointer { starts in
                    gg_resample_horizontal(kernel, column, starts.baseAddress!, horizontalWeights, Int32(horizontalStride),
                                           out.baseAddress! + y * width, Int32(width))
                }
            }
            return
        }
        verticalWeights.withUnsafeBufferPointer { all in
            let weights = all.baseAddress! + y * count
            // Vertical: sixteen samples at a time, every tap summed in
            // registers (one weight broadcast serves four vector multiplies).
            var x = 0
            while x + 16 <= sourceWidth {
                var sum = SIMD16<Float>(repeating: 0)
                for k in 0..<count {
                    sum += weights[k] * UnsafeRawPointer(rowPointers[k] + x).loadUnaligned(as: SIMD16<Float>.self)
                }
                UnsafeMutableRawPointer(column + x).storeBytes(of: sum, as: SIMD16<Float>.self)
                x += 16
            }
            while x < sourceWidth {
                var sum: Float = 0
                for k in 0..<count { sum += weights[k] * rowPointers[k][x] }
                column[x] = sum
                x += 1
            }
        }
        // Horizontal: taps four at a time (padding weights are zero), four
        // output samples per step so the four sums reduce with shuffles and
        // round and narrow as one vector.
        output.withUnsafeMutableBufferPointer { out in
            horizontalStarts.withUnsafeBufferPointer { starts in
                let target = out.baseAddress! + y * width
                let stride = horizontalStride
                @inline(__always) func dot(_ x: Int) -> SIMD4<Float> {
                    let s = UnsafeRawPointer(column + Int(starts[x]))
                    let w = UnsafeRawPointer(horizontalWeights + x * stride)
                    var a0 = SIMD4<Float>(repeating: 0), a1 = a0
                    var k = 0
                    while k + 8 <= stride {
                        a0 += w.loadUnaligned(fromByteOffset: k * 4, as: SIMD4<Float>.self)
                            * s.loadUnaligned(fromByteOffset: k * 4, as: SIMD4<Float>.self)
                        a1 += w.loadUnaligned(fromByteOffset: k * 4 + 16, as: SIMD4<Float>.self)
                            * s.loadUnaligned(fromByteOffset: k * 4 + 16, as: SIMD4<Float>.self)
                        k += 8
                    }
                    if k < stride {
                        a0 += w.loadUnaligned(fromByteOffset: k * 4, as: SIMD4<Float>.self)
                            * s.loadUnaligned(fromByteOffset: k * 4, as: SIMD4<Float>.self)
                    }
                    return a0 + a1
                }
                var x = 0
                while x + 4 <= width {
                    let a = dot(x), b = dot(x + 1), c = dot(x + 2), d = dot(x + 3)
                    let ab = SIMD4(lowHalf: a.lowHalf + a.highHalf, highHalf: b.lowHalf + b.highHalf)
                    let cd = SIMD4(lowHalf: c.lowHalf + c.highHalf, highHalf: d.lowHalf + d.highHalf)
                    let sums = SIMD4(lowHalf: ab.evenHalf + ab.oddHalf, highHalf: cd.evenHalf + cd.oddHalf)
                    UnsafeMutableRawPointer(target + x).storeBytes(of: Self.bytes(sums), as: SIMD4<UInt8>.self)
                    x += 4
                }
                while x < width {
                    target[x] = Self.bytes(SIMD4(repeating: dot(x).sum()))[0]
                    x += 1
                }
            }
        }
    }
}
