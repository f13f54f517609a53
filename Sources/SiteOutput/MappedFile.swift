import Foundation

/// A file mapped for one pass of reading, its pages handed back to the
/// kernel as the reading moves past them (`release(before:)`).
///
/// The state of a million photos is 450 MB. Mapped whole and read once from
/// start to end, every page read stayed in the process's resident memory
/// until the mapping was let go: with the entries decoded beside it, a
/// no-op build's peak was the state's size higher. Pages handed back are
/// the file's again (the page cache's), read again from it if touched.
final class MappedFile {
    private let base: UnsafeMutableRawPointer
    let count: Int
    /// Below this offset the pages are handed back.
    private(set) var releasedBytes = 0
    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
    /// Pages are handed back in runs at least this long (one call per run).
    private let run: Int

    /// Maps the file open at `descriptor` (read only, never written); nil
    /// when it is empty or cannot be mapped.
    init?(descriptor: Int32, releasingRunsOf run: Int = 8 << 20) {
        self.run = run
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_size > 0,
              let mapped = mmap(nil, Int(status.st_size), PROT_READ, MAP_PRIVATE, descriptor, 0), mapped != MAP_FAILED else { return nil }
        base = mapped
        count = Int(status.st_size)
    }

    deinit { munmap(base, count) }

    /// The bytes, not copied (valid while this object lives).
    var data: Data { Data(bytesNoCopy: base, count: count, deallocator: .none) }

    /// Hands back the whole pages below `offset` (less a page, for the
    /// entry being read), once they are a run long.
    func release(before offset: Int) {
        let end = (max(0, min(offset, count) - Self.pageSize) / Self.pageSize) * Self.pageSize
        guard end - releasedBytes >= run else { return }
        madvise(base + releasedBytes, end - releasedBytes, MADV_DONTNEED)
        releasedBytes = end
    }
}
