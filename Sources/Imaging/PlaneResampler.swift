import CResample

/// Lanczos-3 for one 8-bit plane, fed a row at a time.
///
/// The loops below run in C (`CResample`: AVX-512 VNNI, AVX2, SSE2 or
/// portable C, chosen by the CPU at the first call) in fixed point: Q14
/// weights in pairs of taps, because the vector units multiply two 16-bit
/// pairs and add them in one instruction, twice the products of a float
/// multiply-add and with no byte-to-float conversion (with VNNI the vertical
/// pass multiplies bytes by each weight's two bytes, four rows at a time:
/// `gg_resample.c`). Every C kernel computes the same integers; the
/// Swift loops (float) are the reference the tests hold them to (within 1).
///
/// Vertical pass first, eight output rows at a time: source rows wait in a
/// ring tall enough for eight rows' filters (where the decoder left them,
/// `push(borrowing:)`, or copied, `push(_:)`); each pair of the
/// window's rows is widened to 16-bit pairs once per strip of 32 columns and
/// every one of the eight rows is a sum of multiply-add-pairs over them,
/// written as pairs of columns, the eight rows side by side. The eight
/// rows are then filtered horizontally together: each output sample is a
/// chain of multiply-add-pairs with no sum across vector lanes. The
/// horizontal pass runs on output rows only, and no full-size image is ever
/// held: a 12 MP photo streams through a few hundred kilobytes.
final class PlaneResampler {
    /// Source plane size.
    let sourceWidth: Int, sourceHeight: Int
    /// Output plane size.
    let width: Int, height: Int

    /// Output rows filtered horizontally together (the C kernels' batch).
    static let batch = 8

    /// The C kernels' vertical filter: per output row (padded to whole
    /// batches by repeating the last row: a short last batch computes copies
    /// it does not store) an even first source row and `pairs` pairs of Q14
    /// weights (a zero in front where the Lanczos window starts on an odd
    /// row, its last tap then left out if negligible: `pairedWindows`),
    /// the sample range's scale folded in.
    struct VerticalFilter: Sendable {
        var starts: [Int]
        var weights: [Int16]
        var pairs: Int
        /// Source rows the widest batch reads.
        var windowRows: Int
    }

    /// The C kernels' horizontal filter: per output sample (padded to whole
    /// groups of eight with the last) its first pair of columns, and its
    /// Q14 weights in pairs (low 16 bits the even column), tap pair j of
    /// sample x at `((x / 8) * pairs + j) * 8 + x % 8` (zero for padding).
    struct HorizontalFilter: Sendable {
        var startPairs: [Int32]
        var weights: [Int32]
        var pairs: Int
    }

    /// The float filters of the Swift reference (tests only).
    private struct Reference {
        var vertical: LanczosResampler.Taps
        var horizontal: LanczosResampler.Taps
    }

    private struct FilterKey: Hashable {
        var input: Int, output: Int, scale: UInt32
    }

    /// Filters by (input, output, scale): rounding thousands of weights for
    /// every plane of every photo cost as much as the kernels saved.
    private static let verticalFilters = MadeOnce<FilterKey, VerticalFilter>(limit: 64)
    private static let horizontalFilters = MadeOnce<FilterKey, HorizontalFilter>(limit: 64)

