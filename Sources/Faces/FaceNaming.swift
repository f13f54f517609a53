import GalleryCore

/// Gives found groups their names: people.yml first (`Grandma: 2019/IMG_0012.jpg`
/// names the group of that photo's largest face; two photos in two groups
/// under one name merge them; `not:` takes one face out), then the face
/// regions photographers tagged (a group takes the name most of its tagged
/// faces carry). An unnamed group is nobody's: it is never published.
public struct FaceNaming: Sendable, Equatable {
    /// Each named group's name, as people.yml or a tag writes it.
    public private(set) var names: [Int: String] = [:]
    /// The named faces of each photo, to publish as that photo's people:
    /// faces a tag already covers are left out (the tag names them).
    public private(set) var faces: [String: [FaceRegion]] = [:]
    /// What people.yml asked that cannot be done, one line each.
    public private(set) var problems: [String] = []

    public init() {}

    /// A photo's faces ordered as people.yml counts them: largest first.
    public static func ranked(_ faces: [FaceLibrary.Entry]) -> [Int] {
        faces.indices.sorted {
            let a = faces[$0].face.box, b = faces[$1].face.box
            return (a.width * a.height, $1) > (b.width * b.height, $0)
        }
    }

    /// The face `reference` points at, found through `hashOf` (a published
    /// photo's path → its content hash), or why there is none.
    static func resolve(_ reference: FaceReference, in library: FaceLibrary,
                        hashOf: (String) -> String?) -> Result<FaceID, Problem> {
        guard let hash = hashOf(reference.path) else { return .failure(.noPhoto) }
        guard let faces = library.faces(of: hash) else { return .failure(.notLookedAt) }
        let order = ranked(faces)
        guard order.indices.contains(reference.rank - 1) else { return .failure(.tooFewFaces(faces.count)) }
        return .success(FaceID(photo: hash, index: order[reference.rank - 1]))
    }

    enum Problem: Error {
        case noPhoto, notLookedAt, tooFewFaces(Int)
    }

    /// Names the groups of `library`. `tagged`: each photo's face regions
    /// (by content hash, upright); `hashOf`: a published photo's content
    /// hash by its path below SOURCE.
    public init(library: FaceLibrary, people: PeopleList, tagged: [String: [FaceRegion]], hashOf: (String) -> String?) {
        var excluded = Set<FaceID>()
        var namedByFile = Set<Int>()
        for entry in people.entries {
            for reference in entry.not {
                if case .success(let id) = Self.resolve(reference, in: library, hashOf: hashOf) { excluded.insert(id) }
            }
            for reference in entry.photos {
                switch Self.resolve(reference, in: library, hashOf: hashOf) {
                case .failure(.noPhoto):
                    problems.append("people.yml: \(entry.name): \(reference.path) is not a published photo")
                case .failure(.notLookedAt):
                    problems.append("people.yml: \(entry.name): \(reference.path) has not been looked at for faces yet")
                case .failure(.tooFewFaces(let count)):
                    problems.append("people.yml: \(entry.name): \(reference) — the photo has \(count == 0 ? "no face found" : count == 1 ? "one face found" : "\(count) faces found")")
                case .success(let id):
                    guard let group = library[id]?.group else {
                        problems.append("people.yml: \(entry.name): \(reference) — that face is too small or blurred to be grouped")
                        continue
                    }
                    if let other = names[group], other != entry.name {
                        problems.append("people.yml: \(entry.name): \(reference) is in the group already named \(other)")
                        continue
                    }
                    names[group] = entry.name
                    namedByFile.insert(group)
                }
            }
        }
        // Tags vote for the groups people.yml left unnamed.
        var votes: [Int: [String: Int]] = [:]
        for (hash, faces) in library.photos {
            guard let regions = tagged[hash], !regions.isEmpty else { continue }
            for entry in faces {
                guard let group = entry.group, !namedByFile.contains(group),
                      let region = Self.bestOverlap(entry.face.box, regions) else { continue }
                votes[group, default: [:]][region.name, default: 0] += 1
            }
        }
        for (group, tally) in votes {
            names[group] = tally.max { ($0.value, $1.key) < ($1.value, $0.key) }!.key
        }
        for (hash, entries) in library.photos where !entries.isEmpty {
            let regions = tagged[hash] ?? []
            var found: [FaceRegion] = []
            for (index, entry) in entries.enumerated() {
                guard let group = entry.group, let name = names[group], !excluded.contains(FaceID(photo: hash, index: index)),
                      Self.bestOverlap(entry.face.box, regions) == nil else { continue }
                found.append(FaceRegion(name: name, area: entry.face.box))
            }
            if !found.isEmpty { faces[hash] = found }
        }
    }

    /// The tagged region that is the same face as `box`: taggers draw the
    /// head, the detector the face, so one box mostly inside the other (and
    /// not four times its size) is the same face; of several, the closest.
    static func bestOverlap(_ box: NormalizedRect, _ regions: [FaceRegion]) -> FaceRegion? {
        var best: (FaceRegion, Double)?
        for region in regions {
            let score = sameFace(box, region.area)
            if score > 0, score > (best?.1 ?? 0) { best = (region, score) }
        }
        return best?.0
    }

    /// The share of the smaller box inside the larger one, when that is at
    /// least 60 % and the larger is at most 4 times the smaller; else 0.
    static func sameFace(_ a: NormalizedRect, _ b: NormalizedRect) -> Double {
        let width = min(a.x + a.width, b.x + b.width) - max(a.x, b.x)
        let height = min(a.y + a.height, b.y + b.height) - max(a.y, b.y)
        guard width > 0, height > 0 else { return 0 }
        let areaA = a.width * a.height, areaB = b.width * b.height
        let smaller = min(areaA, areaB), larger = max(areaA, areaB)
        guard smaller > 0, larger <= 4 * smaller else { return 0 }
        let inside = width * height / smaller
        return inside >= 0.6 ? inside : 0
    }
}
