import CResample

/// Lanczos-3 for one 8-bit plane, fed a row at a time.
///
/// The loops below run in C (`CResample`: AVX2+FMA, SSE2 or portable C,
/// chosen by the CPU at the first call); the Swift loops are the reference
/// the tests hold the kernels to (`kernel: -1`, as `LanczosResampler`'s).
///
/// Vertical pass first, eight output rows at a time: source rows wait as
/// bytes in a ring tall enough for eight rows' filters; a strip of 32
/// columns of that window is converted to float once and every one of the
/// eight rows is a weighted sum of its rows (a vector of samples at a time),
/// written side by side (sample x of rows 0...7 in one vector). The eight
/// rows are then filtered horizontally together: each
/// output sample is then a chain of multiply-adds with one broadcast weight,
/// with no sum across vector lanes (which cost more than the arithmetic for
/// a preview's eight taps). The horizontal pass runs on output rows only,
/// and no full-size image is ever held: a 12 MP photo streams through a few
/// hundred kilobytes.
final class PlaneResampler {
    /// Source plane size.
    let sourceWidth: Int, sourceHeight: Int
    /// Output plane size.
    let width: Int, height: Int

    /// Output rows filtered horizontally together (the C kernels' batch).
    static let batch = 8

    /// Per output row, padded to whole batches by repeating the last row
    /// (a short last batch computes copies it does not store).
    private let verticalStarts: [Int]
    private let verticalWeights: [Float]
    /// The same times `sampleScale`: what the C kernel multiplies the bytes by.
    private let scaledVerticalWeights: [Float]
    /// Where each batch's window starts, relative to its first row (Int32:
    /// the C kernel's type).
    private let batchFirst: UnsafeMutablePointer<Int32>
    private let verticalCount: Int
    /// Where each output sample's taps start (Int32: the C kernels' type),
    /// padded to whole groups of eight with the last start.
    private let horizontalStarts: [Int32]
    /// `horizontalCount` weights per output sample, grouped by eight samples:
    /// tap k of sample x at `((x / 8) * horizontalCount + k) * 8 + x % 8`
    /// (zero for the padding samples of the last group).
    private let horizontalWeights: [Float]
    private let horizontalCount: Int
    /// Which C kernel: 0, the one chosen for this CPU; tests name one, or
    /// -1 for the Swift loops.
    private let kernel: Int32
    /// The Swift loops run instead of the C kernels (`kernel` -1).
    private var reference: Bool { kernel < 0 }
    /// `ringCount` source rows, as they came (bytes); row r lives in slot
    /// r % ringCount.
    private let ring: UnsafeMutablePointer<UInt8>
    private let ringCount: Int
    /// Eight vertically filtered rows interleaved (sample x of row r at x × 8 + r).
    private let interleaved: UnsafeMutablePointer<Float>
    /// The C kernel's floats: a strip of every row of a batch's window.
    private let scratch: UnsafeMutablePointer<Float>
    /// One vertically filtered row (the Swift reference).
    private let column: UnsafeMutablePointer<Float>
    /// A batch's window of source rows (the reference: one row's taps).
    private let rowPointers: UnsafeMutablePointer<UnsafePointer<UInt8>>
    private var output: [UInt8]
    private var received = 0
    private var produced = 0

    /// Applied to every source sample: a change of sample range (full to
    /// limited) costs nothing here and is rounded once, with the output,
    /// because the filter is linear (the C kernel folds the scale into the
    /// vertical weights and adds the offset once).
    private let sampleScale: Float, sampleOffset: Float

    /// Source rows the ring holds for output rows `first ..< first + batch`
    /// starting at `first`, a multiple of the batch: from the first row the
    /// first output reads to the last row the last one reads.
    static func ringRows(starts: [Int], count: Int) -> Int {
        var span = 0
        for first in stride(from: 0, to: starts.count, by: batch) {
            span = max(span, starts[min(first + batch, starts.count) - 1] - starts[first])
        }
        return span + count
    }

    /// Samples (bytes) the ring of a resampler from `sourceWidth ×
    /// sourceHeight` to `height` rows holds, or nil past Int's range.
    static func ringSamples(sourceWidth: Int, sourceHeight: Int, height: Int) -> Int? {
        let vertical = LanczosResampler.taps(from: sourceHeight, to: height)
        let rows = min(sourceHeight, ringRows(starts: vertical.starts, count: vertical.count))
        let (samples, overflow) = rows.multipliedReportingOverflow(by: sourceWidth)
        return overflow ? nil : samples
    }

