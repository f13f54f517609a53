import Foundation

/// A Takeout album folder's own JSON: the album's title and description as
/// typed in Google Photos. Its name is in the account's language.
public struct TakeoutAlbum: Equatable, Sendable {
    public var title: String?
    public var description: String?

    /// Reads the album's JSON (untrusted: at most a megabyte, fields of the wrong type left out).
    public init(_ bytes: [UInt8]) throws(TakeoutSidecarError) {
        let object = try TakeoutSidecar.object(bytes)
        func text(_ key: String) -> String? {
            guard let value = (object[key] as? String)?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else { return nil }
            return String(value.prefix(TakeoutSidecar.longestText))
        }
        title = text("title")
        description = text("description")
    }
}