    private let vertical: VerticalFilter
    private let horizontal: HorizontalFilter
    private let reference: Reference?
    /// The range's offset less the intermediate's midpoint in Q14, plus the
    /// vertical pass's rounding.
    private let bias: Int32
    /// Where each batch's window starts, relative to its first row (Int32:
    /// the C kernel's type).
    private let batchFirst: UnsafeMutablePointer<Int32>
    /// Which C kernel: 0, the one chosen for this CPU; tests name one, or
    /// -1 for the Swift loops.
    private let kernel: Int32
    /// The latest `ringCount` source rows: row r at r % ringCount, in place
    /// where it was borrowed, or in `copies`.
    private let ring: UnsafeMutablePointer<UnsafePointer<UInt8>?>
    private let ringCount: Int
    /// Room for `ringCount` rows, made at the first row pushed by copy.
    private var copies: UnsafeMutablePointer<UInt8>?
    /// Whether any row was borrowed: those may be gone once the source ends.
    private var borrowed = false
    /// Eight vertically filtered rows, pairs of columns side by side (the
    /// C kernels' layout), zeroed so that the columns past the plane that a
    /// window's zero weights reach are numbers. It and `scratch` are aligned
    /// to cache lines: a vector load that straddles two lines costs two, and
    /// the kernels' loads are what they wait on (15 % of the resampling).
    private let interleaved: UnsafeMutablePointer<Int16>
    /// The C kernel's strip of the window, widened to 16 bits.
    private let scratch: UnsafeMutablePointer<Int16>
    /// One vertically filtered row (the Swift reference).
    private let column: UnsafeMutablePointer<Float>
    /// A batch's window of source rows (the reference: one row's taps).
    private let rowPointers: UnsafeMutablePointer<UnsafePointer<UInt8>>
    private var output: [UInt8]
    private var received = 0
    private var produced = 0

    /// Applied to every source sample: a change of sample range (full to
    /// limited) costs nothing here and is rounded once, with the output,
    /// because the filter is linear (the C kernels fold the scale into the
    /// vertical weights and add the offset once).
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

    /// A filter's windows laid on pairs of samples, as the C kernels read
    /// them: per output an even first sample (its Lanczos start rounded
    /// down), and `pairs` pairs of taps.
    struct PairedWindows {
        var starts: [Int]
        var pairs: Int
    }

    /// A tap this small (of a filter summing to 1) may be left out to save
    /// a pair: at most a quarter of a level on the output (the float
    /// reference keeps it; the kernels stay within 1 of it).
    static let negligibleTap: Float = 1.0 / 1024

    /// Lays `taps` on pairs. A window starting on an odd sample moves to the
    /// even one before it; with an even number of taps that costs a pair of
    /// which one half is a zero, unless the last tap of every odd window is
    /// negligible: then that tap is left out. This is the common case of a
    /// 16-tap window (a reduction by 2.5, 12 MP to 1600 × 1200), whose end
    /// taps sit where Lanczos-3 is ~1e-4: 8 pairs, not 9.
    static func pairedWindows(_ taps: LanczosResampler.Taps) -> PairedWindows {
        let count = taps.count
        let lastIsNegligible = taps.starts.indices.allSatisfy { i in
            taps.starts[i] % 2 == 0 || abs(taps.weights[i * count + count - 1]) <= negligibleTap
        }
        let pairs = count % 2 == 0 && lastIsNegligible ? count / 2 : (count + 2) / 2
        return PairedWindows(starts: taps.starts.map { $0 & ~1 }, pairs: pairs)
    }

    /// Samples (bytes) the ring of a resampler from `sourceWidth ×
    /// sourceHeight` to `height` rows holds, or nil past Int's range.
    static func ringSamples(sourceWidth: Int, sourceHeight: Int, height: Int) -> Int? {
        let windows = pairedWindows(LanczosResampler.taps(from: sourceHeight, to: height))
        let rows = min(sourceHeight, ringRows(starts: windows.starts, count: 2 * windows.pairs))
        let (samples, overflow) = rows.multipliedReportingOverflow(by: sourceWidth)
        return overflow ? nil : samples
    }

    /// `weights` times `scale` in Q14, summing to exactly `scale` in Q14 (a
    /// flat area stays flat): each rounded, the remainder of the rounding
    /// given to the largest.
    static func fixedPoint(_ weights: some Collection<Float>, scale: Float) -> [Int16] {
        let one = Float(1 << GG_RESAMPLE_WEIGHT_BITS)
        func q14(_ value: Float) -> Int { Int(max(-32768, min(32767, (value * one).rounded()))) }
        var fixed = weights.map { q14($0 * scale) }
        guard let largest = fixed.indices.max(by: { abs(fixed[$0]) < abs(fixed[$1]) }) else { return [] }
        fixed[largest] += q14(scale) - fixed.reduce(0, +)
        return fixed.map { Int16(clamping: $0) }
    }

