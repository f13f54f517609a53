import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Process-wide allocator settings for a build.
///
/// Every photo allocates a few buffers of 0.3–5 MB (the file, output planes,
/// encoder output). glibc serves blocks that size with a fresh `mmap` and
/// returns them with `munmap`, so each photo paid ~2,000 page faults and the
/// kernel zeroing every page: 447,000 minor faults and 1.6 s of system time for
/// 200 photos. Keeping such blocks in the heap (and not trimming it after each
/// free) cut that to 9,000 faults and 0.3 s, 11% of the wall time. Memory stays
/// bounded by the build's own peak (a few buffers per photo in flight).
public enum MemoryTuning {
    /// Applies the settings; call once, before the build starts threads.
    public static func apply() {
        keepLargeBlocks()
        mallopt(trimThreshold, 256 << 20)
        mallopt(topPad, 16 << 20)
        // Two heaps per core, not glibc's eight: memory one thread freed is
        // reused only by the threads that share its heap, and the build's
        // many short-lived threads (page runs, the walker, a search index
        // made alongside) each left free memory where no other would take it.
        mallopt(arenaMaximum, Int32(2 * max(1, ProcessInfo.processInfo.activeProcessorCount)))
    }

    /// Blocks up to 64 MB are kept in the heap when freed (see above): for
    /// the media a build makes. Set again at each build's start.
    public static func keepLargeBlocks() { mallopt(mmapThreshold, 64 << 20) }

    /// Blocks of a megabyte or more are mapped on their own and given back
    /// when freed: from the page step on, a build makes no image buffers,
    /// and its large blocks are a whole library's tables, made once and let
    /// go. Kept in the heap, each left a hole no later table fitted: at
    /// 1,000,000 items 70 MB of free blocks over a megabyte at the plan's
    /// peak, and a removal's prune held 1,100 MB where it needs 1,040.
    public static func giveBackLargeBlocks() { mallopt(mmapThreshold, 1 << 20) }

    // The parameters' values as glibc's `<malloc.h>` defines them.
    private static let trimThreshold: Int32 = -1, topPad: Int32 = -2, mmapThreshold: Int32 = -3, arenaMaximum: Int32 = -8

    /// Sets one of glibc's allocator parameters. `<malloc.h>` is not in the
    /// Glibc module: `mallopt` is looked up by name, with its C calling convention.
    private static func mallopt(_ parameter: Int32, _ value: Int32) {
        #if canImport(Glibc)
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(nil, "mallopt") else { return }
        _ = unsafeBitCast(symbol, to: Mallopt.self)(parameter, value)
        #endif
    }

    /// Hands the heap's free memory back to the system after a step that
    /// let go of much (`BuildStep.letsGoOfMuch`): the heap is kept whole
    /// within a step (see above), but what the media step and the page step
    /// let go of (the previous state's entries, a plan of 100,000 pages) sat
    /// in the process's RSS through the steps after them (20 to 50 MB of an
    /// add's 300 MB at 100,000 photos). After every step it cost more time
    /// (pages given back and faulted in again) for no less memory.
    public static func releaseFreeMemory() {
        #if canImport(Glibc)
        typealias Trim = @convention(c) (Int) -> Int32
        guard let symbol = dlsym(nil, "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
        #endif
    }

    /// The most memory the process has held so far (VmHWM: resident
    /// pages, as `time -f %M` counts them), nil where /proc has none.
    public static func peakResidentBytes() -> Int? {
        // (Read line by line: /proc files say they are empty, so Foundation reads nothing.)
        guard let file = fopen("/proc/self/status", "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard text.hasPrefix("VmHWM:") else { continue }
            return text.dropFirst("VmHWM:".count).split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) }.map { $0 * 1024 }
        }
        return nil
    }
}
