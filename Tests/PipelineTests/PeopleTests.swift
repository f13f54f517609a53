import Foundation
@testable import GalleryCore
@testable import GalleryKit
import Configuration
import Imaging
import Testing
import GalleryTestSupport

/// People from the face tags photographers wrote, built for real: regions
/// written by exiftool into photos stored under every orientation, in the
/// file, in a sidecar and in both; each avatar compared with the face it
/// names in the upright picture; people.yml's spellings, avatars and hides;
/// private albums; and nothing of people published unless asked.
@Suite struct PeopleTests {
    /// The stored picture: a grey gradient with two faces, each two-toned
    /// (top and bottom differ, so a face turned the wrong way is told apart).
    static let stored = PixelSize(width: 160, height: 120)
    static let faces: [(name: String, box: (x: Int, y: Int, w: Int, h: Int), top: [UInt8], bottom: [UInt8])] = [
        ("Red", (20, 30, 40, 50), [220, 30, 30], [240, 220, 40]),
        ("Blue", (100, 20, 40, 50), [30, 60, 220], [40, 200, 80]),
    ]

    static func storedImage() -> RGBAImage {
        var image = Fixtures.gradient(width: stored.width, height: stored.height)
        for i in stride(from: 0, to: image.pixels.count, by: 4) {
            let grey = UInt8((Int(image.pixels[i]) + Int(image.pixels[i + 1])) / 4 + 60)
            image.pixels[i] = grey
            image.pixels[i + 1] = grey
            image.pixels[i + 2] = grey
        }
        for face in faces {
            for y in face.box.y..<(face.box.y + face.box.h) {
                for x in face.box.x..<(face.box.x + face.box.w) {
                    let colour = y < face.box.y + face.box.h / 2 ? face.top : face.bottom
                    for c in 0..<3 { image.pixels[(y * stored.width + x) * 4 + c] = colour[c] }
                }
            }
        }
        return image
    }

    /// The upright picture a viewer sees of `image` stored under `orientation`
    /// (turned here by plain loops, not by the code under test).
    static func upright(_ image: RGBAImage, _ orientation: Int) -> RGBAImage {
        let w = image.width, h = image.height
        let swaps = orientation >= 5
        let (ow, oh) = swaps ? (h, w) : (w, h)
        return RGBAImage(width: ow, height: oh, hasAlpha: false) { out in
            for y in 0..<oh {
                for x in 0..<ow {
                    let (sx, sy): (Int, Int)
                    switch orientation {
                    case 3: (sx, sy) = (w - 1 - x, h - 1 - y)
                    case 6: (sx, sy) = (y, h - 1 - x)   // turned 90° clockwise to be upright
                    case 8: (sx, sy) = (w - 1 - y, x)   // turned 90° counter-clockwise
                    default: (sx, sy) = (x, y)
                    }
                    for c in 0..<4 { out[(y * ow + x) * 4 + c] = image.pixels[(sy * w + sx) * 4 + c] }
                }
            }
        }
    }

    /// MWG regions as exiftool's struct argument writes them (centre x/y).
    static func regionInfo(_ suffix: String) -> String {
        let list = faces.map { face in
            let x = Double(face.box.x + face.box.w / 2) / Double(stored.width), y = Double(face.box.y + face.box.h / 2) / Double(stored.height)
            let w = Double(face.box.w) / Double(stored.width), h = Double(face.box.h) / Double(stored.height)
            return "{Area={X=\(x),Y=\(y),W=\(w),H=\(h),Unit=normalized},Name=\(face.name) \(suffix),Type=Face}"
        }
        return "-XMP-mwg-rs:RegionInfo={AppliedToDimensions={W=\(stored.width),H=\(stored.height),Unit=pixel},RegionList=[\(list.joined(separator: ","))]}"
    }

    static func settings(_ folder: TemporaryFolder) -> BuildSettings {
        var settings = BuildSettings(source: folder.url.appendingPathComponent("src"), output: folder.url.appendingPathComponent("out"),
                                     thumbnailBoxes: [PixelSize(width: 64, height: 48)], previewBoxes: [PixelSize(width: 320, height: 240)], jobs: 2)
        settings.publishPeople = true
        return settings
    }