    /// Output i's float weights over its whole paired window: tap k at
    /// k + 1 when the Lanczos window starts on an odd sample, else at k;
    /// zeros where it has no tap, a tap past the window left out.
    static func windowWeights(_ taps: LanczosResampler.Taps, _ windows: PairedWindows, _ i: Int) -> [Float] {
        var window = [Float](repeating: 0, count: 2 * windows.pairs)
        for k in 0..<taps.count {
            let position = taps.starts[i] - windows.starts[i] + k
            if window.indices.contains(position) { window[position] = taps.weights[i * taps.count + k] }
        }
        return window
    }

    /// The vertical filter from `input` to `output` rows, made once.
    static func verticalFilter(from input: Int, to output: Int, scale: Float) -> VerticalFilter {
        verticalFilters.value(for: FilterKey(input: input, output: output, scale: scale.bitPattern)) {
            makeVerticalFilter(from: input, to: output, scale: scale)
        }
    }

    private static func makeVerticalFilter(from input: Int, to output: Int, scale: Float) -> VerticalFilter {
        let taps = LanczosResampler.taps(from: input, to: output)
        let windows = pairedWindows(taps)
        let pairs = windows.pairs
        let rows = (output + batch - 1) / batch * batch
        var starts = [Int](repeating: 0, count: rows)
        var weights = [Int16](repeating: 0, count: rows * 2 * pairs)
        for row in 0..<rows {
            let source = min(row, output - 1)
            starts[row] = windows.starts[source]
            let fixed = fixedPoint(windowWeights(taps, windows, source), scale: scale)
            for (k, weight) in fixed.enumerated() { weights[row * 2 * pairs + k] = weight }
        }
        return VerticalFilter(starts: starts, weights: weights, pairs: pairs, windowRows: ringRows(starts: starts, count: 2 * pairs))
    }

    /// The horizontal filter from `input` to `output` columns, made once.
    static func horizontalFilter(from input: Int, to output: Int) -> HorizontalFilter {
        horizontalFilters.value(for: FilterKey(input: input, output: output, scale: Float(1).bitPattern)) {
            makeHorizontalFilter(from: input, to: output)
        }
    }

    private static func makeHorizontalFilter(from input: Int, to output: Int) -> HorizontalFilter {
        let taps = LanczosResampler.taps(from: input, to: output)
        let windows = pairedWindows(taps)
        let pairs = windows.pairs
        let groups = (output + batch - 1) / batch
        var startPairs = [Int32](repeating: Int32(truncatingIfNeeded: windows.starts[output - 1] / 2), count: groups * batch)
        var weights = [Int32](repeating: 0, count: groups * batch * pairs)
        for x in 0..<output {
            startPairs[x] = Int32(truncatingIfNeeded: windows.starts[x] / 2)
            let window = fixedPoint(windowWeights(taps, windows, x), scale: 1)
            for j in 0..<pairs {
                let both = UInt32(UInt16(bitPattern: window[2 * j])) | UInt32(UInt16(bitPattern: window[2 * j + 1])) << 16
                weights[((x / batch) * pairs + j) * batch + x % batch] = Int32(bitPattern: both)
            }
        }
        return HorizontalFilter(startPairs: startPairs, weights: weights, pairs: pairs)
    }

