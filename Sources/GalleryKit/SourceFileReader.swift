import Foundation
import GalleryCore

/// Reads a source file by its raw path bytes (names need not be UTF-8), in one
/// allocation sized from `fstat`.
enum SourceFileReader {
    /// Files larger than this are not read at all: no photo needs 1 GiB.
    static let maximumBytes = 1 << 30

    static func read(_ file: SourceFile) throws -> [UInt8] {
        let descriptor = file.rawPath.withUnsafeBufferPointer { open($0.baseAddress!, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw POSIXError(.EISDIR) }
        let size = Int(info.st_size)
        guard size <= maximumBytes else { throw POSIXError(.EFBIG) }
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        try bytes.withUnsafeMutableBytes { buffer in
            while done < size {
                let n = Foundation.read(descriptor, buffer.baseAddress! + done, size - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                }
                if n == 0 { break }  // the file shrank while being read
                done += n
            }
        }
        return done == size ? bytes : Array(bytes.prefix(done))
    }
}
