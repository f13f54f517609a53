import Foundation
import Testing
import GalleryTestSupport
@testable import GalleryKit
@testable import Scanning

/// A walk that replays the folders the watcher saw no change in finds what a
/// fresh walk finds, after random edits of every kind: files added, removed,
/// rewritten, touched and renamed; sidecars, Live Photo clips and RAW twins;
/// folders made, removed, renamed and moved; album.yml added and removed.
@Test func aWalkReplayingUnchangedFoldersFindsWhatAFreshWalkFinds() throws {
    let folder = try TemporaryFolder()
    let root = folder.url.appendingPathComponent("src")
    let fm = FileManager.default
    for album in ["A", "A/B", "C", "D/E"] {
        try fm.createDirectory(at: root.appendingPathComponent(album), withIntermediateDirectories: true)
        for i in 0..<3 { try Data("photo \(album) \(i)".utf8).write(to: root.appendingPathComponent("\(album)/p\(i).jpg")) }
    }
    let watcher = try SourceWatcher(root: root)
    let memory = ScanMemory()
    let scanner = SourceScanner(root: root)
    let options = ScanOptions(pairRaw: true)
    func events(_ memory: ScanMemory?) -> [String] {
        var found: [String] = []
        scanner.walk(options, memory: memory) { event in
            switch event {
            case .album(let path, let sidecar): found.append("album \(path) \(sidecar?.path ?? "-")")
            case .media(let file):
                found.append("media \(file.url.path) \(file.byteCount) \(file.modifiedNanoseconds) \(file.sidecars.map(\.url.path)) "
                             + "\(file.livePhotoClip.map { "\($0.url.path) \($0.byteCount) \($0.modifiedNanoseconds)" } ?? "-")")
            case .unreadable(let path, let reason): found.append("unreadable \(path) \(reason)")
            case .ignored(let path): found.append("ignored \(path)")
            case .pairedRaw(let path): found.append("raw \(path)")
            case .takeoutFolder(let tally): found.append("takeout \(tally)")
            case .takeoutAlbum(let path, let file): found.append("takeout album \(path) \(file.path)")
            case .takeoutYearFolder(let path): found.append("takeout year \(path)")
            case .iCloudFolder(let media, let tables): found.append("icloud \(media) \(tables)")
            case .iCloudLibraryFolder(let path): found.append("icloud library \(path)")
            case .iCloudAlbum(let path, let table): found.append("icloud album \(path) \(table.path)")
            }
        }
        return found
    }
    let seed = UInt64.random(in: 0...UInt64.max)
    var generator = SeededGenerator(seed: seed)
    func folders() -> [String] {
        [""] + ((fm.enumerator(atPath: root.path)?.allObjects as? [String]) ?? []).filter { path in
            var isFolder: ObjCBool = false
            return fm.fileExists(atPath: root.appendingPathComponent(path).path, isDirectory: &isFolder) && isFolder.boolValue
        }.sorted()
    }
    func files(in album: String) -> [String] {
        ((try? fm.contentsOfDirectory(atPath: root.appendingPathComponent(album).path)) ?? []).filter { name in
            var isFolder: ObjCBool = false
            return fm.fileExists(atPath: root.appendingPathComponent(album).appendingPathComponent(name).path, isDirectory: &isFolder) && !isFolder.boolValue
        }.sorted()
    }
    func url(_ album: String, _ name: String) -> URL { root.appendingPathComponent(album).appendingPathComponent(name) }
    var replayed = 0, counter = 0
    _ = events(memory)  // records nothing: `expect` has not named the watched folders yet
    for round in 0..<60 {
        for _ in 0..<Int.random(in: 1...3, using: &generator) {
            let albums = folders()
            let album = albums.randomElement(using: &generator)!
            let names = files(in: album)
            counter += 1
            switch Int.random(in: 0..<13, using: &generator) {
            case 0: try Data("new \(counter)".utf8).write(to: url(album, "n\(counter).jpg"))
            case 1: if let name = names.randomElement(using: &generator) { try fm.removeItem(at: url(album, name)) }
            case 2:
                if let name = names.randomElement(using: &generator) {
                    let handle = try FileHandle(forWritingTo: url(album, name))
                    try handle.seekToEnd()
                    try handle.write(contentsOf: Data("more".utf8))
                    try handle.close()
                }
            case 3:
                if let name = names.randomElement(using: &generator) {
                    try fm.setAttributes([.modificationDate: Date(timeIntervalSince1970: Double(1_600_000_000 + counter))],
                                         ofItemAtPath: url(album, name).path)
                }
            case 4:
                if let name = names.randomElement(using: &generator) {
                    let to = albums.randomElement(using: &generator)!
                    _ = rename(url(album, name).path, url(to, "r\(counter)-\(name)").path)
                }
            case 5:
                // A sidecar, a Live Photo clip or a RAW twin of a photo there, or an ignored file.
                if let photo = names.first(where: { $0.hasSuffix(".jpg") }) {
                    let base = String(photo.dropLast(4))
                    let ext = ["xmp", "mov", "CR2", "txt", "pdf", "jpg.json", "jpg.supplemental-metadata.json"].randomElement(using: &generator)!
                    try Data("twin \(counter)".utf8).write(to: url(album, "\(base).\(ext)"))
                }
            case 6: try fm.createDirectory(at: url(album, "F\(counter)"), withIntermediateDirectories: false)
            case 7:
                if album != "" { try fm.removeItem(at: root.appendingPathComponent(album)) }
            case 8:
                // A folder renamed, or moved into another (not into itself).
                let to = albums.filter { $0 != album && !$0.hasPrefix(album + "/") }.randomElement(using: &generator)
                if album != "", let to { _ = rename(root.appendingPathComponent(album).path, url(to, "M\(counter % 3)").path) }
            case 12:
                // A folder replaced by another with folders of the same names inside.
                guard album != "" else { break }
                let inner = folders().filter { $0.hasPrefix(album + "/") }.map { String($0.dropFirst(album.count + 1)) }
                let staging = folder.url.appendingPathComponent("replacement\(counter)")
                for path in inner + [""] {
                    try fm.createDirectory(at: staging.appendingPathComponent(path), withIntermediateDirectories: true)
                    try Data("replaced \(counter)".utf8).write(to: staging.appendingPathComponent(path).appendingPathComponent("x\(counter).jpg"))
                }
                _ = rename(root.appendingPathComponent(album).path, folder.url.appendingPathComponent("away\(counter)").path)
                _ = rename(staging.path, root.appendingPathComponent(album).path)
            case 9:
                let sidecar = url(album, "album.yml")
                if fm.fileExists(atPath: sidecar.path) { try fm.removeItem(at: sidecar) } else { try Data("title: T\n".utf8).write(to: sidecar) }
            case 10: try Data("hidden".utf8).write(to: url(album, ".h\(counter).jpg"))
            default:
                // A folder made with photos already in it, then moved in.
                let staging = folder.url.appendingPathComponent("staging\(counter)/Inner")
                try fm.createDirectory(at: staging, withIntermediateDirectories: true)
                try Data("inner".utf8).write(to: staging.appendingPathComponent("i.jpg"))
                _ = rename(staging.deletingLastPathComponent().path, url(album, "S\(counter % 3)").path)
            }
        }
        _ = watcher.waitForChanges(debounce: 0.05, settle: 0.01, giveUpAfter: 0.3)
        let changes = watcher.takeChanges()
        memory.expect(changes)
        let remembered = events(memory)
        replayed += memory.replayed
        #expect(remembered == events(nil), "round \(round), seed \(seed)")
        watcher.resync()  // as a watching build does after each build
    }
    #expect(replayed > 60, "folders replayed: \(replayed), seed \(seed)")
}