    /// A resampler from `sourceWidth × sourceHeight` to `width × height`,
    /// mapping each source sample s to `s × sampleScale + sampleOffset`.
    init(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int, sampleScale: Float = 1, sampleOffset: Float = 0,
         kernel: Int32 = 0) {
        precondition(sourceWidth > 0 && sourceHeight > 0 && width > 0 && height > 0, "empty plane")
        self.kernel = kernel
        self.sampleScale = sampleScale
        self.sampleOffset = sampleOffset
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.width = width
        self.height = height
        vertical = Self.verticalFilter(from: sourceHeight, to: height, scale: sampleScale)
        horizontal = Self.horizontalFilter(from: sourceWidth, to: width)
        reference = kernel < 0
            ? Reference(vertical: LanczosResampler.taps(from: sourceHeight, to: height),
                        horizontal: LanczosResampler.taps(from: sourceWidth, to: width))
            : nil
        column = .allocate(capacity: kernel < 0 ? sourceWidth : 0)
        bias = Int32(clamping: Int(((sampleOffset - Float(GG_RESAMPLE_MIDPOINT)) * Float(1 << GG_RESAMPLE_WEIGHT_BITS)).rounded()))
            + (1 << (GG_RESAMPLE_VERTICAL_SHIFT - 1))
        // The ring holds the widest batch window of the C kernels (the
        // reference's windows lie inside them).
        ringCount = min(sourceHeight, vertical.windowRows)
        ring = .allocate(capacity: ringCount)
        ring.initialize(repeating: nil, count: ringCount)
        // Every pair a window reaches: the last start's pair plus its pairs.
        let interleavedCount = (sourceWidth / 2 + horizontal.pairs + 1) * 2 * Self.batch
        interleaved = UnsafeMutableRawPointer.allocate(byteCount: interleavedCount * 2, alignment: 64)
            .bindMemory(to: Int16.self, capacity: interleavedCount)
        interleaved.initialize(repeating: 0, count: interleavedCount)
        let scratchCount = vertical.windowRows * Int(GG_RESAMPLE_STRIP)
        scratch = UnsafeMutableRawPointer.allocate(byteCount: scratchCount * 2, alignment: 64).bindMemory(to: Int16.self, capacity: scratchCount)
        rowPointers = .allocate(capacity: max(vertical.windowRows, reference?.vertical.count ?? 0))
        batchFirst = .allocate(capacity: Self.batch)
        // Every row is written before `finish` hands the plane out (rows never
        // made are zeroed there): no pass of zeros over megabytes first.
        output = [UInt8](unsafeUninitializedCapacity: width * height) { _, count in count = width * height }
    }

    deinit {
        ring.deallocate()
        copies?.deallocate()
        interleaved.deallocate()
        scratch.deallocate()
        rowPointers.deallocate()
        batchFirst.deallocate()
        column.deallocate()
    }

    /// How many of the latest source rows the resampler reads: a row pushed
    /// with `push(borrowing:)` must stay readable until this many more rows
    /// (itself included) have been pushed.
    var rowsRead: Int { ringCount }

    /// Source row r, received.
    @inline(__always)
    private func row(_ r: Int) -> UnsafePointer<UInt8> {
        ring[r % ringCount]!
    }

    /// Takes the next source row (`sourceWidth` samples), copied, and makes
    /// every output row whose window it completes.
    func push(_ row: UnsafePointer<UInt8>) {
        guard received < sourceHeight else { return }
        let storage = copies ?? UnsafeMutablePointer<UInt8>.allocate(capacity: ringCount * sourceWidth)
        copies = storage
        let slot = storage + (received % ringCount) * sourceWidth
        slot.update(from: row, count: sourceWidth)
        take(UnsafePointer(slot))
    }

    /// Takes the next source row where it is, for as long as `rowsRead` says.
    func push(borrowing row: UnsafePointer<UInt8>) {
        guard received < sourceHeight else { return }
        borrowed = true
        take(row)
    }

    /// Whether every source row has been pushed.
    var hasEveryRow: Bool { received == sourceHeight }

    private func take(_ row: UnsafePointer<UInt8>) {
        ring[received % ringCount] = row
        received += 1
        makeCompletedRows()
    }

