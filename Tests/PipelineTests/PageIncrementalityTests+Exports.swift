import Foundation
import GalleryTestSupport

extension PageIncrementalityTests.Library {
    /// A Takeout JSON beside a photo written, changed or removed (a date the
    /// file's EXIF overrides, a description, a favourite, trash or archive),
    /// the photo and its JSON copied into a year folder, as Takeout copies
    /// every album photo, or an iCloud `Photo Details.csv` written into the
    /// photo's folder (favourites, hidden, deleted).
    /// `kind` (taken modulo 5): a JSON written, the year copy, the table,
    /// the JSON removed, the photo copied into a second Takeout album.
    func exportSidecar(_ random: inout PageIncrementalityTests.Random, kind: Int) throws {
        guard !photos.isEmpty else { return }
        let path = random.pick(photos)
        let json = source.appendingPathComponent(path + ".json")
        let fm = FileManager.default
        switch kind % 5 {
        case 3:
            try? fm.removeItem(at: json)
        case 4:
            // Both folders Takeout albums (their JSON), the photo in each: one item, listed by both.
            let here = (path as NSString).deletingLastPathComponent
            let there = random.pick(PageIncrementalityTests.albums.filter { $0 != here })
            let copy = (there.isEmpty ? "" : there + "/") + (path as NSString).lastPathComponent
            guard !photos.contains(copy) else { return }
            for album in [here, there] {
                let folder = source.appendingPathComponent(album)
                try fm.createDirectory(at: folder, withIntermediateDirectories: true)
                try Data(#"{"title": "\#(album.isEmpty ? "Top" : album) (Google Photos)"}"#.utf8).write(to: folder.appendingPathComponent("metadata.json"))
            }
            try fm.copyItem(at: source.appendingPathComponent(path), to: source.appendingPathComponent(copy))
            photos.append(copy)
        case 2:
            let folder = source.appendingPathComponent(path).deletingLastPathComponent()
            let names = (try? fm.contentsOfDirectory(atPath: folder.path))?.filter { $0.hasSuffix(".jpg") }.sorted() ?? []
            var table = "imgName,fileChecksum,favorite,hidden,deleted,originalCreationDate,viewCount,importDate\n"
            for name in names where random.below(2) == 0 {
                let flags = [random.below(3) == 0, random.below(6) == 0, random.below(8) == 0].map { $0 ? "yes" : "no" }
                table += "\(name),x,\(flags.joined(separator: ",")),\"Sunday March 03,2024 09:20 AM GMT\",0,\n"
            }
            try Data(table.utf8).write(to: folder.appendingPathComponent("Photo Details.csv"))
        case 1:
            let copy = "Photos from 2024/" + (path as NSString).lastPathComponent
            guard !photos.contains(copy) else { return }
            try fm.createDirectory(at: source.appendingPathComponent("Photos from 2024"), withIntermediateDirectories: true)
            try fm.copyItem(at: source.appendingPathComponent(path), to: source.appendingPathComponent(copy))
            try Data(ExportLibraries.takeoutJSON(title: copy, description: "A copy")).write(to: source.appendingPathComponent(copy + ".json"))
            photos.append(copy)
        default:
            let bytes = ExportLibraries.takeoutJSON(
                title: (path as NSString).lastPathComponent, taken: 1_704_067_200 + Int64(random.below(86_400 * 60)),
                description: random.pick(["", "From Google Photos", "Ünïcode & <b>markup</b>"]), favorited: random.below(3) == 0,
                trashed: random.below(6) == 0, archived: random.below(6) == 0,
                people: random.below(3) == 0 ? [random.pick(["Ada", "Grace", "Alan"])] : [])
            try Data(bytes).write(to: json)
        }
    }
}
