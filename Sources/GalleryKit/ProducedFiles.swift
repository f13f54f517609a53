import GalleryCore
import SiteOutput

/// The files a build produces (paths in OUT), gathered as a list and made a
/// set only when one must be looked up: a no-op rebuild of 100,000 photos
/// produces 300,000 files that `PruneStep` knows from the inputs to be the
/// previous build's, and hashing them into a set was a fifth of its time.
///
/// The items' renditions are held as the items' lists of them (the lists
/// themselves, not copies), their paths spelled only when read: a rendition
/// holds its name, not its path, and a path made for each (three or four a
/// photo) and held here through the page step was more than an item is.
public struct ProducedFiles: Sendable, ProducedPaths {
    /// Paths given one by one: a photo's page as its folder and name (`PagePath`), not spelled.
    private var paths: [PagePath] = []
    /// Lists of renditions, and how many of `paths` come before each run of them.
    private var renditionRuns: [(after: Int, lists: [[Rendition]])] = []
    /// Every file the previous build produced is produced again (every page
    /// was taken as it was: `RenderPagesStep.reuseAll`), besides `paths`.
    public var includesPreviousFiles = false

    public init() {}

    public mutating func append(_ path: String) { paths.append(PagePath(path)) }

    public mutating func append(_ path: PagePath) { paths.append(path) }

    /// A path given twice (two albums' copies of one photo share its
    /// renditions) is one file of `set`.
    public mutating func append<Paths: Sequence>(contentsOf more: Paths) where Paths.Element == String { paths.append(contentsOf: more.lazy.map(PagePath.init)) }

    /// Every rendition of `items`.
    public mutating func appendRenditions(of items: [MediaItem]) {
        guard !items.isEmpty else { return }
        renditionRuns.append((paths.count, items.map(\.renditions)))
    }

    /// Room for `more` paths beyond those held (grown by doubling, the list
    /// of 300,000 was copied a dozen times and held twice at the end). A
    /// little more than asked, so the few files added after (the static
    /// files, a step's next reserve) do not move the list again.
    public mutating func reserve(adding more: Int) {
        let wanted = paths.count + more
        if paths.capacity < wanted { paths.reserveCapacity(wanted + wanted / 64 + 256) }
    }

    /// How many paths were given (one given twice counts twice).
    public var count: Int { paths.count + renditionRuns.reduce(0) { $0 + $1.lists.reduce(0) { $0 + $1.count } } }

    /// The paths as given, in order (one given twice is there twice).
    public var all: [String] {
        var all: [String] = []
        all.reserveCapacity(count)
        forEachSegment { segment in
            switch segment {
            case .paths(let range): all += paths[range].lazy.map(\.description)
            case .renditions(let run, let range):
                for list in renditionRuns[run].lists[range] { for rendition in list { all.append(rendition.path) } }
            }
        }
        return all
    }

    /// Each file once.
    public var set: Set<String> { Set(all) }

    // MARK: Read a part at a time (`ProducedPaths`)

    /// A run of `paths`, or of one run's rendition lists.
    private enum Segment {
        case paths(Range<Int>)
        case renditions(run: Int, Range<Int>)
    }

    /// Paths of `paths` in a part; lists of renditions in a part (a few paths each).
    private static let pathsPerPart = 1 << 13, listsPerPart = 1 << 11

    /// Calls `body` with the segments in order, each cut into parts.
    private func forEachSegment(_ body: (Segment) -> Void) {
        func cut(_ range: Range<Int>, by size: Int, _ make: (Range<Int>) -> Segment) {
            for start in stride(from: range.lowerBound, to: range.upperBound, by: size) {
                body(make(start ..< min(range.upperBound, start + size)))
            }
        }
        var at = 0
        for (run, (after, lists)) in renditionRuns.enumerated() {
            cut(at ..< after, by: Self.pathsPerPart) { .paths($0) }
            at = after
            cut(lists.indices, by: Self.listsPerPart) { .renditions(run: run, $0) }
        }
        cut(at ..< paths.count, by: Self.pathsPerPart) { .paths($0) }
    }

    public var partCount: Int {
        var count = 0
        forEachSegment { _ in count += 1 }
        return count
    }

    public func forEachPath(inPart part: Int, _ body: (UnsafeRawBufferPointer) -> Void) {
        var index = 0
        forEachSegment { segment in
            defer { index += 1 }
            guard index == part else { return }
            switch segment {
            case .paths(let range):
                for path in paths[range] { path.withUTF8(body) }
            case .renditions(let run, let range):
                for list in renditionRuns[run].lists[range] {
                    for rendition in list { rendition.withPath { body(UnsafeRawBufferPointer($0)) } }
                }
            }
        }
    }
}
