import Foundation

/// Writes files so a reader (or a build killed mid-way) never sees a half-written
/// one: bytes go to a temporary name in the same folder, then `rename` moves them
/// into place in one step.
enum AtomicFile {
    /// Writes `bytes` to `url`, creating parent folders.
    static func write(_ bytes: UnsafeRawBufferPointer, to url: URL) throws(GalleryError) {
        let folder = url.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
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
            throw .writeFailed(url.path, reason: ErrorText.describe(error))
        }
    }
}
