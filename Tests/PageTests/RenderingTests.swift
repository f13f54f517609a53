import Foundation
import Testing
import GalleryTestSupport
@testable import GalleryCore
@testable import Planning
@testable import Rendering

@Suite struct RenderingTests {
    /// Slugs and search tokens of ASCII text take a byte-by-byte path: it
    /// must give what Foundation's folding gives, for any ASCII at all.
    @Test func asciiFastPathsMatchFolding() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array((0x20...0x7E).map { Character(UnicodeScalar(UInt8($0))) }) + ["\t", "\n"]
        var samples = ["IMG_0001", "2019-11-08 album 00488", "Kyoto & Osaka", "--a--", "A", "", "___", "x" + String(repeating: " ab", count: 40)]
        for _ in 0..<2_000 {
            samples.append(String((0..<Int.random(in: 0...90, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }))
        }
        for text in samples {
            #expect(Slug.make(text, fallback: "f") == Slug.unicodeSlug(text, fallback: "f"), "\(text)")
            #expect(SearchIndex.tokens(text) == SearchIndex.unicodeTokens(text), "\(text)")
        }
    }

    @Test func templatesEscapeEveryValue() throws {
        #expect(HTML.escape("Léa's <b>\"7\"</b> & co") == "Léa&#39;s &lt;b&gt;&quot;7&quot;&lt;/b&gt; &amp; co")
        #expect(HTML.escape("Kyoto · 3 May") == "Kyoto · 3 May")
        // A value reaches a page through the templates' content type, escaped.
        let theme = try Theme.load("default")
        var thumbnail = PageContractTests.sampleThumbnail
        thumbnail.image.alt = "<script>alert('x')</script>"
        let chrome = PageChrome(site: .init(title: "<i>S</i>"), language: "en", title: "T & \"U\"", stylesheet: "s", themeStylesheet: "t", script: "v", stringsScript: "st", feedURL: "f",
                                pagesScript: "p", placeholderScript: "static/placeholders.js", home: "h", momentsURL: "m", searchURL: "q", inAlbums: true, inMoments: false,
                                spacing: 4, rowHeight: 210, mobileRowHeight: 120, slideshowSeconds: 4, footer: "F")
        let page = AlbumPageModel(chrome: chrome, photoCountLabel: "1 photo", breadcrumbs: [], hasBreadcrumbs: false,
                                  photos: [thumbnail], hasPhotos: true)
        let html = try theme.render("album", page)
        #expect(html.contains("alt=\"&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;\""))
        #expect(html.contains("<title>T &amp; &quot;U&quot; · &lt;i&gt;S&lt;/i&gt;</title>"))
        #expect(!html.contains("<script>alert") && !html.contains("{{%"))
    }

    @Test func markdownEscapesRawHTMLAndUnsafeLinks() {
        let html = Markdown.render("Hello <script>alert(1)</script> & **bold** *it* `<b>`\n\n- [ok](https://example.org/?a=1&b=2)\n- [bad](javascript:alert(1))\n- [data](DATA:text/html,x)")
        #expect(!html.contains("<script>"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; <strong>bold</strong> <em>it</em> <code>&lt;b&gt;</code>"))
        #expect(html.contains("<a href=\"https://example.org/?a=1&amp;b=2\">ok</a>"))
        #expect(!html.lowercased().contains("javascript:"))
        #expect(!html.lowercased().contains("data:"))
        #expect(html.contains("<li>bad</li>"))
        #expect(html.contains("<ul>"))
        #expect(Markdown.render("a <i>b</i>", allowHTML: true).contains("<i>b</i>"))
        #expect(Markdown.render("# Title\n1. one\n2. two").contains("<h2>Title</h2>\n<ol><li>one</li><li>two</li></ol>"))
        #expect(Markdown.render("[x](\" onmouseover=\"alert(1))").contains("href=\"&quot; onmouseover=&quot;alert(1\"") || !Markdown.render("[x](\" onmouseover=\"alert(1))").contains("onmouseover=\"alert"))
    }

    /// Postings are base-36 gaps, as `parseInt(g, 36)` in search.js reads them.
    @Test func postingsAreBase36Gaps() {
        let numbers = [0, 3, 4, 9, 45, 1_331, 95_710 * (1 << 24), 95_710 * (1 << 24) + 36 * 36 * 36]
        var previous = 0
        let expected = numbers.map { n in defer { previous = n }; return String(n - previous, radix: 36) }.joined(separator: ",")
        #expect(SearchIndex.deltaEncoded(numbers) == expected)
        #expect(SearchIndex.deltaEncoded([3, 4, 9]) == "3,1,5")
        #expect(SearchIndex.deltaEncoded([]) == "")
        // A list long enough to be written in parts on every core: the parts' seams are gaps like any other.
        var long: [Int] = [], next = 5
        for index in 0..<300_001 {
            long.append(next)
            next += 1 + (index * 7919) % 1_500
        }
        previous = 0
        let gaps = long.map { n in defer { previous = n }; return String(n - previous, radix: 36) }.joined(separator: ",")
        #expect(SearchIndex.deltaEncoded(long) == gaps)
    }

