import Configuration
import Foundation
import GalleryCore
import Imaging
import Metadata
import Rendering

/// The review page `gallerygen serve` offers at `/__gallerygen/people`: the
/// groups of faces the last build found and nobody named, each shown by its
/// faces (cut from the photos in SOURCE when asked, never written anywhere),
/// with a box to name it. Naming writes people.yml; the server's watcher
/// rebuilds, and the page, like every served page, reloads.
public struct FaceReview: Sendable {
    public static let path = "/__gallerygen/people"
    public static let facePath = "/__gallerygen/face"
    public static let namePath = "/__gallerygen/people/name"
    /// The faces shown per group.
    static let shownFaces = 12

    let source: URL
    let stateFolder: URL
    /// The build's `max_megapixels`: a face is cut from no larger a picture than the build would decode.
    let maximumPixels: Int
    /// A secret of this server's run, in every form: a page of another site
    /// cannot post to this one without it.
    let token: String

    public init(settings: BuildSettings) {
        source = settings.source
        stateFolder = settings.stateFolder
        maximumPixels = settings.maximumPixels
        var bytes = [UInt8](repeating: 0, count: 16)
        var generator = SystemRandomNumberGenerator()
        for index in bytes.indices { bytes[index] = UInt8.random(in: 0...255, using: &generator) }
        token = bytes.map { String(format: "%02x", $0) }.joined()
    }

    var peopleFile: URL { source.appendingPathComponent(PeopleList.fileName) }

    func overview() -> (FaceGroupsOverview?, String?) {
        do {
            return (FaceGroupsOverview.load(stateFolder: stateFolder, people: try PeopleFile.load(source: source)), nil)
        } catch {
            return (FaceGroupsOverview.load(stateFolder: stateFolder, people: PeopleList()), "\(error)")
        }
    }

    // MARK: The page

