import Foundation
import GalleryCore

/// Reads a source file by its raw path bytes (names need not be UTF-8), in one
/// allocation sized from `fstat`.
public enum SourceFileReader {
    /// Files larger than this are not read at all: no photo needs 1 GiB.
    public static let maximumBytes = 1 << 30

    public static func read(_ file: SourceFile) throws -> [UInt8] {
        let descriptor = file.rawPath.withUnsafeBufferPointer { open($0.baseAddress!, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw POSIXError(.EISDIR) }
        let size = Int(info.st_size)
        guard size <= maximumBytes else { throw POSIXError(.EFBIG) }
        // Read straight into uninitialised storage: zero-filling megabytes
        // per photo only to overwrite them is a wasted pass.
        var failure: POSIXError?
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            var done = 0
            while done < size {
                let n = Foundation.read(descriptor, buffer.baseAddress! + done, size - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                    break
                }
                if n == 0 { break }  // the file shrank while being read: keep what arrived
                done += n
            }
            count = done
        }
        if let failure { throw failure }
        return bytes
    }

    /// The content hash of a file of any size (a video can be gigabytes),
    /// read in chunks: the same hash `StableHash.of` gives the whole bytes
    /// (the chunks are a multiple of the hash's 16-byte word pair).
    public static func contentHash(of file: SourceFile) throws -> String {
        let descriptor = file.rawPath.withUnsafeBufferPointer { open($0.baseAddress!, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        let chunk = 4 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        var hasher = StableHash()
        while true {
            // Fill the chunk completely (short reads happen) so the split never shifts.
            var filled = 0
            while filled < chunk {
                let n = Foundation.read(descriptor, buffer.baseAddress! + filled, chunk - filled)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                }
                if n == 0 { break }
                filled += n
            }
            hasher.update(UnsafeRawBufferPointer(rebasing: buffer[0..<filled]))
            if filled < chunk { break }
        }
        return hasher.finalize()
    }
}
