import Testing
import GalleryTestSupport
@testable import Rendering

/// The site's own Mustache engine. The expected outputs were made by the
/// library it replaced (swift-mustache 2, every template and partial below
/// rendered by both and compared), so themes written for that library,
/// standalone-line and partial-indentation rules included, render the same.
@Suite struct MustacheTests {
    static let partials: [String: String] = [
        "p1": "<li>{{title}}</li>\n",
        "p2": "line1\n  {{#items}}\n  <i>{{title}}</i>\n  {{/items}}\nend\n",
        "p3": "{{name}}",
        "p4": "a\n{{> p2}}\nb\n",
        "p5": "{{#yes}}\n  y1\n  y2\n{{/yes}}\n",
    ]

    @Test func rendersAsTheLibraryBeforeIt() throws {
        let context: TemplateValue = .object([
            "name": .text("Ann & <Bob> \"q\" 'x'"), "empty": .text(""), "zero": .integer(0), "n": .integer(7), "yes": .flag(true), "no": .flag(false),
            "items": .list([.object(["title": .text("a"), "url": .text("u1")]), .object(["title": .text("b")]), .object(["title": .text("c"), "url": .text("u3")])]),
            "none": .list([]), "words": .list([.text("x"), .text("y")]),
            "back": .object(["url": .text("../"), "title": .text("Back"), "deep": .object(["x": .text("deep")])]),
            "html": .text("<b>bold</b>"),
            "nested": .list([.object(["inner": .list([.object(["v": .integer(1)]), .object(["v": .integer(2)])])]), .object(["inner": .list([])])]),
        ])
        let partials: [String: String] = [
            "p1": "<li>{{title}}</li>\n",
            "p2": "line1\n  {{#items}}\n  <i>{{title}}</i>\n  {{/items}}\nend\n",
            "p3": "{{name}}",
            "p4": "a\n{{> p2}}\nb\n",
            "p5": "{{#yes}}\n  y1\n  y2\n{{/yes}}\n",
        ]
        // (template, output); "ERROR" where the template does not parse.
        let cases: [(String, String)] = [
            ("Hello {{name}}!", "Hello Ann &amp; &lt;Bob&gt; &quot;q&quot; &#39;x&#39;!"),
            ("{{{name}}} {{& name}}", "Ann & <Bob> \"q\" \'x\' Ann & <Bob> \"q\" \'x\'"),
            ("{{#yes}}Y{{/yes}}{{#no}}N{{/no}}{{^no}}notN{{/no}}{{^yes}}notY{{/yes}}", "YnotN"),
            ("{{#items}}{{title}}{{^last()}}, {{/last()}}{{/items}}", "a, b, c"),
            ("{{#items}}{{#first()}}[{{/first()}}{{index()}}{{#even()}}e{{/even()}}{{#odd()}}o{{/odd()}}{{/items}}", "[0e1o2e"),
            ("{{#items}}{{#url}}<a href=\"{{url}}\">{{title}}</a>{{/url}}{{^url}}{{title}}{{/url}}{{/items}}", "<a href=\"u1\">a</a>b<a href=\"u3\">c</a>"),
            ("{{back.url}}|{{back.deep.x}}|{{back.missing.x}}|{{#back}}{{title}}-{{name}}{{/back}}", "../|deep||Back-Ann &amp; &lt;Bob&gt; &quot;q&quot; &#39;x&#39;"),
            ("{{#empty}}E[{{.}}]{{/empty}}{{^empty}}notE{{/empty}}{{#zero}}Z{{.}}{{/zero}}{{^zero}}notZ{{/zero}}{{n}}", "E[]Z07"),
            ("{{#none}}x{{/none}}{{^none}}no items{{/none}}{{#missing}}m{{/missing}}{{^missing}}M{{/missing}}", "no itemsM"),
            ("{{#words}}<{{.}}>{{/words}}", "<x><y>"),
            ("a\n{{#yes}}\nb\n{{/yes}}\nc\n", "a\nb\nc\n"),
            ("a\n  {{#yes}}  \n  b\n  {{/yes}}\nc", "a\n  b\nc"),
            ("  {{#no}}\nb\n{{/no}}\nc\n", "c\n"),
            ("x {{#yes}}\ny\n{{/yes}} z\n", "x \ny\n z\n"),
            ("{{! comment }}\na\n  {{! standalone }}  \nb {{! inline }} c\n", "a\nb  c\n"),
            ("a\n{{> p1}}\nb\n", "a\n<li></li>\nb\n"),
            ("<ul>\n  {{> p1}}\n</ul>\n", "<ul>\n  <li></li>\n</ul>\n"),
            ("<div>\n  {{> p2}}\n</div>\n", "<div>\n  line1\n    <i>a</i>\n  <i>b</i>\n  <i>c</i>\n  end\n</div>\n"),
            ("<div>\n    {{> p4}}\n</div>\n", "<div>\n    a\n    line1\n      <i>a</i>\n  <i>b</i>\n  <i>c</i>\n    end\n    b\n</div>\n"),
            ("  {{> p3}}\n", "  Ann &amp; &lt;Bob&gt; &quot;q&quot; &#39;x&#39;"),
            ("x {{> p3}} y\n", "x Ann &amp; &lt;Bob&gt; &quot;q&quot; &#39;x&#39; y\n"),
            ("  {{> p5}}\n", "    y1\n    y2\n"),
            ("{{#items}}\n  {{> p1}}\n{{/items}}\n", "  <li>a</li>\n  <li>b</li>\n  <li>c</li>\n"),
            ("{{=<% %>=}}\n<% name %> {{name}}\n<%={{ }}=%>{{n}}\n", "Ann &amp; &lt;Bob&gt; &quot;q&quot; &#39;x&#39; {{name}}\n7\n"),
            ("a\r\n{{#yes}}\r\nb\r\n{{/yes}}\r\nc", "a\r\nb\r\nc"),
            ("{{#nested}}\n[{{#inner}}{{v}}{{^last()}},{{/last()}}{{/inner}}{{^inner}}none{{/inner}}]\n{{/nested}}", "[1,2]\n[none]\n"),
            ("{{count(items)}} {{empty(none)}} {{uppercased(back.title)}} {{#first(items)}}{{title}}{{/first(items)}} {{plusone(n)}}", "3 true BACK a 8"),
            ("trailing  ", "trailing  "),
            ("  {{#yes}}", "ERROR"),
            ("{{#yes}}\n  {{#items}}\n    {{title}}\n  {{/items}}\n{{/yes}}\n", "    a\n    b\n    c\n"),
            ("{{#yes}}{{#items}}{{^last()}}L{{/last()}}{{/items}}{{/yes}}", "LL"),
            ("{{#items}}{{#yes}}{{^last()}}-{{/last()}}{{/yes}}{{/items}}", "--"),
            ("{{ name }}{{#items}}{{../title}}{{/items}}", "ERROR"),
            ("{{.name}} {{#back}}{{.title}}{{.name}}{{/back}}", "Ann &amp; &lt;Bob&gt; &quot;q&quot; &#39;x&#39; Back"),
            ("{{html}} {{{html}}}", "&lt;b&gt;bold&lt;/b&gt; <b>bold</b>"),
            ("{{#items}}\n{{title}}\n{{/items}}", "a\nb\nc\n"),
            ("  {{^no}}  \n    x\n  {{/no}}  \n", "    x\n"),
            ("a {{^no}}\nb\n{{/no}}\n", "a \nb\n"),
        ]
        for (text, expected) in cases {
            var library = Mustache.Library()
            for (name, partial) in Self.partials { try library.register(partial, named: name) }
            let rendered: String?
            do {
                try library.register(text, named: "t")
                rendered = try library.render(context, template: "t")
            } catch {
                rendered = "ERROR"
            }
            #expect(rendered == expected, "template \(text.debugDescription)")
        }
    }

