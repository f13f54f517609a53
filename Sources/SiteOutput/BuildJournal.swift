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
        guard let data = try? Data(contentsOf: url) else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
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
                try handle?.seekToEnd()
            }
            try handle?.write(contentsOf: Data((path + "\n").utf8))
        }
    }

    /// Deletes the journal after the state is committed.
    public func finish() {
        lock.withLock {
            try? handle?.close()
            handle = nil
            try? FileManager.default.removeItem(at: url)
        }
    }
}
