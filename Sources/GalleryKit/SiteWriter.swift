import BuildCache
import Foundation

/// Writes the site's files: journals each path before writing it, writes to a
/// temporary name and renames it into place, and keeps the list of what it
/// wrote for the report. Safe to use from several photo jobs at once.
final class SiteWriter: @unchecked Sendable {
    let output: URL
    let journal: BuildJournal
    private let lock = NSLock()
    private var written: [String] = []

    init(output: URL) {
        self.output = output
        self.journal = BuildJournal(output: output)
    }

    /// Writes `bytes` to `path` (relative to OUT).
    func write(_ bytes: UnsafeRawBufferPointer, to path: String) throws(GalleryError) {
        do {
            try journal.record(path)
        } catch {
            throw .writeFailed(output.appendingPathComponent(BuildState.folderName).path, reason: ErrorText.describe(error))
        }
        try AtomicFile.write(bytes, to: output.appendingPathComponent(path))
        lock.withLock { written.append(path) }
    }

    /// Writes unless the file already holds exactly these bytes; a page whose
    /// bytes did not change keeps its modification time.
    func writeIfChanged(_ bytes: [UInt8], to path: String) throws(GalleryError) {
        let url = output.appendingPathComponent(path)
        if let existing = FileManager.default.contents(atPath: url.path), existing.count == bytes.count, existing.elementsEqual(bytes) {
            return
        }
        let result: Result<Void, GalleryError> = bytes.withUnsafeBytes { raw in Result { () throws(GalleryError) in try write(raw, to: path) } }
        try result.get()
    }

    /// Everything written so far, sorted.
    var writtenPaths: [String] { lock.withLock { written.sorted() } }
}
