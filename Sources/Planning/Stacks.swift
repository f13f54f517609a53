import GalleryCore

/// Which stack rules apply to an album: the site's (`stacks.bursts`,
/// `stacks.edits`), unless its album.yml says otherwise.
public struct StackRules: Sendable, Equatable {
    public var bursts: Bool
    public var edits: Bool
    /// Near-duplicates: one camera's photos at most this many seconds apart
    /// that look alike (`PictureLooks`); nil: off.
    public var nearDuplicateSeconds: Int?

    public init(bursts: Bool, edits: Bool, nearDuplicateSeconds: Int? = nil) {
        self.bursts = bursts
        self.edits = edits
        self.nearDuplicateSeconds = nearDuplicateSeconds
    }

    /// The rules of an album with `sidecar`, on a site with `options`.
    public init(options: Settings, sidecar: AlbumSettings?) {
        bursts = sidecar?.stackBursts ?? options.stackBursts
        edits = sidecar?.stackEdits ?? options.stackEdits
        nearDuplicateSeconds = sidecar?.stackNearDuplicates ?? options.stackNearDuplicates ? options.stackNearDuplicateSeconds : nil
    }

    public var any: Bool { bursts || edits || nearDuplicateSeconds != nil }
}

/// Finds an album's stacks and lays them out: each stack's cover at the
/// place of its first item in the album's order, its other items right after
/// it (`StackRole`). A stack never leaves its folder: only the album's own
/// items (`isHome`) are stacked, so it never crosses albums, nor a private
/// album's line.
///
/// Rules (each its own switch):
/// - **bursts by name**: frames whose names say one burst (`BurstName`);
/// - **bursts by sequence**: photos of one camera (make and model) whose
///   file numbers follow each other (`DSC01234`, `DSC01235`) and whose
///   capture times, to the second, are equal; a run crosses into the next
///   second only between two frames that each have a same-second neighbour
///   (a burst of a few frames a second), so two photos taken a second apart
///   on purpose stay apart. Only EXIF times count: a file's time is no
///   shutter's;
/// - **edits**: an edit beside its original (`EditName`), in the same folder.
///
/// The cover: album.yml's choice (`stack: cover`), else the frame the
/// camera picked (`_COVER`), else the latest edit, else the best rated, else
/// the first in the album's order. `stack: alone` keeps an item out of stacks.
public enum Stacks {
    /// `photos` (one album's, in its order) with their stacks laid out and
    /// their roles set; unchanged when no rule applies.
    public static func arrange(_ photos: [MediaItem], rules: StackRules, choices: [String: StackChoice] = [:],
                               isHome: (MediaItem) -> Bool = { _ in true }) -> [MediaItem] {
        guard rules.any, photos.count > 1 else { return photos }
        var groups = UnionFind(count: photos.count)
        var stackable = [Bool](repeating: false, count: photos.count)
        for (i, photo) in photos.enumerated() where isHome(photo) && choices[photo.source.fileName] != .alone { stackable[i] = true }
        var covers = Set<Int>()
        if rules.bursts {
            linkBurstNames(photos, stackable, &groups, covers: &covers)
            linkSequences(photos, stackable, &groups)
        }
        var edits: [Int] = []
        if rules.edits { edits = linkEdits(photos, stackable, &groups) }
        if let seconds = rules.nearDuplicateSeconds { linkNearDuplicates(photos, stackable, &groups, within: Int64(seconds)) }
        // The members of each stack, in album order.
        var members: [Int: [Int]] = [:]
        for i in photos.indices where stackable[i] { members[groups.root(i), default: []].append(i) }
        members = members.filter { $0.value.count > 1 }
        guard !members.isEmpty else { return photos }
        let editSet = Set(edits)
        var out: [MediaItem] = []
        out.reserveCapacity(photos.count)
        var placed = Set<Int>()
        for i in photos.indices {
            guard stackable[i], let stack = members[groups.root(i)] else {
                out.append(photos[i])
                continue
            }
            guard placed.insert(groups.root(i)).inserted else { continue }
            let cover = chooseCover(stack, photos, choices: choices, cameraCovers: covers, edits: editSet)
            var item = photos[cover]
            item.stack = .cover(count: stack.count)
            out.append(item)
            var offset = 0
            for member in stack where member != cover {
                offset += 1
                var item = photos[member]
                item.stack = .member(offset: offset)
                out.append(item)
            }
        }
        return out
    }