    /// Makes every output row whose window the rows received so far complete:
    /// a batch of eight once the last of them can be made (the Swift
    /// reference, one at a time).
    private func makeCompletedRows() {
        while produced < height {
            if let reference {
                guard reference.vertical.starts[produced] + reference.vertical.count <= received else { return }
                makeRow(produced)
                produced += 1
            } else {
                let last = min(produced + Self.batch, height) - 1
                guard min(sourceHeight, vertical.starts[last] + 2 * vertical.pairs) <= received else { return }
                makeRows(produced...last)
                produced = last + 1
            }
        }
    }

    /// The C kernels: the vertical pass for the eight rows from
    /// `rows.lowerBound` (the batch's padding rows included), then the
    /// horizontal pass for all of them, storing `rows`.
    private func makeRows(_ rows: ClosedRange<Int>) {
        let first = rows.lowerBound
        let base = vertical.starts[first]
        let windowRows = vertical.starts[first + Self.batch - 1] + 2 * vertical.pairs - base
        // Rows past the plane carry zero weights: any row will do.
        for i in 0..<windowRows { rowPointers[i] = row(min(base + i, sourceHeight - 1)) }
        for r in 0..<Self.batch { batchFirst[r] = Int32(vertical.starts[first + r] - base) }
        vertical.weights.withUnsafeBufferPointer { all in
            // An optional pointer has the same layout as a pointer: C's `const uint8_t *const *`.
            let window = UnsafeRawPointer(rowPointers).assumingMemoryBound(to: UnsafePointer<UInt8>?.self)
            gg_resample_vertical8(kernel, window, Int32(windowRows), batchFirst, all.baseAddress! + first * 2 * vertical.pairs,
                                  Int32(vertical.pairs), bias, scratch, interleaved, Int32(sourceWidth))
        }
        output.withUnsafeMutableBufferPointer { out in
            horizontal.startPairs.withUnsafeBufferPointer { starts in
                horizontal.weights.withUnsafeBufferPointer { weights in
                    gg_resample_horizontal8(kernel, interleaved, starts.baseAddress!, weights.baseAddress!, Int32(horizontal.pairs),
                                            out.baseAddress! + first * width, width, Int32(rows.count), Int32(width))
                }
            }
        }
    }

    /// Pushes every row of `plane`, in place: the plane's last row completes
    /// the last output rows, so nothing reads the plane after this returns.
    func push(_ plane: Plane) {
        plane.samples.withUnsafeBufferPointer { samples in
            for y in 0..<plane.height { push(borrowing: samples.baseAddress! + y * plane.width) }
        }
    }

    /// The finished plane. If the source ended early (it cannot, for a decode
    /// that succeeded) the missing rows repeat the last one received when
    /// every row was copied; borrowed rows may be gone by then, so those
    /// output rows are left zero.
    func finish() -> Plane {
        if received > 0 && !borrowed {
            // The last row is in the ring already: it stands for the rest.
            let last = row(received - 1)
            while received < sourceHeight { take(last) }
        }
        if produced < height {
            output.withUnsafeMutableBufferPointer { rows in
                (rows.baseAddress! + produced * width).initialize(repeating: 0, count: (height - produced) * width)
            }
        }
        return Plane(width: width, height: height, samples: output)
    }

    /// The Swift reference for one output row.
    private func makeRow(_ y: Int) {
        guard let reference else { return }
        let taps = reference.vertical
        for k in 0..<taps.count { rowPointers[k] = row(taps.starts[y] + k) }
        // Vertical: each sample converted and mapped to the output's range,
        // then weighted.
        for x in 0..<sourceWidth {
            var sum: Float = 0
            for k in 0..<taps.count {
                sum += taps.weights[y * taps.count + k] * (Float(rowPointers[k][x]) * sampleScale + sampleOffset)
            }
            column[x] = sum
        }
        // Horizontal: one sum per output sample, rounded to the nearest byte.
        let across = reference.horizontal
        for x in 0..<width {
            var sum: Float = 0
            for k in 0..<across.count { sum += across.weights[x * across.count + k] * column[across.starts[x] + k] }
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
