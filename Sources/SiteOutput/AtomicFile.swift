import Foundation
import CLinuxFiles

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
        var stream = try Stream(to: url, fault: fault)
        try stream.write(bytes)
        try stream.commit()
    }

    /// A file written piece by piece into a temporary file beside `url`, which
    /// replaces `url` only on `commit` (so a state of tens of MB is written
    /// without being held whole in memory). Not committed, it must be abandoned.
    struct Stream {
        let url: URL
        private let temporary: URL
        private var descriptor: Int32

        init(to url: URL, fault: (String) -> POSIXError? = { _ in nil }) throws(OutputError) {
            if let fault = fault(url.path) { throw OutputError.failure(writing: url.path, fault) }
            self.url = url
            let folder = url.deletingLastPathComponent()
            temporary = folder.appendingPathComponent(AtomicFile.temporaryName(for: url.lastPathComponent))
            descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            if descriptor < 0, errno == ENOENT {
                // The folder is new: made once, not checked on every write
                // (a stat per path component for each of 30,000 pages).
                do {
                    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                } catch {
                    throw OutputError.failure(writing: url.path, error)
                }
                descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            }
            guard descriptor >= 0 else { throw Self.failure(url, errno) }
        }

        mutating func write(_ bytes: UnsafeRawBufferPointer) throws(OutputError) {
            var written = 0
            while written < bytes.count {
                let n = Foundation.write(descriptor, bytes.baseAddress! + written, bytes.count - written)
                if n < 0 {
                    if errno == EINTR { continue }
                    let code = errno
                    abandon()
                    throw Self.failure(url, code)
                }
                written += n
            }
        }

        /// Appends `range` of the file open as `source`: in the kernel
        /// (`copy_file_range`), or read and written where it cannot (or
        /// `inKernel` is false: the tests' way to that path).
        mutating func copy(from source: Int32, _ range: Range<Int>, inKernel: Bool = true) throws(OutputError) {
            guard inKernel else { return try copyByReading(from: source, range) }
            var at = Int64(range.lowerBound), left = range.count
            while left > 0 {
                let copied = gg_copy_file_range(source, &at, descriptor, left)
                if copied > 0 {
                    left -= copied
                    continue
                }
                let code = copied == 0 ? EIO : errno
                if code == EINTR { continue }
                guard [ENOSYS, EXDEV, EINVAL, EOPNOTSUPP].contains(code) else {
                    abandon()
                    throw Self.failure(url, code)
                }
                try copyByReading(from: source, Int(at)..<(Int(at) + left))
                return
            }
        }

        /// `copy`, a buffer at a time through the process.
        private mutating func copyByReading(from source: Int32, _ range: Range<Int>) throws(OutputError) {
            var buffer = [UInt8](repeating: 0, count: min(range.count, 1 << 20))
            var at = range.lowerBound
            while at < range.upperBound {
                let wanted = min(buffer.count, range.upperBound - at)
                let got = buffer.withUnsafeMutableBytes { pread(source, $0.baseAddress!, wanted, off_t(at)) }
                if got < 0, errno == EINTR { continue }
                guard got > 0 else {
                    let code = got == 0 ? EIO : errno
                    abandon()
                    throw Self.failure(url, code)
                }
                let written: Result<Void, OutputError> = buffer.withUnsafeBytes { raw in
                    Result { () throws(OutputError) in try write(UnsafeRawBufferPointer(rebasing: raw[0..<got])) }
                }
                try written.get()
                at += got
            }
        }

        /// Closes the file and puts it in place of `url`. `exchanging`: by
        /// swapping the two (the old file then goes by the temporary name,
        /// and is removed), which ext4 does not make wait for the new file's
        /// blocks as it does a rename over a file. Only for the build state:
        /// a state a power cut left unwritten does not read as one (a full
        /// rebuild), where a page left empty would be taken as it is.
        mutating func commit(exchanging: Bool = false) throws(OutputError) {
            let closed = close(descriptor)
            descriptor = -1
            guard closed == 0 else {
                let code = errno
                abandon()
                throw Self.failure(url, code)
            }
            if exchanging {
                if gg_exchange_files(temporary.path, url.path) == 0 {
                    unlink(temporary.path)
                    return
                }
                let code = errno
                guard [ENOENT, EINVAL, ENOSYS, EOPNOTSUPP].contains(code) else {
                    abandon()
                    throw Self.failure(url, code)
                }
            }
            guard rename(temporary.path, url.path) == 0 else {
                let code = errno
                abandon()
                throw Self.failure(url, code)
            }
        }

        /// Closes and removes the temporary file; `url` is left as it was.
        mutating func abandon() {
            if descriptor >= 0 { close(descriptor) }
            descriptor = -1
            unlink(temporary.path)
        }

        private static func failure(_ url: URL, _ code: Int32) -> OutputError {
            OutputError.failure(writing: url.path, POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO))
        }
    }

    /// Writes a file piece by piece only once it differs from `existing` (the
    /// file's bytes now): a no-op build's state, identical, is compared as it
    /// is made and never written. The build state's sink: put in place by
    /// exchange (`Stream.commit(exchanging:)`).
    struct UnlessUnchanged {
        let url: URL
        let fault: (String) -> POSIXError?
        /// The file in place (read, not mapped: a mapped state of tens of MB
        /// compared at the end of a build counted in its peak memory), or -1.
        private var existing: Int32
        private var existingSize = 0
        /// Bytes made so far, all equal to the existing file's while `stream` is nil.
        private var offset = 0
        private var stream: AtomicFile.Stream?
        private var buffer: [UInt8] = []

        init(url: URL, fault: @escaping (String) -> POSIXError?) {
            self.url = url
            self.fault = fault
            existing = open(url.path, O_RDONLY | O_CLOEXEC)
            var info = stat()
            if existing >= 0, fstat(existing, &info) == 0 { existingSize = Int(info.st_size) } else { close(existing); existing = -1 }
        }

        mutating func write(_ chunk: UnsafeRawBufferPointer) throws(OutputError) {
            if stream == nil {
                if offset + chunk.count <= existingSize, read(at: offset, count: chunk.count),
                   buffer.withUnsafeBytes({ memcmp($0.baseAddress!, chunk.baseAddress!, chunk.count) }) == 0 {
                    offset += chunk.count
                    return
                }
                try startWriting()
            }
            try stream!.write(chunk)
        }

        /// Appends `range` of the file open as `source`. The existing file's
        /// own bytes at their own place are equal without being read (a
        /// state made from the file it replaces); otherwise the new file is
        /// written from here on.
        mutating func copy(from source: Int32, _ range: Range<Int>, inKernel: Bool = true) throws(OutputError) {
            guard !range.isEmpty else { return }
            if stream == nil {
                if range.lowerBound == offset, range.upperBound <= existingSize, isExisting(source) {
                    offset = range.upperBound
                    return
                }
                try startWriting()
            }
            try stream!.copy(from: source, range, inKernel: inKernel)
        }

        /// Whether `descriptor` is open on the existing file.
        private func isExisting(_ descriptor: Int32) -> Bool {
            var mine = stat(), theirs = stat()
            guard existing >= 0, fstat(existing, &mine) == 0, fstat(descriptor, &theirs) == 0 else { return false }
            return mine.st_dev == theirs.st_dev && mine.st_ino == theirs.st_ino
        }

        /// Puts the new file in place, unless it came out the same.
        mutating func finish() throws(OutputError) {
            if stream == nil {
                if existing >= 0 && offset == existingSize && existingSize > 0 {
                    closeExisting()
                    return
                }
                try startWriting()
            }
            closeExisting()
            try stream!.commit(exchanging: true)
        }

        mutating func abandon() {
            closeExisting()
            stream?.abandon()
        }

        private mutating func closeExisting() {
            if existing >= 0 { close(existing) }
            existing = -1
        }

        /// Reads `count` bytes of the existing file at `position` into `buffer`.
        private mutating func read(at position: Int, count: Int) -> Bool {
            guard existing >= 0 else { return false }
            if buffer.count < count { buffer = [UInt8](repeating: 0, count: count) }
            var done = 0
            while done < count {
                let n = buffer.withUnsafeMutableBytes { pread(existing, $0.baseAddress! + done, count - done, off_t(position + done)) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return false }
                done += n
            }
            return true
        }

        /// Opens the new file with the equal bytes made so far (copied from the existing one).
        private mutating func startWriting() throws(OutputError) {
            var opened = try AtomicFile.Stream(to: url, fault: fault)
            var copied = 0
            while copied < offset {
                let count = min(1 << 20, offset - copied)
                guard read(at: copied, count: count) else {
                    opened.abandon()
                    throw OutputError.failure(writing: url.path, POSIXError(.EIO))
                }
                let result: Result<Void, OutputError> = buffer.withUnsafeBytes { raw in
                    Result { () throws(OutputError) in try opened.write(UnsafeRawBufferPointer(rebasing: raw[0..<count])) }
                }
                if case .failure = result { opened.abandon() }
                try result.get()
                copied += count
            }
            stream = opened
        }
    }
}
