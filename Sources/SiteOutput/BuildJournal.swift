import Foundation

/// An append-only list of files a running build is about to write
/// (`STATE/journal`). If the build is killed, the next one finds the
/// journal, counts those files as its own (so it may prune them), and removes
/// leftover temporary files; a finished build deletes the journal after
/// committing its state.
public final class BuildJournal: @unchecked Sendable {
    private let lock = NSLock()
    /// Where it is (`STATE/journal`, or a part's own).
    let url: URL
    private var handle: FileHandle?
    /// Where this build's own records begin: after what an interrupted
    /// build left, which this build appends to. Nil until it records one.
    private var ownStart: UInt64?
    /// This build's records as read back (`ownRecords`), until it records another.
    private var ownRead: WrittenPaths?

    /// The journal of a build whose state folder is `state`.
    public convenience init(state: URL) {
        self.init(url: state.appendingPathComponent("journal"))
    }

    /// A journal at `url` (each part of a sharded build keeps its own).
    public init(url: URL) {
        self.url = url
    }

    /// Paths a previous, interrupted build journaled (empty when it finished).
    public func leftover() -> [String] {
        (try? Self.records(in: url, from: 0)).map { Array($0) } ?? []
    }

    /// The journal's records from byte `offset` on: a path a line (`record`
    /// refuses a path with a line break). An empty line is none, and so is a
    /// last line a killed build left unended: its file was not begun.
    private static func records(in url: URL, from offset: UInt64) throws -> WrittenPaths {
        let read = WrittenPaths()
        let reader = try FileHandle(forReadingFrom: url)
        defer { try? reader.close() }
        try reader.seek(toOffset: offset)
        var partial: [UInt8] = []
        while let chunk = try reader.read(upToCount: 1 << 20), !chunk.isEmpty {
            partial += chunk
            var start = 0
            partial.withUnsafeBytes { bytes in
                while start < bytes.count, let found = memchr(bytes.baseAddress! + start, 0x0A, bytes.count - start) {
                    let end = bytes.baseAddress!.distance(to: UnsafeRawPointer(found))
                    if end > start { read.append(utf8: UnsafeRawBufferPointer(rebasing: bytes[start..<end])) }
                    start = end + 1
                }
            }
            partial.removeFirst(start)
        }
        return read
    }

    /// True when a previous build did not finish.
    public var wasInterrupted: Bool { FileManager.default.fileExists(atPath: url.path) }

    /// Records `path` before it is written. The write reaches the kernel at
    /// once, so it survives the process being killed.
    public func record(_ path: String) throws {
        try lock.withLock {
            if handle == nil {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                if !FileManager.default.fileExists(atPath: url.path) {
                    // A failure shows up as the FileHandle error below.
                    _ = FileManager.default.createFile(atPath: url.path, contents: nil)
                }
                handle = try FileHandle(forWritingTo: url)
                let end = try handle?.seekToEnd()
                if ownStart == nil { ownStart = end }
            }
            ownRead = nil
            try handle?.write(contentsOf: Data((path + "\n").utf8))
        }
    }

    /// The paths this build recorded, in order, read back from the file:
    /// the list of what a build wrote is the journal's, not a second copy
    /// of it held in memory through the build (2,000,000 paths, 94 MB, at
    /// the page step's peak of a first build of 1,000,000 photos). Kept
    /// once read (and after `finish`), until another is recorded.
    func ownRecords() throws(OutputError) -> WrittenPaths {
        lock.lock()
        defer { lock.unlock() }
        if let ownRead { return ownRead }
        guard let ownStart else { return [] }
        do {
            let read = try Self.records(in: url, from: ownStart)
            ownRead = read
            return read
        } catch {
            throw .writeFailed(url.path, reason: "the journal of what this build wrote cannot be read back (\(error.localizedDescription))")
        }
    }

    /// Deletes the journal after the state is committed.
    public func finish() {
        _ = try? ownRecords()
        lock.withLock {
            try? handle?.close()
            handle = nil
            try? FileManager.default.removeItem(at: url)
        }
    }
}
