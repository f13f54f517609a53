import GalleryCore

/// The files a build produced, as the prune reads them: a part at a time,
/// each path lent as its bytes (a path that is a rendition's name is spelled
/// on the stack, never held: `Rendition`), the parts hashed on every core.
public protocol ProducedPaths: Sendable {
    /// How many paths there are (one given twice counts twice).
    var count: Int { get }
    /// How many parts `forEachPath(inPart:)` reads them in.
    var partCount: Int { get }
    /// Lends `body` each path of part `part` (0 ..< `partCount`).
    func forEachPath(inPart part: Int, _ body: (UnsafeRawBufferPointer) -> Void)
}

extension Array: ProducedPaths where Element == String {
    /// Paths in a part: enough to keep a core busy, few enough that a
    /// million paths' hashes are not all held at once beside the set.
    static var pathsPerPart: Int { 1 << 13 }

    public var partCount: Int { (count + Self.pathsPerPart - 1) / Self.pathsPerPart }

    public func forEachPath(inPart part: Int, _ body: (UnsafeRawBufferPointer) -> Void) {
        for index in part * Self.pathsPerPart ..< Swift.min(count, (part + 1) * Self.pathsPerPart) {
            var path = self[index]
            path.withUTF8 { body(UnsafeRawBufferPointer($0)) }
        }
    }
}

extension ProducedPaths {
    /// Each path's key, hashed on every core eight parts at a time, each
    /// part's keys sorted by the run of the table their homes are in, and
    /// the runs filled on every core.
    func keys() -> PathKeySet {
        var keys = PathKeySet(minimumCapacity: count)
        let regions = keys.regions(16)
        for start in stride(from: 0, to: partCount, by: 8) {
            let parts = Array(start ..< Swift.min(partCount, start + 8))
            keys.insert(parallelMap(parts, minimumCount: 2, { part -> [[PathKey]] in
                var runs = [[PathKey]](repeating: [], count: regions.count)
                forEachPath(inPart: part) { utf8 in
                    let key = PathKey(utf8)
                    runs[regions.of(key)].append(key)
                }
                return runs
            }), sortedBy: regions)
        }
        return keys
    }
}