    static func chooseCover(_ stack: [Int], _ photos: [MediaItem], choices: [String: StackChoice], cameraCovers: Set<Int>, edits: Set<Int>) -> Int {
        if let chosen = stack.first(where: { choices[photos[$0].source.fileName] == .cover }) { return chosen }
        if let picked = stack.first(where: cameraCovers.contains) { return picked }
        // The latest edit by its file's name (`-Edit-2` after `-Edit`).
        let editsHere = stack.filter(edits.contains)
        if let edit = editsHere.max(by: { NaturalOrder.less(photos[$0].source.fileStem, photos[$1].source.fileStem) }) { return edit }
        var best = stack[0], bestRating = photos[best].metadata.words.rating ?? 0
        for i in stack.dropFirst() where (photos[i].metadata.words.rating ?? 0) > bestRating {
            best = i
            bestRating = photos[i].metadata.words.rating ?? 0
        }
        if bestRating > 0 { return best }
        // The sharpest, when every item's pixels were measured (the first of equals).
        let measured = stack.compactMap { i in photos[i].looks.map { (index: i, sharpness: $0.sharpness) } }
        guard measured.count == stack.count, let sharpest = measured.max(by: { $0.sharpness < $1.sharpness }) else { return best }
        return sharpest.index
    }

    /// How far apart in time two frames of one camera-named burst may be:
    /// a burst lasts seconds, so a maker note naming one burst for photos
    /// minutes apart (a copied tag, a lying file) is not believed for them.
    static let burstSpanSeconds: Int64 = 60

    static func linkBurstNames(_ photos: [MediaItem], _ stackable: [Bool], _ groups: inout UnionFind, covers: inout Set<Int>) {
        // The camera's own word (an iPhone's BurstUUID), for one camera's frames within a minute of the burst's first.
        var firstOfNoted: [String: (index: Int, second: Int64)] = [:]
        for i in photos.indices where stackable[i] && photos[i].kind != .video {
            guard let burst = photos[i].metadata.burstIdentifier else { continue }
            let date = photos[i].metadata.captureDate
            guard date.source == .original || date.source == .digitized else { continue }
            let key = burst + "\u{1}" + (photos[i].metadata.camera.model ?? "")
            if let first = firstOfNoted[key] {
                if abs(date.wallClockSeconds - first.second) <= burstSpanSeconds { groups.union(first.index, i) }
            } else {
                firstOfNoted[key] = (i, date.wallClockSeconds)
            }
        }
        var firstOfBurst: [String: Int] = [:]
        for i in photos.indices where stackable[i] && photos[i].kind == .still {
            let name = photos[i].source.fileName
            // Most names are no burst's: passed over without a lowercased copy.
            guard mayBeBurstName(name), let burst = BurstName.parse(name) else { continue }
            if burst.isCover { covers.insert(i) }
            if let first = firstOfBurst[burst.key] { groups.union(first, i) } else { firstOfBurst[burst.key] = i }
        }
    }

