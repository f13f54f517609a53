import Foundation

/// Writes files so a reader (or a build killed mid-way) never sees a half-written
/// one: bytes go to a temporary name in the same folder, then `rename` moves them
/// into place in one step. Used only by `OutputFolder`.
enum AtomicFile {
    /// `.NAME.tmp-PID-N`: hidden, and unique per process and write.
    static func temporaryName(for name: String) -> String {
        ".\(name).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    /// True for names `temporaryName` makes: only an interrupted write leaves one behind.
    static func isTemporaryName(_ name: String) -> Bool {
        name.hasPrefix(".") && name.range(of: #"\.tmp-[0-9]+-[0-9]+$"#, options: .regularExpression) != nil
    }

    /// Writes `bytes` to `url`, creating parent folders.
    /// `fault` fails the write as the file system would (tests' `WriteFaults`).
    static func write(_ bytes: UnsafeRawBufferPointer, to url: URL, fault: (String) -> POSIXError? = { _ in nil }) throws(OutputError) {
        if let fault = fault(url.path) { throw OutputError.failure(writing: url.path, fault) }
        let folder = url.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(temporaryName(for: url.lastPathComponent))
        do {
            var descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            if descriptor < 0, errno == ENOENT {
                // The folder is new: made once, not checked on every write
                // (a stat per path component for each of 30,000 pages).
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            }
            guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            var written = 0
            while written < bytes.count {
                let n = Foundation.write(descriptor, bytes.baseAddress! + written, bytes.count - written)
                if n < 0 {
                    if errno == EINTR { continue }
                    let code = errno
                    close(descriptor)
                    throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
                }
                written += n
            }
            guard close(descriptor) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            guard rename(temporary.path, url.path) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        } catch {
            unlink(temporary.path)
            throw OutputError.failure(writing: url.path, error)
        }
    }
}