    /// Every avatar shows the face it names, for regions in the file, in a
    /// sidecar (`NAME.jpg.xmp` and `NAME.xmp`) and in both, under
    /// orientations 1, 3, 6 and 8.
    @Test func everyAvatarShowsTheFaceItNames() async throws {
        let folder = try TemporaryFolder()
        var expected: [String: RGBAImage] = [:]
        for orientation in [1, 3, 6, 8] {
            for (m, mode) in ["embedded", "sidecar", "both"].enumerated() {
                // Each file its own picture (a mark in a corner): the timeline shows one photo once, whatever its name.
                var image = Self.storedImage()
                image.pixels[0] = UInt8(orientation * 20 + m * 8)
                let plain = try Fixtures.jpeg(image, quality: 95)
                let decodedStored = try plain.withUnsafeBytes { try JPEGCodec.decode($0, scaleDenominator: 1, maximumPixels: 1 << 24) }.image
                let suffix = "o\(orientation) \(mode)"
                let stem = "o\(orientation)-\(mode)"
                let photo = try folder.write("src/Faces/\(stem).jpg", plain)
                var arguments = ["-q", "-overwrite_original", "-Orientation#=\(orientation)", "-DateTimeOriginal=2024:05:0\(orientation) 12:00:00"]
                if mode != "sidecar" { arguments.append(Self.regionInfo(suffix)) }
                _ = try CameraFixtures.run("exiftool", arguments + [photo.path])
                if mode != "embedded" {
                    // Both names sidecars go by: IMG.jpg.xmp (darktable, digiKam) and IMG.xmp (Lightroom).
                    let sidecar = folder.url.appendingPathComponent("src/Faces/" + (orientation % 2 == 0 ? "\(stem).jpg.xmp" : "\(stem).xmp"))
                    _ = try CameraFixtures.run("exiftool", ["-q", Self.regionInfo(suffix), "-o", sidecar.path])
                }
                let upright = Self.upright(decodedStored, orientation)
                for face in Self.faces { expected["\(face.name) \(suffix)"] = upright }
            }
        }
        let settings = Self.settings(folder)
        _ = try await GalleryBuilder().build(settings: settings, quiet: true)
        let out = settings.output
        let index = try String(contentsOf: out.appendingPathComponent("people/index.html"), encoding: .utf8)
        var checked = 0
        for (name, upright) in expected {
            // The 2× file: the last candidate of the person's srcset.
            let entry = try #require(index.components(separatedBy: "<li data-name=\"\(name.lowercased())\">").dropFirst().first,
                                     "\(name) is on the People page")
            let srcset = try #require(entry.components(separatedBy: "srcset=\"").dropFirst().first?.components(separatedBy: "\"").first)
            let file = try #require(srcset.components(separatedBy: ", ").last?.components(separatedBy: " ").first)
            let bytes = Fixtures.contents(of: out.appendingPathComponent("people").appendingPathComponent(file))
            let avatar = try bytes.withUnsafeBytes { try WebPCodec.decode($0, maximumPixels: 1 << 24) }.image
            #expect(avatar.width == avatar.height, "\(name): square")
            // Where the face is in the upright picture, found from its colours (not from the region).
            let colours = Self.faces.first { name.hasPrefix($0.name) }!
            var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
            for y in 0..<upright.height {
                for x in 0..<upright.width {
                    let p = (y * upright.width + x) * 4
                    let pixel = [upright.pixels[p], upright.pixels[p + 1], upright.pixels[p + 2]]
                    guard Self.close(pixel, colours.top, 40) || Self.close(pixel, colours.bottom, 40) else { continue }
                    (minX, minY, maxX, maxY) = (min(minX, x), min(minY, y), max(maxX, x), max(maxY, y))
                }
            }
            let face = NormalizedRect(x: Double(minX) / Double(upright.width), y: Double(minY) / Double(upright.height),
                                      width: Double(maxX - minX + 1) / Double(upright.width), height: Double(maxY - minY + 1) / Double(upright.height))
            let square = face.avatarSquare(in: upright.size).pixels(in: upright.size)
            // The avatar against the same square cut from the upright picture, on an 8 × 8 grid of samples.
            var difference = 0
            for gy in 0..<8 {
                for gx in 0..<8 {
                    let ax = (gx * 2 + 1) * avatar.width / 16, ay = (gy * 2 + 1) * avatar.height / 16
                    let ux = square.x + (gx * 2 + 1) * square.width / 16, uy = square.y + (gy * 2 + 1) * square.height / 16
                    for c in 0..<3 {
                        difference += abs(Int(avatar.pixels[(ay * avatar.width + ax) * 4 + c]) - Int(upright.pixels[(uy * upright.width + ux) * 4 + c]))
                    }
                }
            }
            #expect(difference / (64 * 3) < 14, "\(name): the avatar shows the named face, upright (mean difference \(difference / 192))")
            checked += 1
        }
        #expect(checked == 24)
        // The photo pages name them, linked; the viewer's outlines stand where the faces are upright.
        let page = try String(contentsOf: out.appendingPathComponent("albums/faces/o6-both.html"), encoding: .utf8)
        #expect(page.contains(#"<a href="../../people/red-o6-both/index.html">Red o6 both</a>"#))
        let album = try String(contentsOf: out.appendingPathComponent("albums/faces/index.html"), encoding: .utf8)
        // Red's stored box (20…60, 30…80 of 160 × 120) turned 90° clockwise: x from 40/120, y from 20/160.
        #expect(album.contains("[&quot;Red o6 both&quot;,0.3333,0.1250,0.4167,0.2500]"))
        #expect(album.contains(#"alt="Red o6 both and Blue o6 both""#), "untitled: the alt text names them")
    }

    static func close(_ a: [UInt8], _ b: [UInt8], _ tolerance: Int) -> Bool {
        zip(a, b).allSatisfy { abs(Int($0) - Int($1)) <= tolerance }
    }

    static func tagged(_ folder: TemporaryFolder, _ path: String, seed: Int, names: [String], day: Int, keywords: [String] = []) throws {
        let file = try folder.write("src/" + path, try IncrementalTests.photo(seed, exif: IncrementalTests.exif("2024:06:\(String(format: "%02d", day)) 10:00:00")))
        var arguments = ["-q", "-overwrite_original"]
        if !names.isEmpty {
            let list = names.enumerated().map { i, name in
                "{Area={X=\(0.15 + 0.2 * Double(i) + 0.01 * Double(seed)),Y=0.4,W=\(0.1 + 0.02 * Double(i)),H=0.2,Unit=normalized},Name=\(name),Type=Face}"
            }
            arguments.append("-XMP-mwg-rs:RegionInfo={RegionList=[\(list.joined(separator: ","))]}")
        }
        for keyword in keywords { arguments.append("-XMP-dc:Subject+=\(keyword)") }
        _ = try CameraFixtures.run("exiftool", arguments + [file.path])
    }

    /// Every file under OUT, as text (binary files too: a name must not be in any).
    static func everything(_ out: URL) throws -> String {
        try FileManager.default.subpathsOfDirectory(atPath: out.path).sorted().compactMap { relative -> String? in
            FileManager.default.contents(atPath: out.appendingPathComponent(relative).path).map { relative + "\n" + String(decoding: $0, as: UTF8.self) }
        }.joined(separator: "\n")
    }

    /// The files under `out` that hold `text` (letter case ignored).
    static func files(containing text: String, in out: URL) throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: out.path).sorted().filter { relative in
            FileManager.default.contents(atPath: out.appendingPathComponent(relative).path)
                .map { String(decoding: $0, as: UTF8.self).lowercased().contains(text.lowercased()) } ?? false
        }
    }

    /// people.yml: spellings merged, the avatar chosen, a hidden person
    /// found nowhere under OUT (not a page, name, avatar, search word, alt
    /// text, tag or face box), a private album's people kept in it.
    @Test func peopleYAMLMergesChoosesAndHides() async throws {
        let folder = try TemporaryFolder()
        try Self.tagged(folder, "Trip/a.jpg", seed: 1, names: ["Bob Hidden", "Marie Curie"], day: 1)
        try Self.tagged(folder, "Trip/b.jpg", seed: 2, names: ["marie sklodowska"], day: 2, keywords: ["Bob Hidden", "lab"])
        try Self.tagged(folder, "Trip/c.jpg", seed: 3, names: ["Pierre Curie", "Marie Curie"], day: 3)
        try Self.tagged(folder, "Secret/d.jpg", seed: 4, names: ["Paul Private"], day: 4)
        try folder.write("src/Secret/album.yml", Array("private: true\npassphrase_file: ../../pass.txt\n".utf8))
        try folder.write("pass.txt", Array("correct horse battery staple\n".utf8))
        try folder.write("src/people.yml", Array("""
            Marie Curie:
              also: [Marie Sklodowska]
              avatar: Trip/a.jpg
            Bob Hidden:
              hidden: true
            """.utf8))
        let settings = Self.settings(folder)
        _ = try await GalleryBuilder().build(settings: settings, quiet: true)
        let out = settings.output
        let index = try String(contentsOf: out.appendingPathComponent("people/index.html"), encoding: .utf8)
        #expect(index.contains(">Marie Curie</span> <span class=\"tag-count\">3 photos</span>"), "three spellings, one person")
        #expect(index.contains(">Pierre Curie</span>"))
        #expect(index.range(of: "Marie Curie")!.lowerBound < index.range(of: "Pierre Curie")!.lowerBound, "most photos first")
        let all = try Self.everything(out)
        for secret in ["Bob Hidden", "\"bob\"", "hidden/", "Paul Private", "\"paul\""] {
            #expect(try Self.files(containing: secret, in: out).isEmpty, "\(secret) is published nowhere")
        }
        #expect(!all.lowercased().contains("sklodowska"), "another spelling is published as the name people.yml gives")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("tags/bob-hidden").path), "a hidden person's name is no tag")
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("tags/lab/index.html").path))
        let album = try String(contentsOf: out.appendingPathComponent("albums/trip/index.html"), encoding: .utf8)
        #expect(album.components(separatedBy: "data-faces=").count == 4, "a.jpg, b.jpg and c.jpg have published faces")
        #expect(!album.contains("0.1100,0.3000"), "Bob's box (the first face of a.jpg) is not published")
        #expect(album.contains("0.3000,0.3000"), "Marie's (the second) is")
        let person = try String(contentsOf: out.appendingPathComponent("people/marie-curie/index.html"), encoding: .utf8)
        #expect(person.contains("person-face-heading"))
        #expect(person.components(separatedBy: "<li style=").count - 1 == 3, "her three photos")
        let newest = try #require(person.range(of: "c.html")), oldest = try #require(person.range(of: "a.html"))
        #expect(newest.lowerBound < oldest.lowerBound, "newest first")

        // Her avatar is cut from a.jpg, as people.yml says; without that line, from her largest face (in c.jpg).
        func avatar() throws -> String {
            let index = try String(contentsOf: out.appendingPathComponent("people/index.html"), encoding: .utf8)
            return try #require(index.components(separatedBy: "data-name=\"marie curie\"").dropFirst().first?.components(separatedBy: "src=\"").dropFirst().first?
                .components(separatedBy: "\"").first)
        }
        let chosen = try avatar()
        try folder.write("src/people.yml", Array("Marie Curie:\n  also: [Marie Sklodowska]\nBob Hidden:\n  hidden: true\n".utf8))
        _ = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(try avatar() != chosen)
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("people/" + chosen).path), "the avatar no longer shown is pruned")

        // A broken people.yml stops the build, naming the file, line and key.
        try folder.write("src/people.yml", Array("Marie Curie:\n  also: [Marie]\n  colour: red\n".utf8))
        await #expect(throws: ConfigError.self) { _ = try await GalleryBuilder().build(settings: settings, quiet: true) }
        do {
            _ = try PeopleFile.parse("Marie Curie:\n  also: [Marie]\n  colour: red\n")
        } catch {
            #expect(error.description.hasPrefix("people.yml:3: key 'Marie Curie.colour'"), "\(error.description)")
        }
        #expect(throws: ConfigError.self) { _ = try PeopleFile.parse("A:\n  also: [B]\nB: {}\n") }
    }

    /// Nothing of people unless `publish_people`: no page, no name, no face
    /// box, and a keyword that names the tagged face is no tag either.
    @Test func nothingOfPeopleWhenOff() async throws {
        let folder = try TemporaryFolder()
        try Self.tagged(folder, "Trip/a.jpg", seed: 1, names: ["Marie Curie"], day: 1, keywords: ["Marie Curie", "lab"])
        var settings = Self.settings(folder)
        settings.publishPeople = false
        _ = try await GalleryBuilder().build(settings: settings, quiet: true)
        let all = try Self.everything(settings.output)
        #expect(try Self.files(containing: "marie", in: settings.output).isEmpty)
        #expect(!all.contains("data-faces="))
        #expect(!FileManager.default.fileExists(atPath: settings.output.appendingPathComponent("people").path))
        #expect(all.contains("tags/lab/index.html"))
    }

    /// Faces in the XMP of PNG and WebP files as in JPEGs; a rejected photo
    /// gives no face; regions that cannot be faces are counted in the summary.
    @Test func otherFormatsRejectsAndDroppedRegions() async throws {
        let folder = try TemporaryFolder()
        let image = Fixtures.gradient(width: 160, height: 120)
        let png = try folder.write("src/Lab/scan.png", Fixtures.png(image))
        let webp = try folder.write("src/Lab/phone.webp", try Fixtures.webp(image))
        for (file, name) in [(png, "Pam Png"), (webp, "Wendy Webp")] {
            _ = try CameraFixtures.run("exiftool", ["-q", "-overwrite_original",
                "-XMP-mwg-rs:RegionInfo={RegionList=[{Area={X=0.5,Y=0.5,W=0.2,H=0.3,Unit=normalized},Name=\(name),Type=Face}]}", file.path])
        }
        try Self.tagged(folder, "Lab/rejected.jpg", seed: 3, names: ["Rita Rejected"], day: 3)
        _ = try CameraFixtures.run("exiftool", ["-q", "-overwrite_original", "-XMP-xmp:Rating=-1",
                                                folder.url.appendingPathComponent("src/Lab/rejected.jpg").path])
        let broken = try folder.write("src/Lab/broken.jpg", try IncrementalTests.photo(4, exif: IncrementalTests.exif("2024:06:04 10:00:00")))
        _ = try CameraFixtures.run("exiftool", ["-q", "-overwrite_original",
            "-XMP-mwg-rs:RegionInfo={RegionList=[{Area={X=0.5,Y=0.5,W=0.2,H=0.3,Unit=normalized},Name=Bea Broken,Type=Face},"
                + "{Area={X=3,Y=0.5,W=0.2,H=0.3,Unit=normalized},Name=Far Away,Type=Face},{Area={X=0.5,Y=0.5,W=0,H=0.3,Unit=normalized},Name=Flat,Type=Face}]}",
            broken.path])
        let settings = Self.settings(folder)
        let report = try await GalleryBuilder().build(settings: settings, quiet: true)
        let index = try String(contentsOf: settings.output.appendingPathComponent("people/index.html"), encoding: .utf8)
        for name in ["Pam Png", "Wendy Webp", "Bea Broken"] { #expect(index.contains(">\(name)</span>"), "\(name)") }
        #expect(try Self.files(containing: "Rita", in: settings.output).isEmpty, "a rejected photo gives no face")
        #expect(report.droppedRegions.counts == [.outsideImage: 1, .emptySize: 1])
        #expect(report.summary.contains("Left out 2 face regions that could not be faces: 1 zero or negative size, 1 outside the image"),
                "\(report.summary)")
    }

    /// One more face tagged in one photo renders that photo's pages, the
    /// person's, the People page and the search files; the result is a
    /// clean build's, byte for byte.
    @Test func taggingOneFaceRendersWhatShowsIt() async throws {
        let folder = try TemporaryFolder()
        for i in 0..<12 { try Self.tagged(folder, "Album\(i % 3)/p\(i).jpg", seed: i, names: i % 4 == 0 ? ["Ada"] : [], day: i + 1) }
        let settings = Self.settings(folder)
        _ = try await GalleryBuilder().build(settings: settings, quiet: true)
        try Self.tagged(folder, "Album2/p5.jpg", seed: 5, names: ["Ada", "Grace"], day: 6)
        let report = try await GalleryBuilder().build(settings: settings, quiet: true)
        let written = Set(report.filesWritten.filter { $0.hasSuffix(".html") })
        #expect(written.contains("albums/album2/p5.html"))
        #expect(written.contains("people/index.html") && written.contains("people/grace/index.html") && written.contains("people/ada/index.html"))
        #expect(!written.contains("albums/album0/p0.html"), "a photo that shows no change is not rendered")
        #expect(report.pagesRendered < 16, "rendered \(report.pagesRendered) pages")
        // The same site as a clean build.
        let clean = try TemporaryFolder()
        var cleanSettings = settings
        cleanSettings.output = clean.url.appendingPathComponent("out")
        _ = try await GalleryBuilder().build(settings: cleanSettings, quiet: true)
        #expect(try Self.everything(settings.output) == Self.everything(cleanSettings.output))
    }
}