    /// A resampler from `sourceWidth × sourceHeight` to `width × height`,
    /// mapping each source sample s to `s × sampleScale + sampleOffset`.
    init(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int, sampleScale: Float = 1, sampleOffset: Float = 0,
         kernel: Int32 = 0) {
        self.kernel = kernel
        self.sampleScale = sampleScale
        self.sampleOffset = sampleOffset
        precondition(sourceWidth > 0 && sourceHeight > 0 && width > 0 && height > 0, "empty plane")
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.width = width
        self.height = height
        let vertical = LanczosResampler.taps(from: sourceHeight, to: height)
        let padding = (Self.batch - height % Self.batch) % Self.batch
        verticalStarts = vertical.starts + Array(repeating: vertical.starts[height - 1], count: padding)
        let lastWeights = vertical.weights[(height - 1) * vertical.count ..< height * vertical.count]
        verticalWeights = vertical.weights + Array([ArraySlice<Float>](repeating: lastWeights, count: padding).joined())
        scaledVerticalWeights = verticalWeights.map { $0 * sampleScale }
        verticalCount = vertical.count
        ringCount = min(sourceHeight, Self.ringRows(starts: verticalStarts, count: vertical.count))
        let horizontal = LanczosResampler.taps(from: sourceWidth, to: width)
        let taps = horizontal.count
        horizontalCount = taps
        let groups = (width + Self.batch - 1) / Self.batch
        var starts = [Int32](repeating: Int32(truncatingIfNeeded: horizontal.starts[width - 1]), count: groups * Self.batch)
        var weights = [Float](repeating: 0, count: groups * Self.batch * taps)
        for x in 0..<width {
            starts[x] = Int32(truncatingIfNeeded: horizontal.starts[x])
            let group = x / Self.batch, lane = x % Self.batch
            for k in 0..<taps {
                weights[(group * taps + k) * Self.batch + lane] = horizontal.weights[x * taps + k]
            }
        }
        horizontalStarts = starts
        horizontalWeights = weights
        ring = .allocate(capacity: ringCount * sourceWidth)
        interleaved = .allocate(capacity: Self.batch * sourceWidth)
        scratch = .allocate(capacity: ringCount * Int(GG_RESAMPLE_STRIP))
        column = .allocate(capacity: sourceWidth)
        rowPointers = .allocate(capacity: max(ringCount, verticalCount))
        batchFirst = .allocate(capacity: Self.batch)
        output = [UInt8](repeating: 0, count: width * height)
    }

    deinit {
        ring.deallocate()
        interleaved.deallocate()
        scratch.deallocate()
        column.deallocate()
        rowPointers.deallocate()
        batchFirst.deallocate()
    }

    /// Source row r's slot in the ring.
    @inline(__always)
    private func slot(_ row: Int) -> UnsafeMutablePointer<UInt8> {
        ring + (row % ringCount) * sourceWidth
    }

    /// Takes the next source row (`sourceWidth` samples) and makes every output
    /// row whose window it completes.
    func push(_ row: UnsafePointer<UInt8>) {
        guard received < sourceHeight else { return }
        slot(received).update(from: row, count: sourceWidth)
        received += 1
        makeCompletedRows()
    }

    /// Makes every output row whose window the rows received so far complete:
    /// a batch of eight once the last of them can be made (the Swift
    /// reference, one at a time).
    private func makeCompletedRows() {
        while produced < height {
            let last = reference ? produced : min(produced + Self.batch, height) - 1
            guard verticalStarts[last] + verticalCount <= received else { return }
            if reference {
                makeRow(produced)
            } else {
                makeRows(produced...last)
            }
            produced = last + 1
        }
    }

    /// The C kernels: the vertical pass for the eight rows from
    /// `rows.lowerBound` (the batch's padding rows included), then the
    /// horizontal pass for all of them, storing `rows`.
    private func makeRows(_ rows: ClosedRange<Int>) {
        let first = rows.lowerBound
        let base = verticalStarts[first]
        let windowRows = verticalStarts[first + Self.batch - 1] + verticalCount - base
        for i in 0..<windowRows { rowPointers[i] = UnsafePointer(slot(base + i)) }
        for r in 0..<Self.batch { batchFirst[r] = Int32(verticalStarts[first + r] - base) }
        scaledVerticalWeights.withUnsafeBufferPointer { all in
            // An optional pointer has the same layout as a pointer: C's `const uint8_t *const *`.
            let window = UnsafeRawPointer(rowPointers).assumingMemoryBound(to: UnsafePointer<UInt8>?.self)
            gg_resample_vertical8(kernel, window, Int32(windowRows), batchFirst, all.baseAddress! + first * verticalCount,
                                  Int32(verticalCount), sampleOffset, scratch, interleaved, Int32(sourceWidth))
        }
        output.withUnsafeMutableBufferPointer { out in
            horizontalStarts.withUnsafeBufferPointer { starts in
                horizontalWeights.withUnsafeBufferPointer { weights in
                    gg_resample_horizontal8(kernel, interleaved, starts.baseAddress!, weights.baseAddress!, Int32(horizontalCount),
                                            out.baseAddress! + first * width, width, Int32(rows.count), Int32(width))
                }
            }
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
            // The last row is already in the ring: copied in place of pushing.
            let last = slot(received - 1)
            while received < sourceHeight {
                slot(received).update(from: last, count: sourceWidth)
                received += 1
                makeCompletedRows()
            }
        }
        return Plane(width: width, height: height, samples: output)
    }

    /// The Swift reference for one output row.
    private func makeRow(_ y: Int) {
        let start = verticalStarts[y]
        let count = verticalCount
        for k in 0..<count { rowPointers[k] = UnsafePointer(slot(start + k)) }
        verticalWeights.withUnsafeBufferPointer { all in
            let weights = all.baseAddress! + y * count
            // Vertical: each sample converted and mapped to the output's
            // range, then weighted.
            for x in 0..<sourceWidth {
                var sum: Float = 0
                for k in 0..<count { sum += weights[k] * (Float(rowPointers[k][x]) * sampleScale + sampleOffset) }
                column[x] = sum
            }
        }
        // Horizontal: one sum per output sample, rounded to the nearest byte.
        let taps = horizontalCount
        for x in 0..<width {
            let source = column + Int(horizontalStarts[x])
            let group = x / Self.batch, lane = x % Self.batch
            var sum: Float = 0
            for k in 0..<taps { sum += horizontalWeights[(group * taps + k) * Self.batch + lane] * source[k] }
            output[y * width + x] = Self.byte(sum)
        }
    }

    /// The byte nearest to `value` (ties to even, as the vector kernels
    /// round), clamped to 0...255.
    static func byte(_ value: Float) -> UInt8 {
        guard value > 0 else { return 0 }  // also NaN
        return value >= 255 ? 255 : UInt8(value.rounded(.toNearestOrEven))
    }
}
