import Crypto
import _CryptoExtras
import Foundation
import GalleryCore

/// A private album's key and what is done with it: every page and file of the
/// album published encrypted (AES-256-GCM, a fresh random nonce per file, the
/// file's name authenticated with it so files cannot be swapped), and the
/// opaque names they are published under (HMAC-SHA256 under a key of their own).
///
/// The key is derived from the passphrase with PBKDF2-HMAC-SHA256 at
/// `iterations` rounds and a random salt that the album's locked pages carry;
/// the browser derives the same key with WebCrypto (static/sealed.js).
public struct AlbumKey: Sendable {
    /// PBKDF2 rounds: OWASP's figure for PBKDF2-HMAC-SHA256 (2023 onwards).
    public static let iterations = 600_000
    /// Salt length in bytes.
    public static let saltLength = 16

    /// The salt the key was derived with (published on the locked pages).
    public let salt: [UInt8]
    /// PBKDF2 rounds it was derived with.
    public let iterations: Int
    /// Where the album's files go and what they are called.
    public let vault: Vault
    /// Tells whether a stored salt still goes with the passphrase (kept in
    /// the build state, outside OUT): a keyed hash, not the key.
    public let check: [UInt8]
    private let key: SymmetricKey

    /// Derives the key of `passphrase` with `salt` (costly on purpose: 0.08 s on a 2-core VM).
    public init(passphrase: [UInt8], salt: [UInt8], iterations: Int = AlbumKey.iterations) throws(SealingError) {
        let key: SymmetricKey
        do {
            key = try KDF.Insecure.PBKDF2.deriveKey(from: passphrase, salt: salt, using: .sha256, outputByteCount: 32, rounds: iterations)
        } catch {
            throw SealingError.keyDerivation(String(describing: error))
        }
        self.init(key: key, salt: salt, iterations: iterations)
    }

    init(key: SymmetricKey, salt: [UInt8], iterations: Int) {
        self.key = key
        self.salt = salt
        self.iterations = iterations
        let naming = SymmetricKey(data: HMAC<SHA256>.authenticationCode(for: Array("gallerygen names".utf8), using: key))
        let name: @Sendable (String) -> String = { text in
            Self.hex(HMAC<SHA256>.authenticationCode(for: Array(text.utf8), using: naming), digits: 32)
        }
        let token = Self.hex(HMAC<SHA256>.authenticationCode(for: Array("gallerygen folder".utf8), using: naming), digits: 16)
        vault = Vault(folder: Vault.root + token + "/", opaqueName: name)
        check = Array(HMAC<SHA256>.authenticationCode(for: Array("gallerygen check".utf8), using: key))
    }

    /// A new random salt.
    public static func freshSalt() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<saltLength).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    // MARK: Sealing

    /// `bytes` encrypted for the file published at `path`: nonce, ciphertext
    /// and tag, with the file's name (its last path component, extension
    /// removed) as authenticated data.
    public func seal(_ bytes: UnsafeRawBufferPointer, path: String) throws(SealingError) -> Data {
        do {
            return try AES.GCM.seal(bytes, using: key, nonce: AES.GCM.Nonce(), authenticating: Array(Self.name(of: path).utf8)).combined!
        } catch {
            throw SealingError.encryption(path, String(describing: error))
        }
    }

    /// A media file as published: its sealed bytes in Base64, handed to the
    /// page's `gallerygenSealed` by a script, so a page opened from `file://`
    /// (where nothing can be fetched) can load it too.
    public func sealFile(_ bytes: UnsafeRawBufferPointer, path: String) throws(SealingError) -> [UInt8] {
        let sealed = try seal(bytes, path: path)
        var out = Self.filePrefix(path)
        out.reserveCapacity(out.count + sealed.count * 4 / 3 + 8)
        out += sealed.base64EncodedData()
        out += Self.fileSuffix
        return out
    }

    /// A page's HTML sealed, in Base64, for its locked page to carry.
    public func sealPage(_ html: String, path: String) throws(SealingError) -> String {
        let bytes = Array(html.utf8)
        let sealed: Result<Data, SealingError> = bytes.withUnsafeBytes { raw in Result { () throws(SealingError) in try seal(raw, path: path) } }
        return try sealed.get().base64EncodedString()
    }

    /// Opens what `seal` made for `path` (tests, and the build checking itself).
    public func open(_ sealed: Data, path: String) throws(SealingError) -> Data {
        do {
            return try AES.GCM.open(AES.GCM.SealedBox(combined: sealed), using: key, authenticating: Array(Self.name(of: path).utf8))
        } catch {
            throw SealingError.decryption(path)
        }
    }

    /// Opens a file `sealFile` made for `path`, as read back from OUT.
    public func openFile(_ published: Data, path: String) throws(SealingError) -> Data {
        let prefix = Self.filePrefix(path).count
        let suffix = Self.fileSuffix.count
        guard published.count >= prefix + suffix,
              let sealed = Data(base64Encoded: published.subdata(in: published.startIndex + prefix..<published.endIndex - suffix))
        else { throw SealingError.decryption(path) }
        return try open(sealed, path: path)
    }

    /// The size of what a sealed file at `path` of `publishedSize` bytes
    /// holds, within the two bytes Base64's padding leaves unsaid: an album
    /// page shows its download's size without opening it.
    public static func plainSize(ofFile path: String, publishedSize: Int64) -> Int64 {
        let base64 = publishedSize - Int64(filePrefix(path).count + fileSuffix.count)
        return max(0, base64 / 4 * 3 - Int64(nonceAndTagLength))
    }

    /// What wraps a sealed file's Base64 (the script calling `gallerygenSealed`).
    static func filePrefix(_ path: String) -> [UInt8] { Array("gallerygenSealed(\"\(name(of: path))\",\"".utf8) }
    static let fileSuffix = Array("\");\n".utf8)
    /// AES-GCM's 12-byte nonce and 16-byte tag around the ciphertext.
    static let nonceAndTagLength = 28

    /// A sealed file's name as authenticated: `sealed/t/abc.js` → `abc`.
    public static func name(of path: String) -> String {
        let last = path.split(separator: "/").last.map(String.init) ?? path
        return last.split(separator: ".").first.map(String.init) ?? last
    }

    static func hex(_ bytes: some Sequence<UInt8>, digits: Int) -> String {
        let table = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in bytes {
            guard out.count < digits else { break }
            out.append(table[Int(byte >> 4)])
            out.append(table[Int(byte & 15)])
        }
        return String(decoding: out.prefix(digits), as: UTF8.self)
    }
}

/// What went wrong sealing a private album, naming the album or file.
public enum SealingError: Error, Sendable, CustomStringConvertible {
    case keyDerivation(String)
    case encryption(String, String)
    case decryption(String)

    public var description: String {
        switch self {
        case .keyDerivation(let why): return "the private album's key could not be derived (\(why))"
        case .encryption(let path, let why): return "\(path): could not be encrypted (\(why))"
        case .decryption(let path): return "\(path): does not open with this key (wrong passphrase, or damaged)"
        }
    }
}
