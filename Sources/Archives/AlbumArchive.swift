import Foundation
import GalleryCore
import ZIPFoundation

/// One file of an album's download: the name it has in the archive, the
/// published file it is read from, and the time the unzipped file shows.
public struct ArchiveMember: Sendable, Equatable {
    /// Name inside the archive (`IMG_0412.webp`).
    public var name: String
    /// The published file (a preview, an original, a playback video) in OUT.
    public var file: URL
    /// The wall-clock time the photo was taken, shown as the file's time.
    public var wallClockSeconds: Int64

    /// Creates a member.
    public init(name: String, file: URL, wallClockSeconds: Int64) {
        self.name = name
        self.file = file
        self.wallClockSeconds = wallClockSeconds
    }
}

/// Why an album's archive could not be written.
public struct ArchiveError: Error, CustomStringConvertible, Sendable {
    /// The archive, or the member that failed.
    public var path: String
    /// One line.
    public var reason: String

    public var description: String { "cannot make the album download \(path): \(reason)" }
}

/// Writes an album's ZIP with ZIPFoundation: every member stored as it is
/// (previews, videos and originals are already compressed; deflating them
/// again would cost time for nothing), ZIP64 when the album passes 4 GB.
/// Only published files go in, so the archive holds nothing the site does
/// not already show (no GPS, no source paths).
public enum AlbumArchive {
    /// Writes `members` to `url` (a new file), in the order given. `open`,
    /// when given, turns a member's published file into the bytes the archive
    /// holds (a private album's files are sealed in OUT: the archive holds
    /// them opened, and is sealed whole); without it each file is streamed.
    public static func write(_ members: [ArchiveMember], to url: URL,
                             open: ((URL) throws -> Data)? = nil) throws(ArchiveError) {
        let archive: Archive
        do {
            archive = try Archive(url: url, accessMode: .create)
        } catch {
            throw ArchiveError(path: url.path, reason: String(describing: error))
        }
        for member in members {
            do {
                if let open {
                    let bytes = try open(member.file)
                    try archive.addEntry(with: member.name, type: .file, uncompressedSize: Int64(bytes.count),
                                         modificationDate: localDate(member.wallClockSeconds), permissions: 0o644,
                                         compressionMethod: .none, bufferSize: 1 << 20) { position, count in
                        bytes.subdata(in: Int(position)..<Int(position) + count)
                    }
                    continue
                }
                let handle = try FileHandle(forReadingFrom: member.file)
                defer { try? handle.close() }
                let size = Int64(try handle.seekToEnd())
                try archive.addEntry(with: member.name, type: .file, uncompressedSize: size,
                                     modificationDate: localDate(member.wallClockSeconds), permissions: 0o644,
                                     compressionMethod: .none, bufferSize: 1 << 20) { position, count in
                    try handle.seek(toOffset: UInt64(position))
                    return try handle.read(upToCount: count) ?? Data()
                }
            } catch {
                throw ArchiveError(path: member.file.path, reason: String(describing: error))
            }
        }
    }

    /// ZIP stores local (DOS) times and ZIPFoundation converts through the
    /// machine's calendar: the instant whose local reading is the wall clock
    /// the camera showed, so an unzipped photo is dated when it was taken.
    static func localDate(_ wallClockSeconds: Int64) -> Date {
        let guess = Date(timeIntervalSince1970: TimeInterval(wallClockSeconds))
        let offset = TimeZone.current.secondsFromGMT(for: guess)
        // Before 1980 a ZIP cannot say; ZIPFoundation clamps.
        return Date(timeIntervalSince1970: TimeInterval(wallClockSeconds - Int64(offset)))
    }

    /// The names and sizes inside an archive (tests, and checking a kept one).
    public static func listing(_ url: URL) throws(ArchiveError) -> [(name: String, size: Int64, stored: Bool)] {
        do {
            let archive = try Archive(url: url, accessMode: .read)
            return archive.map { ($0.path, Int64($0.uncompressedSize), $0.compressedSize == $0.uncompressedSize) }
        } catch {
            throw ArchiveError(path: url.path, reason: String(describing: error))
        }
    }

    /// Extracts `name` from the archive into memory (tests).
    public static func contents(of name: String, in url: URL) throws(ArchiveError) -> Data {
        do {
            let archive = try Archive(url: url, accessMode: .read)
            guard let entry = archive[name] else { throw ArchiveError(path: url.path, reason: "no member \(name)") }
            var data = Data()
            _ = try archive.extract(entry, skipCRC32: false) { data.append($0) }
            return data
        } catch let error as ArchiveError {
            throw error
        } catch {
            throw ArchiveError(path: url.path, reason: String(describing: error))
        }
    }
}
