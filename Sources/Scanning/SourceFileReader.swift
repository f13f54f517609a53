import Foundation
import GalleryCore

/// Reads a source file by its raw path bytes (names need not be UTF-8), in one
/// allocation sized from `fstat`.
public enum SourceFileReader {
    /// Files larger than this are not read at all: no photo needs 1 GiB.
    public static let maximumBytes = 1 << 30

    /// What identifies one version of a file: where it lives (a save through
    /// a temporary file and `rename` gives a new inode), its size and its
    /// modification time.
    public struct Stamp: Equatable, Sendable {
        public var device: UInt64, inode: UInt64, size: Int64, modifiedNanoseconds: Int64

        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            modifiedNanoseconds = FileTime.nanoseconds(info.st_mtim)
        }

        /// True when `file` (as the scan saw it) has this size and time.
        public func matches(_ file: SourceFile) -> Bool {
            size == file.byteCount && modifiedNanoseconds == file.modifiedNanoseconds
        }
    }

    /// The stamp of the file at `file`'s path now, or nil when it is gone.
    public static func stamp(_ file: SourceFile) -> Stamp? {
        var info = stat()
        let found = file.rawPath.withUnsafeBufferPointer { stat($0.baseAddress!, &info) } == 0
        return found ? Stamp(info) : nil
    }

    /// A file modified less than this long ago may still be being written
    /// (a copy in progress): it is taken only once it has held still this long.
    public static let quietPeriod = 0.2

    /// Reads `file` whole and makes sure the bytes are one version of it: the
    /// size and time before and after the read agree with each other and
    /// with the bytes read, and the path still names the file read. A file
    /// that changed since the scan is read again, 0.1 s later, and taken when
    /// that read agrees with the previous one; a file modified within
    /// `quietPeriod` is taken once it has stayed unchanged that long. A copy
    /// in progress or a photo rewritten under the build is never published
    /// half-read. Returns the bytes and the file with the size and time they
    /// belong to (what the cache records); throws `SourceChangedError` when it
    /// will not hold still, or is gone.
    public static func readSteady(_ file: SourceFile) throws -> (bytes: [UInt8], file: SourceFile) {
        var previous: Stamp?
        for attempt in 0..<3 {
            if attempt > 0 { usleep(100_000) }
            let bytes: [UInt8], before: Stamp, after: Stamp
            do {
                (bytes, before, after) = try readStamped(file)
            } catch let error as POSIXError where error.code == .ENOENT {
                throw SourceChangedError(path: file.displayPath, removed: true)
            }
            guard before == after, Int64(bytes.count) == before.size, stamp(file) == before else {
                previous = nil
                continue
            }
            guard before.matches(file) || before == previous else {
                previous = before
                continue
            }
            let age = Date().timeIntervalSince1970 - TimeInterval(before.modifiedNanoseconds) / 1e9
            if age < quietPeriod {
                usleep(useconds_t((quietPeriod - max(0, age)) * 1e6))
                guard stamp(file) == before else {
                    previous = nil
                    continue
                }
            }
            var read = file
            read.byteCount = before.size
            read.modifiedNanoseconds = before.modifiedNanoseconds
            return (bytes, read)
        }
        throw SourceChangedError(path: file.displayPath, removed: false)
    }

    /// The bytes of `file` with its stamp just before and just after the read
    /// (of the same open file).
    static func readStamped(_ file: SourceFile) throws -> (bytes: [UInt8], before: Stamp, after: Stamp) {
        try withOpen(file) { descriptor, info in
            let bytes = try read(descriptor: descriptor, info: info)
            var now = stat()
            guard fstat(descriptor, &now) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            return (bytes, Stamp(info), Stamp(now))
        }
    }

    public static func read(_ file: SourceFile) throws -> [UInt8] {
        try withOpen(file) { descriptor, info in try read(descriptor: descriptor, info: info) }
    }

    /// Calls `body` with `file` open for reading and its `fstat`; closes it after.
    private static func withOpen<T>(_ file: SourceFile, _ body: (Int32, stat) throws -> T) throws -> T {
        let descriptor = file.rawPath.withUnsafeBufferPointer { open($0.baseAddress!, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return try body(descriptor, info)
    }

    /// The bytes of an open file whose `fstat` is `info`.
    private static func read(descriptor: Int32, info: stat) throws -> [UInt8] {
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

    /// Bytes of a file (of a JPEG: of its first scan) its shard key covers.
    public static let shardKeyBytes = 4096

    /// Which part of a sharded build (`Shard`) a file belongs to, from its
    /// content, never its path: a renamed photo stays in its part. Files
    /// whose renditions share a name must share a part (or two parts would
    /// write one file): a JPEG's renditions are named by its pixels, not its
    /// metadata (`ContentIdentity`), so its key is a hash of the segments
    /// that identity covers before the first scan (tables, frame header) and
    /// the first 4 KiB of the scan, never of EXIF, XMP or comments; any other
    /// file's, by its size and first 4 KiB. A few small reads per file, where
    /// the full content hash would make every part read the whole library.
    /// A file that cannot be read has key 0: the first part takes it, reads
    /// it and names the error.
    public static func shardKey(of file: SourceFile) -> UInt64 {
        (try? withOpen(file) { descriptor, info in
            // Read in small windows: a phone's JPEG starts with tens of kilobytes
            // of EXIF and XMP that are skipped, not read.
            var window = (start: 0, bytes: [UInt8]())
            return try shardKey(size: Int64(info.st_size)) { (offset, count) throws -> [UInt8] in
                if offset >= window.start, offset + count <= window.start + window.bytes.count {
                    return Array(window.bytes[(offset - window.start)..<(offset - window.start + count)])
                }
                let wanted = max(count, window.bytes.isEmpty ? 16 << 10 : 8 << 10)
                var buffer = [UInt8](repeating: 0, count: wanted)
                var filled = 0
                while filled < wanted {
                    let n = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + filled, wanted - filled, off_t(offset + filled)) }
                    if n < 0 {
                        if errno == EINTR { continue }
                        throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                    }
                    if n == 0 { break }
                    filled += n
                }
                window = (offset, Array(buffer[0..<filled]))
                return Array(window.bytes.prefix(count))
            }
        }) ?? 0
    }

    /// The same key from a file's bytes already in memory (a photo the build
    /// has just read: no second open).
    public static func shardKey(of bytes: UnsafeRawBufferPointer) -> UInt64 {
        shardKey(size: Int64(bytes.count)) { offset, count in
            guard offset < bytes.count else { return [] }
            return Array(bytes[offset..<min(bytes.count, offset + count)])
        }
    }

    /// The key of a file of `size` bytes whose bytes `read(offset, count)`
    /// gives (fewer at its end). Segments are hashed as they are read, so a
    /// hostile file of many segments costs reads, never memory.
    static func shardKey(size: Int64, read: (Int, Int) throws -> [UInt8]) rethrows -> UInt64 {
        var hasher = StableHash()
        func key() -> UInt64 { UInt64(hasher.finalize().prefix(16), radix: 16) ?? 0 }
        func whole() throws -> UInt64 {
            hasher = StableHash()
            withUnsafeBytes(of: size.littleEndian) { hasher.update($0) }
            try read(0, shardKeyBytes).withUnsafeBytes { hasher.update($0) }
            return key()
        }
        let start = try read(0, 2)
        guard start == [0xFF, 0xD8] else { return try whole() }
        hasher.update("jpeg")
        var offset = 2
        for _ in 0..<4096 {
            let marker = try read(offset, 4)
            guard marker.count == 4, marker[0] == 0xFF else { break }
            if marker[1] == 0xFF { offset += 1; continue }
            if marker[1] == 0xDA {
                try read(offset, shardKeyBytes).withUnsafeBytes { hasher.update($0) }
                return key()
            }
            let length = Int(marker[2]) << 8 | Int(marker[3])
            guard length >= 2 else { break }
            // Application segments and comments are metadata, except the two
            // that decide pixels (an ICC profile, Adobe's colour transform):
            // those stay out of the key too, which only has to be the same
            // whenever the pixel identity is.
            if !(0xE0...0xEF).contains(marker[1]), marker[1] != 0xFE {
                try read(offset, 2 + length).withUnsafeBytes { hasher.update($0) }
            }
            offset += 2 + length
        }
        // Not a JPEG the identity can read: its renditions are named by all of its bytes.
        return try whole()
    }

    /// The content hash of a file of any size (a video can be gigabytes),
    /// read in chunks: the same hash `StableHash.contentHash(of:)` gives the whole bytes
    /// (the chunks are a multiple of the hash's 16-byte word pair).
    public static func contentHash(of file: SourceFile) throws -> ContentHash {
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
        return hasher.contentHash()
    }
}

/// A source file that would not hold still while the build read it (still
/// being copied, rewritten) or that vanished: not published this time, and
/// read again by the next build (nothing of it is cached).
public struct SourceChangedError: Error, Sendable, CustomStringConvertible {
    /// The file, for messages.
    public var path: String
    /// True when it was removed rather than changed.
    public var removed: Bool

    public init(path: String, removed: Bool) {
        self.path = path
        self.removed = removed
    }

    public var description: String {
        removed ? "it was removed while the build ran"
            : "it changed while being read (still being copied?); the next build reads it again"
    }
}

/// A file's modification time as the cache compares it (nanoseconds since
/// 1970, exactly as the file system reports it): one conversion for the
/// scan and for a file read again (`SourceFile.modificationDate` is made from it).
enum FileTime {
    static func nanoseconds(_ time: timespec) -> Int64 { Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec) }
}
