import Foundation
import Testing
import GalleryTestSupport
@testable import GalleryCore
@testable import Rendering

/// The written contract between the page models, the templates and viewer.js
/// (see `PageModels.swift`), and the boundaries the code keeps.
@Suite struct PageContractTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func read(_ relative: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
    }

    static func matches(_ text: String, _ pattern: String) throws -> Set<String> {
        let regex = try NSRegularExpression(pattern: pattern)
        return Set(regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range(at: 1), in: text).map { String(text[$0]) }
        })
    }

    @Test func theViewerReadsOnlyWhatTheGridWrites() throws {
        let viewer = try Self.read("Themes/default/static/viewer.js")
        let grid = try Self.read("Templates/photo-grid.mustache")
        let read = try Self.matches(viewer, #"(data-[a-z-]+)"#)
        // The grid's items, and the page's own settings on <body> (the slideshow's interval).
        let written = try Self.matches(grid, #"(data-[a-z-]+)="#).union(try Self.matches(try Self.read("Templates/head.mustache"), #"(data-[a-z-]+)="#))
        #expect(!read.isEmpty)
        #expect(read.isSubset(of: written), "viewer.js reads \(read.subtracting(written)) that photo-grid.mustache and head.mustache do not write")
        // Search results are grid items too: search.js writes what the template writes.
        let searchWrites = try Self.matches(try Self.read("Themes/default/static/search.js"), #"setAttribute\("(data-[a-z-]+)""#)
        #expect(!searchWrites.isEmpty && searchWrites.isSubset(of: written), "search.js writes \(searchWrites.subtracting(written))")
        // Each data-* value comes from a Thumbnail property of the same model.
        // (A run's day label is a Thumbnail property whose own keys the grid reads inside it; so are a stack's members.)
        let label = DayLabel(anchor: nil, datetime: "", text: "", title: "", month: "", span: "")
        let properties = Set((try #require(TemplateContext.make(Self.sampleThumbnail)?.fields)).keys)
            .union(Mirror(reflecting: Self.sampleThumbnail).children.compactMap(\.label))
            .union(Mirror(reflecting: label).children.compactMap(\.label))
            .union(Mirror(reflecting: StackMember(Self.sampleThumbnail)).children.compactMap(\.label))
        // (`photos` is the list the grid walks, from the page's model.)
        let used = try Self.matches(grid, #"\{\{[#^/]?([A-Za-z]+)\}\}"#).subtracting(["photos"])
        #expect(used.isSubset(of: properties), "the grid uses \(used.subtracting(properties)), which Thumbnail does not have")
        // The hash and the layout variables named in the contract.
        #expect(viewer.contains("#view="))
        let head = try Self.read("Templates/head.mustache"), css = try Self.read("Themes/default/static/style.css")
        for variable in ["--gap", "--row-base", "--row-mobile"] {
            #expect(head.contains(variable) && css.contains("var(\(variable))"), "\(variable)")
        }
        #expect(grid.contains("--grow:{{grow}}") && css.contains("var(--grow"))
    }

    static let sampleThumbnail = Thumbnail(image: ImageAttributes(src: "a", srcset: "a 1w", sizes: "1px", width: 1, height: 1, alt: "a", avifSrcset: "a.avif 1w"),
                                           grow: "1", lazy: false, animated: false, factsJSON: "[]")

    @Test func aModelBecomesTheTemplateContext() throws {
        var thumbnail = Self.sampleThumbnail
        thumbnail.id = "p-a"
        let context = try #require(TemplateContext.make(thumbnail)?.fields)
        #expect(context["id"]?.text == "p-a")
        #expect(context["width"]?.integer == 1 && context["lazy"]?.flag == false)
        #expect(context["href"] == nil, "a nil optional is absent")
        let chrome = PageChrome(site: .init(title: "S"), language: "en", title: "T", stylesheet: "s", themeStylesheet: "t", script: "v", stringsScript: "st", feedURL: "f", pagesScript: "p", placeholderScript: "static/placeholders.js", home: "h",
                                momentsURL: "m", searchURL: "q", inAlbums: true, inMoments: false, spacing: 4, rowHeight: 210, mobileRowHeight: 120, slideshowSeconds: 4,
                                footer: "F")
        let page = MomentsPageModel(chrome: chrome, photoCountLabel: "1 photo", blocks: [], pager: nil, years: [], yearsURL: "years.html",
                                    hereLabel: "May 2024", placesCredit: false)
        let pageContext = try #require(TemplateContext.make(page)?.fields)
        #expect(pageContext["title"]?.text == "T", "the chrome's fields are at the page's level")
        #expect(pageContext["site"]?.fields?["title"]?.text == "S")
        #expect(pageContext["blocks"]?.list?.isEmpty == true && pageContext["spacing"]?.integer == 4)
        #expect(pageContext["chrome"] == nil && pageContext["pager"] == nil)
    }

    @Test func aTemplateThatDoesNotRenderIsAnErrorNamingIt() throws {
        let theme = try Theme.load("default")
        #expect(throws: ThemeError.self) { try theme.render("no-such-page", Self.sampleThumbnail) }
        do {
            _ = try theme.render("no-such-page", Self.sampleThumbnail)
        } catch {
            #expect(error.description == "template 'no-such-page' did not render: no such template")
        }
    }

    /// Steps ask the OUT owner; none of them creates, renames or deletes files itself.
    @Test func onlyTheOutputFolderTouchesOut() throws {
        let folder = Self.root.appendingPathComponent("Sources/GalleryKit")
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            for call in ["unlink(", "rename(", "rmdir(", "access(", "createDirectory(", "removeItem(", ".write(to:"] {
                #expect(!text.contains(call), "\(name) calls \(call)")
            }
        }
    }
}

extension TemplateValue {
    var fields: [String: TemplateValue]? { if case .object(let fields) = shape { fields } else { nil } }
    var list: [TemplateValue]? { if case .list(let items) = shape { items } else { nil } }
    var text: String? { if case .text(let text) = shape { text } else { nil } }
    var integer: Int? { if case .integer(let number) = shape { number } else { nil } }
    var flag: Bool? { if case .flag(let flag) = shape { flag } else { nil } }
}
