import GalleryCore

/// Groups found faces into people without being told how many there are:
/// a face joins the group of the nearest grouped face when that face is
/// closer than `joinDistance`, else starts a group of its own. New faces
/// join existing groups (a photo added costs a search, not a regrouping),
/// so a group keeps its identifier, and the name given to it, from build to
/// build; a full regrouping happens only when asked for.
///
/// The threshold is stricter than the model's own 0.6 (its authors' figure
/// for "same person" on LFW): a wrong merge puts a stranger on someone's
/// page, a missed one leaves a photo to name again. See docs/faces.md.
public enum FaceGrouping {
    /// Two faces closer than this are taken for one person.
    public static let joinDistance: Float = 0.5
    /// Faces the detector was less sure of are kept but not grouped (most are
    /// blurred, turned or half hidden, and their descriptors wander).
    public static let minimumScore: Float = 0.2
    /// Faces smaller than this (in the picture they were found in) are kept
    /// but not grouped: too few pixels to tell people apart.
    public static let minimumPixels = 60

    /// Whether a face is clear enough to group.
    public static func isGroupable(_ face: FoundFace) -> Bool {
        face.score >= minimumScore && face.pixels >= minimumPixels
    }

    /// Puts every ungrouped, groupable face into a group (in the order of
    /// their photos' hashes, so the result does not depend on the order
    /// photos were processed in). Returns how many faces were grouped.
    @discardableResult
    public static func group(_ library: inout FaceLibrary) -> Int {
        var waiting: [FaceID] = []
        for (hash, faces) in library.photos {
            for (position, entry) in faces.enumerated() where entry.group == nil && isGroupable(entry.face) {
                waiting.append(FaceID(photo: hash, index: position))
            }
        }
        // Nothing new (a rebuild with no new photo): no index is made.
        guard !waiting.isEmpty else { return 0 }
        waiting.sort()
        var index = DescriptorIndex()
        // In the photos' order, so ties fall the same way every build; photos without faces are most of a library.
        for hash in library.photos.lazy.filter({ !$0.value.isEmpty }).map(\.key).sorted() {
            for entry in library.photos[hash]! {
                if let group = entry.group { index.add(entry.face.descriptor, group: group) }
            }
        }
        for id in waiting {
            let descriptor = library.photos[id.photo]![id.index].face.descriptor
            let group: Int
            if let nearest = index.nearest(to: descriptor, within: joinDistance) {
                group = nearest
            } else {
                group = library.nextGroup
                library.nextGroup += 1
            }
            library.photos[id.photo]![id.index].group = group
            index.add(descriptor, group: group)
        }
        return waiting.count
    }

    /// Groups every face afresh (after the model changed, or when asked:
    /// `gallerygen people --regroup`). A new group takes the identifier most
    /// of its faces had, when no larger group took it first, so names given
    /// before mostly stay where they were.
    public static func regroup(_ library: inout FaceLibrary) {
        var before: [FaceID: Int] = [:]
        for (hash, faces) in library.photos {
            for (position, entry) in faces.enumerated() {
                if let group = entry.group { before[FaceID(photo: hash, index: position)] = group }
                library.photos[hash]![position].group = nil
            }
        }
        let firstNew = library.nextGroup
        group(&library)
        // New groups, largest first, claim their faces' old identifiers.
        let members = library.members.sorted { ($0.value.count, $1.key) > ($1.value.count, $0.key) }
        var taken = Set<Int>(), renamed: [Int: Int] = [:]
        for (group, faces) in members {
            var votes: [Int: Int] = [:]
            for face in faces { if let old = before[face] { votes[old, default: 0] += 1 } }
            let best = votes.filter { !taken.contains($0.key) }.max { ($0.value, $1.key) < ($1.value, $0.key) }
            if let best, best.value * 2 > faces.count {
                taken.insert(best.key)
                renamed[group] = best.key
            }
        }
        var next = firstNew
        var fresh: [Int: Int] = [:]
        for hash in library.photos.keys.sorted() {
            for position in library.photos[hash]!.indices {
                guard let group = library.photos[hash]![position].group else { continue }
                if let old = renamed[group] {
                    library.photos[hash]![position].group = old
                } else {
                    if fresh[group] == nil {
                        fresh[group] = next
                        next += 1
                    }
                    library.photos[hash]![position].group = fresh[group]
                }
            }
        }
        library.nextGroup = next
    }
}

/// Grouped descriptors in one flat array, searched by brute force with an
/// early exit: a face of another person is usually past the threshold a
/// quarter of the way through its 128 values.
struct DescriptorIndex {
    private var values: [Float] = []
    private var groups: [Int] = []

    mutating func add(_ descriptor: FaceDescriptor, group: Int) {
        values.append(contentsOf: descriptor.values)
        groups.append(group)
    }

    /// The group of the nearest descriptor closer than `limit`.
    func nearest(to descriptor: FaceDescriptor, within limit: Float) -> Int? {
        let query = descriptor.values
        let length = FaceDescriptor.length
        var best = limit * limit, found: Int?
        values.withUnsafeBufferPointer { all in
            query.withUnsafeBufferPointer { q in
                for row in groups.indices {
                    let base = row * length
                    var sum: Float = 0
                    var start = 0
                    while start < length {
                        for k in start..<(start + 32) {
                            let d = all[base + k] - q[k]
                            sum += d * d
                        }
                        if sum >= best { break }
                        start += 32
                    }
                    if sum < best {
                        best = sum
                        found = groups[row]
                    }
                }
            }
        }
        return found
    }
}
