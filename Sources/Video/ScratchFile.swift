import Foundation

/// A private temporary file outside OUT, for bytes an external program must
/// read from a path (a Motion Photo's embedded MP4: MP4 is not streamable
/// from a pipe when its index sits at the end).
public enum ScratchFile {
    /// Writes `bytes` to a new file in the system's temporary folder (mode
    /// 0600, a name no other file has), runs `body` with it, and removes it.
    public static func with<T>(_ bytes: UnsafeRawBufferPointer, suffix: String, _ body: (URL) throws -> T) throws -> T {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("gallerygen-\(getpid())-\(UInt64.random(in: 0...UInt64.max))\(suffix)")
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { unlink(url.path) }
        var written = 0
        while written < bytes.count {
            let n = write(descriptor, bytes.baseAddress! + written, bytes.count - written)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                let code = errno
                close(descriptor)
                throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
            }
            written += n
        }
        close(descriptor)
        return try body(url)
    }
}
