/// A page's path in OUT, held as its folder and its name: a photo's page is
/// `folder + name + ".html"`, where the folder is one string its album's
/// photos share and the name (the photo's slug) is most often short enough
/// to be held in place. A million photos' pages spelled out were a string
/// of 50–100 bytes each, held through planning and rendering; here the
/// path is spelled when a page is made or looked up, and dropped after.
public struct PagePath: Sendable, Equatable, CustomStringConvertible {
    /// The folder, with its trailing slash; for a path given whole, the path.
    public let folder: String
    /// The file's name less `.html`; empty for a path given whole.
    public let name: String

    /// The path given whole (an album's page, the search index, the feed).
    public init(_ whole: String) {
        folder = whole
        name = ""
    }

    /// `folder + name + ".html"`: `folder` ends with a slash (or is empty)
    /// and `name` is not empty.
    public init(folder: String, name: String) {
        precondition(!name.isEmpty, "a page's name is never empty")
        self.folder = folder
        self.name = name
    }

    /// Paths are equal when they spell the same (however they are split).
    public static func == (a: PagePath, b: PagePath) -> Bool {
        if a.folder == b.folder, a.name == b.name { return true }
        return a.description == b.description
    }

    /// The path.
    public var description: String { name.isEmpty ? folder : folder + name + Self.suffix }

    /// Whether the path ends with `.html` (a page, not a group of scripts).
    public var isHTML: Bool { !name.isEmpty || folder.hasSuffix(Self.suffix) }

    /// Calls `body` with the path's UTF-8 bytes, spelled on the stack.
    public func withUTF8<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        var folder = folder, name = name
        return try folder.withUTF8 { head in
            if name.isEmpty { return try body(UnsafeRawBufferPointer(head)) }
            return try name.withUTF8 { tail in
                let suffix = Self.suffix.utf8
                return try withUnsafeTemporaryAllocation(byteCount: head.count + tail.count + suffix.count, alignment: 8) { buffer in
                    buffer.copyMemory(from: UnsafeRawBufferPointer(head))
                    UnsafeMutableRawBufferPointer(rebasing: buffer[head.count...]).copyMemory(from: UnsafeRawBufferPointer(tail))
                    for (offset, byte) in suffix.enumerated() { buffer[head.count + tail.count + offset] = byte }
                    return try body(UnsafeRawBufferPointer(buffer))
                }
            }
        }
    }

    private static let suffix = ".html"
}

extension StableHash {
    /// Feeds `page`'s path as `add(_: String)` feeds it (no string made).
    public mutating func add(_ page: PagePath) {
        page.withUTF8 { update($0) }
        add(UInt64(0xFF))
    }
}