    /// The search index's JSON (typed values through CompactJSON) reads back
    /// as what went in (quotes, backslashes, controls, U+2028, emoji,
    /// slashes, nesting), with keys sorted and U+2028/2029 escaped (the files
    /// are scripts); a SearchDocument is the array search.js reads by position.
    @Test func searchIndexJSONReadsBack() throws {
        let tricky = "a \"q\" \\ / \u{1}\n\t\r \u{2028}\u{2029} é 🐱 </script>"
        enum Field: Encodable {
            case text(String), numbers([Int]), flag(Bool)
            func encode(to encoder: any Encoder) throws {
                var one = encoder.singleValueContainer()
                switch self {
                case .text(let text): try one.encode(text)
                case .numbers(let numbers): try one.encode(numbers)
                case .flag(let flag): try one.encode(flag)
                }
            }
        }
        struct Mixed: Encodable {
            let tricky: String
            func encode(to encoder: any Encoder) throws {
                var list = encoder.unkeyedContainer()
                try list.encode("plain")
                try list.encode(tricky)
                for number in [0, -12, 1_000_000] { try list.encode(number) }
                try list.encode([String: String]())
                try list.encode(["z": Field.text("1,a"), "a": Field.numbers([1, 2]), tricky: Field.flag(true)])
                try list.encode([String]())
            }
        }
        let text = CompactJSON.string(Mixed(tricky: tricky))
        #expect(!text.contains("\u{2028}") && text.contains("\\u2028"))
        #expect(text.hasPrefix("[\"plain\","))
        #expect(text.contains("{\"a\":[1,2],"), "keys sorted")
        let back = try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [Any])
        #expect(back.count == 8)
        #expect(back[1] as? String == tricky)
        #expect(back[3] as? Int == -12)
        let object = try #require(back[6] as? [String: Any])
        #expect(object["z"] as? String == "1,a")
        #expect(object[tricky] as? Bool == true)
        #expect((object["a"] as? [Any])?.first as? Int == 1)
        #expect((back[7] as? [Any])?.isEmpty == true)
        let document = SearchDocument(page: "albums/a/x.html", thumbnailSrcset: "s 1w", thumbnailWidth: 4, thumbnailHeight: 3,
                                      previewSrcset: "p 2w", previewWidth: 8, previewHeight: 6, alt: tricky, caption: "",
                                      video: "media/v.mp4", live: true)
        for live in [true, false] {
            var shown = document
            shown.live = live
            shown.caption = tricky
            var json = ""
            shown.appendJSON(to: &json)
            #expect(!json.contains("\u{2028}") && json.contains("\\u2028"), "a script's text: U+2028 escaped")
            let fields = try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [Any])
            #expect(fields.count == 11 && fields[0] as? String == "albums/a/x.html" && fields[5] as? Int == 8)
            #expect(fields[1] as? String == "s 1w" && fields[2] as? Int == 4 && fields[3] as? Int == 3 && fields[4] as? String == "p 2w")
            #expect(fields[7] as? String == tricky && fields[8] as? String == tricky && fields[9] as? String == "media/v.mp4")
            #expect(fields[10] as? Int == (live ? 1 : 0))
        }
        let words = ["z": "1,a", "a": "3,1", tricky: "\u{2028}", "": ""]
        #expect(CompactJSON.object(words) == CompactJSON.string(words))
        #expect(CompactJSON.object([:]) == "{}")
    }

    /// A description for link previews: plain, one line, at most 200
    /// characters; text already so is returned as it is.
    @Test func shareSummariesArePlainAndShort() {
        #expect(SiteRenderer.shareSummary("A day at the lake, Été 🐱") == "A day at the lake, Été 🐱")
        #expect(SiteRenderer.shareSummary("**Bold** and `code`\n# Title  twice") == "Bold and code Title twice")
        #expect(SiteRenderer.shareSummary(" padded ") == "padded")
        #expect(SiteRenderer.shareSummary("snake_case__x") == "snake_casex")
        let long = String(repeating: "é", count: 150)  // 300 bytes, 150 characters: kept whole
        #expect(SiteRenderer.shareSummary(long) == long)
        let longer = String(repeating: "word ", count: 60)
        #expect(SiteRenderer.shareSummary(longer).count == 200 && SiteRenderer.shareSummary(longer).hasSuffix("…"))
    }

    @Test func slugsAndURLs() {
        #expect(Slug.make("Léa 7", fallback: "x") == "lea-7")
        #expect(Slug.make("Kyoto & Osaka", fallback: "x") == "kyoto-osaka")
        #expect(Slug.make("<script>", fallback: "x") == "script")
        #expect(Slug.make("%2e%2e", fallback: "x") == "2e-2e")
        #expect(Slug.make("日本", fallback: "album") == "album")
        #expect(Slug.make(String(repeating: "long ", count: 50), fallback: "x").count <= 60)
        var uniquer = Slug.Uniquer()
        #expect([uniquer.claim("a"), uniquer.claim("a"), uniquer.claim("a")] == ["a", "a-2", "a-3"])
        #expect(URLPath.encodeSegment("a b#?%&\"<") == "a%20b%23%3F%25%26%22%3C")
        #expect(URLPath.relative(from: "albums/a/index.html", to: "media/x/y.webp") == "../../media/x/y.webp")
        #expect(URLPath.relative(from: "albums/a/index.html", to: "albums/a/p.html") == "p.html")
        #expect(URLPath.relative(from: "index.html", to: "albums/b/index.html") == "albums/b/index.html")
        #expect(URLPath.relative(from: "albums/a/b/index.html", to: "index.html") == "../../../index.html")
        #expect(URLPath.relative(from: "albums/Été 2024/index.html", to: "albums/Été 2024/p 1.html") == "p%201.html")
        // Names are compared as the file system compares them: bytes. The
        // same word in decomposed form (e + combining acute) is another folder.
        #expect(URLPath.relative(from: "albums/E\u{301}te\u{301}/index.html", to: "albums/\u{C9}t\u{E9}/p.html")
            == "../%C3%89t%C3%A9/p.html")
    }

    @Test func machineDates() {
        #expect(HumanDate.machine(CaptureDate(exif: "2024:03:10 23:30:05", offset: "-05:00", source: .original)!) == "2024-03-10T23:30:05-05:00")
    }

    @Test func hostileTextIsEscapedEverywhere() throws {
        let evil = "<script>alert('x')</script>\"&"
        let photo = samplePhoto("\(evil)/\(evil).jpg", "2024:01:01 10:00:00")
        var settings = AlbumSettings(title: evil, description: "<img src=x onerror=alert(1)> [a](javascript:alert(1))")
        settings.cover = "\(evil).jpg"
        let album = AlbumPath(components: [evil])
        let gallery = Gallery.assemble(title: evil, photos: [photo], sidecars: [album: settings])
        let renderer = SiteRenderer(theme: try Theme.load("default"), gallery: gallery, options: Settings())
        let pages = try renderer.pages()
        #expect(pages.count >= 4)  // home, albums (the "/" nests them), photo, moments
        for page in pages {
            #expect(!page.html.contains("<script>alert"), "\(page.path)")
            #expect(!page.html.contains("<img src=x"), "\(page.path)")
            #expect(!page.html.contains("javascript:"), "\(page.path)")
            #expect(page.path.allSatisfy { $0.isASCII && !"<>\"'&% ".contains($0) }, "\(page.path)")
        }
        let home = try #require(pages.first { $0.path == "index.html" })
        #expect(home.html.contains("&lt;script&gt;"))
    }

    @Test func themesFallBackToTheDefault() throws {
        let slate = try Theme.load("slate")
        let base = try Theme.load("default")
        #expect(slate.staticFiles["style.css"] == base.staticFiles["style.css"])
        #expect(slate.staticFiles["theme.css"] != base.staticFiles["theme.css"])
        #expect(slate.fingerprint != base.fingerprint)
        // A user theme folder overriding one template.
        let folder = try TemporaryFolder()
        try folder.write("mytheme/templates/foot.mustache", Array("<footer>MY FOOTER</footer></main></body></html>".utf8))
        try folder.write("mytheme/static/extra.css", Array("body{}".utf8))
        let custom = try Theme.load(folder.url.appendingPathComponent("mytheme").path)
        #expect(custom.staticFiles["extra.css"] != nil)
        #expect(custom.staticFiles["style.css"] == base.staticFiles["style.css"])
        let gallery = Gallery.assemble(title: "T", photos: [samplePhoto("a/b.jpg", nil)])
        let pages = try SiteRenderer(theme: custom, gallery: gallery, options: Settings()).pages()
        #expect(pages.filter { $0.path.hasSuffix(".html") }.allSatisfy { $0.html.contains("MY FOOTER") })
        #expect(throws: ThemeError.self) { try Theme.load("no-such-theme") }
    }
}
