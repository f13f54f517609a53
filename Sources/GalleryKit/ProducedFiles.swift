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
    /// Paths given one by one: a page's name, or a path given whole. A run
    /// of one folder's pages (an album's photos) holds its folder once, in
    /// `folderRuns`: a million photo pages held as `PagePath`s were 32 MB of
    /// a first build's peak, now 16.
    private var names: [String] = []
    /// Where each run of names starts, and their folder (nil: paths given whole).
    private var folderRuns: [(start: Int, folder: String?)] = []
    /// Lists of renditions, and how many of `names` come before each run of them.
    private var renditionRuns: [(after: Int, lists: [[Rendition]])] = []
    /// Every file the previous build produced is produced again (every page
    /// was taken as it was: `RenderPagesStep.reuseAll`), besides `names`.
    public var includesPreviousFiles = false

    public init() {}

    public mutating func append(_ path: String) { append(name: path, folder: nil) }

    public mutating func append(_ path: PagePath) {
        if path.name.isEmpty { append(name: path.folder, folder: nil) } else { append(name: path.name, folder: path.folder) }
    }

    /// A path given twice (two albums' copies of one photo share its
    /// renditions) is one file of `set`.
    public mutating func append<Paths: Sequence>(contentsOf more: Paths) where Paths.Element == String {
        for path in more { append(path) }
    }

    private mutating func append(name: String, folder: String?) {
        // (A folder's string is its album's, shared: equal at a pointer's compare.)
        if folderRuns.isEmpty || folderRuns[folderRuns.count - 1].folder != folder { folderRuns.append((names.count, folder)) }
        names.append(name)
    }

    /// The paths at `range` of `names`, in order.
    private func forEachPage(in range: Range<Int>, _ body: (PagePath) -> Void) {
        guard !range.isEmpty else { return }
        // The last run that starts at or before the range.
        var run = 0, high = folderRuns.count - 1
        while run < high {
            let middle = (run + high + 1) / 2
            if folderRuns[middle].start <= range.lowerBound { run = middle } else { high = middle - 1 }
        }
        for index in range {
            while run + 1 < folderRuns.count, folderRuns[run + 1].start <= index { run += 1 }
            let name = names[index]
            body(folderRuns[run].folder.map { PagePath(folder: $0, name: name) } ?? PagePath(name))
        }
    }

    /// Every rendition of `items`.
    public mutating func appendRenditions(of items: [MediaItem]) {
        guard !items.isEmpty else { return }
        renditionRuns.append((names.count, items.map(\.renditions)))
    }

    /// Room for `more` paths beyond those held (grown by doubling, the list
    /// of 300,000 was copied a dozen times and held twice at the end). A
    /// little more than asked, so the few files added after (the static
    /// files, a step's next reserve) do not move the list again.
    public mutating func reserve(adding more: Int) {
        let wanted = names.count + more
        if names.capacity < wanted { names.reserveCapacity(wanted + wanted / 64 + 256) }
    }

    /// How many paths were given (one given twice counts twice).
    public var count: Int { names.count + renditionRuns.reduce(0) { $0 + $1.lists.reduce(0) { $0 + $1.count } } }

    /// The paths as given, in order (one given twice is there twice).
    public var all: [String] {
        var all: [String] = []
        all.reserveCapacity(count)
        forEachSegment { segment in
            switch segment {
            case .paths(let range): forEachPage(in: range) { all.append($0.description) }
            case .renditions(let run, let range):
                for list in renditionRuns[run].lists[range] { for rendition in list { all.append(rendition.path) } }
            }
        }
        return all
    }

    /// Each file once.
    public var set: Set<String> { Set(all) }

    // MARK: Read a part at a time (`ProducedPaths`)

    /// A run of `names`, or of one run's rendition lists.
    private enum Segment {
        case paths(Range<Int>)
        case renditions(run: Int, Range<Int>)
    }

    /// Paths of `names` in a part; lists of renditions in a part (a few paths each).
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
        cut(at ..< names.count, by: Self.pathsPerPart) { .paths($0) }
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
                forEachPage(in: range) { $0.withUTF8(body) }
            case .renditions(let run, let range):
                for list in renditionRuns[run].lists[range] {
                    for rendition in list { rendition.withPath { body(UnsafeRawBufferPointer($0)) } }
                }
            }
        }
    }
}