    /// The page; `named`: the name just given (said at the top).
    public func page(named: String? = nil, problem: String? = nil) -> String {
        let (overview, fileProblem) = overview()
        var html = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="robots" content="noindex">
            <title>Name the faces found · gallerygen</title>
            <style>
            body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1b1b1b;background:#fafafa}
            main{max-width:60rem;margin:0 auto;padding:1rem}
            h1{font-size:1.6rem;margin:.5rem 0}
            h2{font-size:1.15rem;margin:0 0 .5rem}
            .note{color:#444}
            .said{background:#e7f4ea;border-left:4px solid #1e7b34;padding:.5rem 1rem}
            .problem{background:#fdecea;border-left:4px solid #b3261e;padding:.5rem 1rem}
            section{background:#fff;border:1px solid #ddd;border-radius:8px;padding:1rem;margin:1rem 0}
            ul.faces{list-style:none;display:flex;flex-wrap:wrap;gap:.5rem;padding:0;margin:0 0 .75rem}
            ul.faces img{display:block;border-radius:50%;background:#ddd}
            form{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
            input[type=text]{font:inherit;padding:.4rem .6rem;border:1px solid #767676;border-radius:4px;min-width:14rem}
            button{font:inherit;padding:.4rem 1rem;border:0;border-radius:4px;background:#1a5fb4;color:#fff;cursor:pointer}
            button:focus-visible,input:focus-visible{outline:3px solid #1a5fb4;outline-offset:2px}
            @media (prefers-color-scheme:dark){body{background:#121212;color:#eee}section{background:#1e1e1e;border-color:#444}
            .note{color:#ccc}.said{background:#17331f;color:#eee}.problem{background:#3b1715;color:#eee}
            input[type=text]{background:#121212;color:#eee;border-color:#999}button{background:#3584e4;color:#000}}
            </style>
            </head>
            <body>
            <main>
            <h1>Name the faces found</h1>
            <p class="note">Only this computer sees this page; it is never part of the site. Give a group a name and
            people.yml gets a line; the site rebuilds and the person gets a page. Type a name already given to merge the group into that person.</p>

            """
        if let named { html += "<p class=\"said\" role=\"status\">Named \(HTML.escape(named)). The site is being rebuilt; this page reloads when it is done.</p>\n" }
        for line in [problem, fileProblem].compactMap({ $0 }) + (overview?.problems ?? []) {
            html += "<p class=\"problem\" role=\"alert\">\(HTML.escape(line))</p>\n"
        }
        guard let overview else {
            html += "<p>No faces have been found yet: set <code>faces: auto</code> in gallery.yml; the next build looks for them.</p>\n"
            return html + "</main>\n</body>\n</html>\n"
        }
        let unnamed = overview.groups.filter { $0.name == nil && $0.faces.count >= 2 }
        let named = overview.groups.filter { $0.name != nil }
        if unnamed.isEmpty { html += "<p>Every group of faces seen in two photos or more has a name.</p>\n" }
        for group in unnamed {
            let heading = "group-\(group.id)"
            html += "<section aria-labelledby=\"\(heading)\">\n<h2 id=\"\(heading)\">Unnamed group \(group.id) · \(BuildReport.count(group.faces.count, "face"))</h2>\n<ul class=\"faces\">\n"
            for (number, face) in group.faces.prefix(Self.shownFaces).enumerated() {
                let query = face.description.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
                html += "<li><img src=\"\(Self.facePath)?ref=\(query)\" width=\"96\" height=\"96\" loading=\"lazy\" alt=\"Face \(number + 1) in \(HTML.escape(face.path))\"></li>\n"
            }
            html += "</ul>\n"
            html += """
                <form method="post" action="\(Self.namePath)">
                <input type="hidden" name="token" value="\(token)">
                <input type="hidden" name="face" value="\(HTML.escape(group.faces[0].description))">
                <label for="name-\(group.id)">Name</label>
                <input type="text" id="name-\(group.id)" name="name" list="known-names" autocomplete="off" required maxlength="200">
                <button type="submit">Name this person</button>
                </form>
                </section>

                """
        }
        html += "<datalist id=\"known-names\">\n"
        for name in Set(named.compactMap(\.name)).sorted() { html += "<option value=\"\(HTML.escape(name))\">\n" }
        html += "</datalist>\n"
        if !named.isEmpty {
            html += "<h2>Named</h2>\n<ul>\n"
            var counts: [String: Int] = [:]
            for group in named { counts[group.name!, default: 0] += group.faces.count }
            for (name, count) in counts.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }) {
                html += "<li>\(HTML.escape(name)): \(BuildReport.count(count, "face"))</li>\n"
            }
            html += "</ul>\n"
        }
        return html + "</main>\n</body>\n</html>\n"
    }

    // MARK: A face

    /// A face of the table cut from its photo in SOURCE, as a 192 px JPEG;
    /// nil when `reference` is not a face the last build found.
    public func face(_ referenceText: String) -> [UInt8]? {
        guard let reference = FaceReference(parsing: referenceText), let overview = overview().0 else { return nil }
        var box: NormalizedRect?
        for group in overview.groups {
            if let index = group.faces.firstIndex(of: reference) { box = group.boxes[index] }
        }
        if box == nil { box = overview.ungroupedFaces.first { $0.0 == reference }?.1 }
        guard let box, let data = FileManager.default.contents(atPath: source.appendingPathComponent(reference.path).path) else { return nil }
        let bytes = [UInt8](data)
        return try? bytes.withUnsafeBytes { raw -> [UInt8] in
            let metadata = try MetadataReader.read(raw, fileName: reference.path, modificationDate: Date())
            let avatar = Avatar(photoName: "review", displaySize: metadata.displaySize, face: box, encoding: .jpeg(quality: 85))
            var square = avatar
            square.sides = [min(192, avatar.sides.last ?? 192)]
            return try AvatarCropper.make(raw, format: metadata.format, storedSize: metadata.storedSize, orientation: metadata.orientation,
                                          avatar: square, maximumPixels: maximumPixels).first ?? []
        }
    }

    // MARK: Naming

    /// Names the group of `face` (a reference) `name` in people.yml, when
    /// the form is this page's; returns what to tell the reviewer when not.
    public func name(form: [String: String], origin: String?, host: String?) -> Result<String, ReviewRefusal> {
        guard form["token"] == token else { return .failure(.forbidden("this form is not from this server's page: reload it")) }
        if let origin, let host, origin != "http://\(host)" { return .failure(.forbidden("a page of \(origin) cannot name people here")) }
        guard let face = form["face"].flatMap(FaceReference.init(parsing:)) else { return .failure(.bad("no face given")) }
        guard let name = form["name"].flatMap({ FaceRegion.cleanName($0).name }) else {
            return .failure(.bad("a name must be 1 to \(FaceRegion.maximumNameLength) characters"))
        }
        let text = (try? String(contentsOf: peopleFile, encoding: .utf8)) ?? ""
        do {
            let edited = try PeopleFileEditor.adding(face, to: name, in: text)
            try PeopleFileEditor.save(edited, source: source)
            return .success(name)
        } catch {
            return .failure(.bad("\(error)"))
        }
    }

    /// Why a naming was refused.
    public enum ReviewRefusal: Error {
        case forbidden(String)
        case bad(String)
    }
}