    /// Whether `name` can be a burst frame's: it holds "burst" or is Samsung's 19-character stem.
    static func mayBeBurstName(_ name: String) -> Bool {
        let utf8 = name.utf8
        if utf8.count >= 23, utf8.prefix(8).allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) { return true }
        var matched = 0
        let word: [UInt8] = Array("burst".utf8)
        for byte in utf8 {
            let lower = byte | 0x20
            matched = lower == word[matched] ? matched + 1 : (lower == word[0] ? 1 : 0)
            if matched == word.count { return true }
        }
        return false
    }

    /// A frame of a camera's numbered sequence.
    struct Frame: Comparable {
        var camera: String, prefix: Substring, number: Int, second: Int64, index: Int
        static func < (a: Frame, b: Frame) -> Bool {
            (a.camera, a.prefix, a.number, a.index) < (b.camera, b.prefix, b.number, b.index)
        }
    }

    static func linkSequences(_ photos: [MediaItem], _ stackable: [Bool], _ groups: inout UnionFind) {
        // Only a photo with another in its second can be a frame: most albums have none, and are passed over
        // after one pass of integers (no names parsed, no strings made).
        var seconds: [Int64] = []
        for i in photos.indices where stackable[i] && photos[i].kind != .video {
            let date = photos[i].metadata.captureDate
            if date.source == .original || date.source == .digitized { seconds.append(date.wallClockSeconds) }
        }
        guard seconds.count > 1 else { return }
        seconds.sort()
        var shared = Set<Int64>()
        for k in seconds.indices.dropFirst() where seconds[k] == seconds[k - 1] { shared.insert(seconds[k]) }
        guard !shared.isEmpty else { return }
        var frames: [Frame] = []
        for i in photos.indices where stackable[i] && photos[i].kind != .video {
            let date = photos[i].metadata.captureDate
            guard shared.contains(date.wallClockSeconds), date.source == .original || date.source == .digitized,
                  let model = photos[i].metadata.camera.model, let (prefix, number) = fileNumber(photos[i].source.fileName) else { continue }
            let metadata = photos[i].metadata
            frames.append(Frame(camera: (metadata.camera.make ?? "") + "\u{1}" + model, prefix: prefix, number: number,
                                second: date.wallClockSeconds, index: i))
        }
        guard frames.count > 1 else { return }
        frames.sort()
        // Each frame's links to the next in the camera's numbering: 0 the same second, 1 the next.
        func follows(_ a: Frame, _ b: Frame) -> Bool { a.camera == b.camera && a.prefix == b.prefix && b.number == a.number + 1 }
        var sameSecondBefore = [Bool](repeating: false, count: frames.count)
        var sameSecondAfter = [Bool](repeating: false, count: frames.count)
        for k in frames.indices.dropLast() where follows(frames[k], frames[k + 1]) && frames[k].second == frames[k + 1].second {
            sameSecondAfter[k] = true
            sameSecondBefore[k + 1] = true
            groups.union(frames[k].index, frames[k + 1].index)
        }
        for k in frames.indices.dropLast() where follows(frames[k], frames[k + 1]) && frames[k + 1].second &- frames[k].second == 1
            && sameSecondBefore[k] && sameSecondAfter[k + 1] {
            groups.union(frames[k].index, frames[k + 1].index)
        }
    }

    /// The file number of a camera's name (`DSC01234.ARW`: "dsc", 1234): its
    /// stem's last run of digits, at its end, with what comes before it.
    static func fileNumber(_ fileName: String) -> (Substring, Int)? {
        var stem = Substring(fileName)
        if let dot = stem.lastIndex(of: "."), dot != stem.startIndex { stem = stem[..<dot] }
        var start = stem.endIndex
        while start > stem.startIndex, stem[stem.index(before: start)].isASCIINumber { start = stem.index(before: start) }
        let digits = stem[start...]
        guard (3...9).contains(digits.count), let number = Int(digits) else { return nil }
        return (stem[..<start], number)
    }

    /// Links each edit to its original; returns the edits linked.
    static func linkEdits(_ photos: [MediaItem], _ stackable: [Bool], _ groups: inout UnionFind) -> [Int] {
        // Most albums hold no edit's name: passed over on their bytes, no name lowercased.
        guard photos.indices.contains(where: { stackable[$0] && mayBeEditName(photos[$0].source.fileName) }) else { return [] }
        var originals: [String: Int] = [:], edits: [(Int, String)] = []
        for i in photos.indices where stackable[i] {
            let name = photos[i].source.fileName
            if let original = EditName.originalStem(of: name) {
                edits.append((i, original))
            } else {
                let stem = photos[i].source.fileStem.lowercased()
                if originals[stem] == nil { originals[stem] = i }
            }
        }
        var linked: [Int] = []
        for (edit, stem) in edits {
            guard let original = originals[stem] else { continue }
            groups.union(original, edit)
            linked.append(edit)
        }
        return linked
    }
}