/// A folder removed and made again between the watcher's last word and the
/// walk is listed by that walk while its watch is still the old folder's:
/// what changes in it next must still be seen, not replayed from that walk.
@Test func aFolderMadeAgainJustBeforeAWalkIsWalkedAgainAfterIt() throws {
    let folder = try TemporaryFolder()
    let root = folder.url.appendingPathComponent("src")
    let album = root.appendingPathComponent("A")
    try FileManager.default.createDirectory(at: album, withIntermediateDirectories: true)
    try Data("p".utf8).write(to: album.appendingPathComponent("p.jpg"))
    let watcher = try SourceWatcher(root: root)
    let memory = ScanMemory()
    let scanner = SourceScanner(root: root)
    func names() -> [String] {
        var found: [String] = []
        scanner.walk(memory: memory) { if case .media(let file) = $0 { found.append(file.relativePath) } }
        return found
    }
    func expectChanges() {
        let changes = watcher.takeChanges()
        memory.expect(changes)
    }
    expectChanges()
    #expect(names() == ["A/p.jpg"])

    // A changed, so the next walk lists it; just before it does, A is made again.
    try Data("x".utf8).write(to: album.appendingPathComponent("x.jpg"))
    #expect(watcher.waitForChanges(debounce: 0.05, settle: 0.01, giveUpAfter: 1) > 0)
    expectChanges()
    try FileManager.default.removeItem(at: album)
    try FileManager.default.createDirectory(at: album, withIntermediateDirectories: true)
    try Data("q".utf8).write(to: album.appendingPathComponent("q.jpg"))
    #expect(names() == ["A/q.jpg"])
    try Data("r".utf8).write(to: album.appendingPathComponent("r.jpg"))  // no watch on the new A yet

    #expect(watcher.waitForChanges(debounce: 0.05, settle: 0.01, giveUpAfter: 1) > 0)
    expectChanges()
    #expect(names() == ["A/q.jpg", "A/r.jpg"])
    watcher.resync()
    // Watched now: a change in the new A alone is seen.
    try Data("s".utf8).write(to: album.appendingPathComponent("s.jpg"))
    #expect(watcher.waitForChanges(debounce: 0.05, settle: 0.01, giveUpAfter: 1) > 0)
    expectChanges()
    #expect(names() == ["A/q.jpg", "A/r.jpg", "A/s.jpg"])
    #expect(memory.replayed == 1, "the root is replayed, A walked")
}

