import Foundation
import GalleryTestSupport

extension PageIncrementalityTests.Library {
    /// A stack changed: a burst frame added (the camera's cover now and
    /// then), an edited copy written beside a photo, a stack's item removed
    /// or re-rated (the cover moves with the rating when no rule picks it),
    /// a photo kept out of its stack by album.yml, or the bursts rule turned
    /// off or on, or a scene shot twice a second apart (near-duplicates).
    /// `kind` is taken modulo 7.
    func stackMember(_ random: inout PageIncrementalityTests.Random, kind: Int) throws {
        let stacked = photos.filter { $0.contains("_BURST") || $0.contains("-edited") || $0.contains("/near") }
        switch kind % 7 {
        case 6:
            // One scene, then a moment later moved and lighter: near-duplicates (unless the rule is off).
            next += 1
            let album = random.pick(["Home", "Zoo"]), minute = String(format: "%02d", random.below(60))
            try folder.write("src/\(album)/near\(next)a.jpg", try Fixtures.jpeg(Fixtures.scene(UInt64(500 + next), width: 160, height: 120),
                                                                           exif: IncrementalTests.exif("2024:03:03 09:\(minute):00")))
            try folder.write("src/\(album)/near\(next)b.jpg", try Fixtures.jpeg(Fixtures.scene(UInt64(500 + next), width: 160, height: 120, shift: 4, light: 6),
                                                                           exif: IncrementalTests.exif("2024:03:03 09:\(minute):01")))
            photos += ["\(album)/near\(next)a.jpg", "\(album)/near\(next)b.jpg"]
        case 1:
            // An edit of a photo of its folder (new pixels, the original's name and date).
            let originals = photos.filter { !$0.contains("_BURST") && !$0.contains("-edited") }
            guard !originals.isEmpty else { return }
            let original = random.pick(originals)
            let edit = String(original.dropLast(4)) + "-edited.jpg"
            guard !photos.contains(edit) else { return }
            next += 1
            try folder.write("src/" + edit, try IncrementalTests.photo(next, exif: IncrementalTests.exif("2024:02:10 10:00:00")))
            photos.append(edit)
        case 2:
            guard !stacked.isEmpty else { return }
            let gone = random.pick(stacked)
            photos.removeAll { $0 == gone }
            try FileManager.default.removeItem(at: source.appendingPathComponent(gone))
            try? FileManager.default.removeItem(at: sidecar(of: gone))
        case 3:
            guard !stacked.isEmpty else { return }
            try words(&random, of: random.pick(stacked))
        case 4:
            settings.values.stackBursts.toggle()
            if random.below(2) == 0 { settings.values.stackNearDuplicates.toggle() }
        default:
            // A frame of one of two bursts, in one of two albums.
            next += 1
            let album = random.pick(["Zoo", "Trips/Alps"])
            let burst = random.pick(["IMG_20240214_101500", "IMG_20240214_113000"])
            let cover = random.below(5) == 0 ? "_COVER" : ""
            let path = "\(album)/\(burst)_BURST\(String(format: "%03d", next % 1000))\(cover).jpg"
            guard !photos.contains(path) else { return }
            try folder.write("src/" + path, try IncrementalTests.photo(next, exif: IncrementalTests.exif("2024:02:14 10:15:00")))
            photos.append(path)
        }
    }
}
