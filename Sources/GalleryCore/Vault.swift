/// Where a private album (`private: true` in its album.yml) and the albums
/// below it publish: one folder of opaque names. A page's or a file's name is
/// a keyed hash of the path it would have in a public album, so the names
/// say nothing of titles, folders or files, and change with the passphrase.
/// The Sealing module makes a vault from the album's key; planning and the
/// media step only ask it for names.
public struct Vault: Sendable {
    /// The folder, relative to OUT, with a trailing slash (`sealed/<16 hex>/`):
    /// named by the key too, so a new passphrase gives a new folder.
    public let folder: String
    private let opaqueName: @Sendable (String) -> String

    /// A vault whose names are made by `opaqueName` (a keyed hash, hex).
    public init(folder: String, opaqueName: @escaping @Sendable (String) -> String) {
        self.folder = folder
        self.opaqueName = opaqueName
    }

    /// Where the page a public album would have at `plainPath` goes.
    public func page(_ plainPath: String) -> String { pagePath(plainPath).description }

    /// `page(plainPath)`, held as the vault's folder and the page's name.
    public func pagePath(_ plainPath: String) -> PagePath { PagePath(folder: folder, name: opaqueName(plainPath)) }

    /// Where the media file a public album would have at `plainPath` goes:
    /// sealed, wrapped in a script so a page can load it from `file://` too.
    public func file(_ plainPath: String) -> String { folder + opaqueName(plainPath) + ".js" }

    /// The folder every vault lives in.
    public static let root = "sealed/"
}

extension Dictionary where Key == AlbumPath {
    /// The value of `path` or of its nearest ancestor that has one: the vault
    /// an album publishes into is its nearest private ancestor's.
    public func nearest(to path: AlbumPath) -> Value? {
        guard !isEmpty else { return nil }
        var current: AlbumPath? = path
        while let album = current {
            if let value = self[album] { return value }
            current = album.parent
        }
        return nil
    }
}