extension Stacks {
    /// Each photo is compared with at most this many of the camera's photos before it in the window.
    static let nearDuplicateComparisons = 32

    /// Links photos of one camera (EXIF make and model and an EXIF time)
    /// taken at most `window` seconds apart whose looks differ in at most
    /// `PictureLooks.nearDuplicateDistance` bits. Photos without looks (not yet seen by
    /// a build that makes them) are passed over.
    static func linkNearDuplicates(_ photos: [MediaItem], _ stackable: [Bool], _ groups: inout UnionFind, within window: Int64) {
        var shots: [(camera: String, second: Int64, looks: PictureLooks, index: Int)] = []
        for i in photos.indices where stackable[i] && photos[i].kind != .video && photos[i].kind != .animation {
            // A picture of one flat colour has no structure for the hash (all its bits are 0): two of them are not alike for that.
            guard let looks = photos[i].looks, looks.hash.nonzeroBitCount >= PictureLooks.fewestBits else { continue }
            let date = photos[i].metadata.captureDate
            guard date.source == .original || date.source == .digitized, let model = photos[i].metadata.camera.model else { continue }
            shots.append(((photos[i].metadata.camera.make ?? "") + "\u{1}" + model, date.wallClockSeconds, looks, i))
        }
        guard shots.count > 1 else { return }
        shots.sort { ($0.camera, $0.second, $0.index) < ($1.camera, $1.second, $1.index) }
        for k in shots.indices {
            var j = k - 1, compared = 0
            while j >= 0, compared < nearDuplicateComparisons, shots[j].camera == shots[k].camera, shots[k].second - shots[j].second <= window {
                if shots[j].looks.distance(to: shots[k].looks) <= PictureLooks.nearDuplicateDistance { groups.union(shots[j].index, shots[k].index) }
                j -= 1
                compared += 1
            }
        }
    }

    /// Whether `name` can be an edit's (`EditName`): it begins `IMG_E` or holds a dash or " (".
    static func mayBeEditName(_ name: String) -> Bool {
        let utf8 = name.utf8
        // "img_e" in any letter case, as `EditName` reads it.
        if utf8.count > 5, zip(utf8, "img_e".utf8).allSatisfy({ $0 == $1 || ($1 >= 0x61 && $1 <= 0x7A && $0 | 0x20 == $1) }) { return true }
        var previous: UInt8 = 0
        for byte in utf8 {
            if byte == 0x2D || (previous == 0x20 && byte == 0x28) { return true }
            previous = byte
        }
        return false
    }
}

/// Disjoint sets of indices (path halving, union by size).
struct UnionFind {
    private var parent: [Int]
    private var size: [Int]

    init(count: Int) {
        parent = Array(0..<count)
        size = [Int](repeating: 1, count: count)
    }

    mutating func root(_ i: Int) -> Int {
        var i = i
        while parent[i] != i {
            parent[i] = parent[parent[i]]
            i = parent[i]
        }
        return i
    }

    mutating func union(_ a: Int, _ b: Int) {
        var a = root(a), b = root(b)
        guard a != b else { return }
        if size[a] < size[b] { swap(&a, &b) }
        parent[b] = a
        size[a] += size[b]
    }
}