/// A folder replaced, between two walks, by another with a folder of the
/// same name inside: that inner folder is walked again, not replayed.
@Test func aFolderReplacedWithTheSameInnerFoldersIsWalkedAgainWhole() throws {
    let folder = try TemporaryFolder()
    let root = folder.url.appendingPathComponent("src")
    let fm = FileManager.default
    try fm.createDirectory(at: root.appendingPathComponent("A/Z"), withIntermediateDirectories: true)
    try Data("p".utf8).write(to: root.appendingPathComponent("A/Z/p.jpg"))
    let watcher = try SourceWatcher(root: root)
    let memory = ScanMemory()
    let scanner = SourceScanner(root: root)
    func names() -> [String] {
        let changes = watcher.takeChanges()
        memory.expect(changes)
        var found: [String] = []
        scanner.walk(memory: memory) { if case .media(let file) = $0 { found.append(file.relativePath) } }
        return found
    }
    #expect(names() == ["A/Z/p.jpg"])
    let replacement = folder.url.appendingPathComponent("new")
    try fm.createDirectory(at: replacement.appendingPathComponent("Z"), withIntermediateDirectories: true)
    try Data("q".utf8).write(to: replacement.appendingPathComponent("Z/q.jpg"))
    #expect(rename(root.appendingPathComponent("A").path, folder.url.appendingPathComponent("old").path) == 0)
    #expect(rename(replacement.path, root.appendingPathComponent("A").path) == 0)
    #expect(watcher.waitForChanges(debounce: 0.05, settle: 0.01, giveUpAfter: 1) > 0)
    #expect(names() == ["A/Z/q.jpg"])
}
