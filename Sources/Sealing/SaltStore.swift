import Crypto
import Foundation
import GalleryCore

/// Keeps each private album's salt between builds, in the build state's
/// folder (never in OUT): the same passphrase must give the same key, or
/// every file of the album would be encrypted again at every build. A salt
/// whose check no longer matches (the passphrase changed) is replaced by a
/// new one, and the album is published again under new names.
///
/// The parts of a sharded build share the folder: the first part to make an
/// album's salt wins (created with link(2), which fails if it exists), and
/// the others take it.
public struct SaltStore: Sendable {
    /// `private/` in the build state's folder.
    public let folder: URL

    /// The store in `stateFolder`.
    public init(stateFolder: URL) {
        folder = stateFolder.appendingPathComponent("private", isDirectory: true)
    }

    /// The key of the private album at `album` with `passphrase`: derived with
    /// its kept salt when that still matches, else with a new one, kept.
    public func key(for album: AlbumPath, passphrase: [UInt8]) throws(SealingError) -> AlbumKey {
        let file = folder.appendingPathComponent(Self.fileName(album))
        if let kept = Self.read(file) {
            let key = try AlbumKey(passphrase: passphrase, salt: kept.salt)
            if key.check == kept.check { return key }
            // The passphrase changed: a new salt replaces the old one.
            let fresh = try AlbumKey(passphrase: passphrase, salt: AlbumKey.freshSalt())
            try write(fresh, to: file, replacing: true)
            return fresh
        }
        let fresh = try AlbumKey(passphrase: passphrase, salt: AlbumKey.freshSalt())
        if try write(fresh, to: file, replacing: false) { return fresh }
        // Another part of a sharded build made it first: take its salt.
        guard let kept = Self.read(file) else { throw SealingError.keyDerivation("\(file.path) cannot be read") }
        let key = try AlbumKey(passphrase: passphrase, salt: kept.salt)
        guard key.check == kept.check else { throw SealingError.keyDerivation("\(file.path) was made with another passphrase") }
        return key
    }

    /// A file per album, named by a hash of its path.
    static func fileName(_ album: AlbumPath) -> String {
        let digest = SHA256.hash(data: Array(("album " + album.description).utf8))
        return AlbumKey.hex(digest, digits: 24) + ".salt"
    }

    static func read(_ file: URL) -> (salt: [UInt8], check: [UInt8])? {
        guard let data = FileManager.default.contents(atPath: file.path), data.count == AlbumKey.saltLength + 32 else { return nil }
        let bytes = Array(data)
        return (Array(bytes[..<AlbumKey.saltLength]), Array(bytes[AlbumKey.saltLength...]))
    }

    /// Writes `key`'s salt and check; without `replacing`, only if none is
    /// there yet (false when another writer was first).
    @discardableResult
    func write(_ key: AlbumKey, to file: URL, replacing: Bool) throws(SealingError) -> Bool {
        let temporary = file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max))")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(key.salt + key.check).write(to: temporary)
        } catch {
            throw SealingError.keyDerivation("\(folder.path): \(error.localizedDescription)")
        }
        defer { unlink(temporary.path) }
        if replacing {
            guard rename(temporary.path, file.path) == 0 else { throw SealingError.keyDerivation("\(file.path): \(String(cString: strerror(errno)))") }
            return true
        }
        if link(temporary.path, file.path) == 0 { return true }
        if errno == EEXIST { return false }
        throw SealingError.keyDerivation("\(file.path): \(String(cString: strerror(errno)))")
    }
}