    @Test func missingTemplatesAndPartials() throws {
        var library = Mustache.Library()
        try library.register("[{{> nowhere}}]", named: "page")
        #expect(try library.render(.object([:]), template: "page") == "[]")
        #expect(throws: Mustache.RenderError.self) { try library.render(.object([:]), template: "absent") }
    }

    /// A partial that includes itself whatever the data stops the page with
    /// a reason, not the process; one that recurses through the data renders.
    @Test func recursivePartials() throws {
        var library = Mustache.Library()
        try library.register("<{{> loop}}>", named: "loop")
        try library.register("{{name}}{{#children}}({{> tree}}){{/children}}", named: "tree")
        #expect {
            try library.render(.object([:]), template: "loop")
        } throws: { error in
            (error as? Mustache.RenderError)?.description.contains("include itself") == true
        }
        func node(_ name: String, _ children: [TemplateValue]) -> TemplateValue {
            .object(["name": .text(name), "children": .list(children)])
        }
        let tree = node("a", [node("b", [node("c", [])]), node("d", [])])
        #expect(try library.render(tree, template: "tree") == "a(b(c))(d)")
    }

    /// Sections nest as deep as `Mustache.deepest` (every one entered, on
    /// a test's thread); one more is refused when the template is parsed,
    /// with the reason, where unbounded recursion would overflow the stack.
    @Test func deeplyNestedSections() throws {
        func nested(_ depth: Int) -> String { String(repeating: "{{#a}}", count: depth) + "x" + String(repeating: "{{/a}}", count: depth) }
        var library = Mustache.Library()
        try library.register(nested(Mustache.deepest), named: "deep")
        #expect(try library.render(.object(["a": .flag(true)]), template: "deep") == "x")
        #expect {
            try library.register(nested(Mustache.deepest + 1), named: "deeper")
        } throws: { error in
            (error as? Mustache.ParseError)?.description.contains("nest more than \(Mustache.deepest) deep") == true
        }
        #expect(throws: Mustache.ParseError.self) { try library.register(nested(100_000), named: "hostile") }
    }

    @Test func parseErrorsSayWhereAndWhy() {
        let broken: [(String, String)] = [
            ("a\n{{#open}}\nb", "never closed"),
            ("{{#f(g(a.b))}}", "'f(g(a.b))' is never closed"),
            ("{{^last()}}", "'last()' is never closed"),
            ("{{/close}}", "never opened"),
            ("{{#a}}{{/b}}", "another name"),
            ("{{a b}}", "not followed by }}"),
            ("{{! comment", "comment is not closed"),
            ("{{{raw}}", "not closed by }}}"),
            ("{{f(a}}", "not a name"),
            ("{{=<% }}", "delimiter change"),
            ("{{< base}}{{/base}}", "inheritance"),
            ("{{% OTHER: x }}", "pragma"),
        ]
        for (text, reason) in broken {
            var library = Mustache.Library()
            #expect(throws: Mustache.ParseError.self, "\(text)") { try library.register(text, named: "t") }
            do {
                try library.register(text, named: "t")
            } catch {
                #expect(error.description.contains(reason), "\(text): \(error.description)")
                #expect(error.description.contains("line "), "\(text): \(error.description)")
            }
        }
    }

    @Test func aThemeWithABrokenTemplateIsRefusedByName() throws {
        let folder = try TemporaryFolder()
        try folder.write("templates/photo.mustache", Array("{{#photo}}unclosed".utf8))
        #expect {
            _ = try Theme.load(folder.url.path)
        } throws: { error in
            guard let error = error as? ThemeError, case .badTemplate(let name, let reason) = error else { return false }
            return name == "photo" && reason.contains("never closed")
        }
    }
}
