/// The site's Mustache engine: templates parsed once when the theme loads,
/// rendered against `TemplateValue`s (what `TemplateContext` makes of a page
/// model) into bytes.
///
/// It replaced a general Mustache library whose every lookup split the name,
/// boxed values as `Any` and asked the runtime whether they conformed to half
/// a dozen protocols: two thirds of the page step's time, 4 % of a whole
/// JPEG build. Names are split here when a template is parsed, values are a
/// small tree (`TemplateValue`), and a lookup is a dictionary read.
///
/// What a template can use: `{{name}}` (escaped for HTML), `{{{name}}}` and
/// `{{& name}}` (not escaped), dotted names (`{{back.url}}`), `{{.}}`,
/// sections `{{#name}}…{{/name}}` (a list repeats, `false`, an empty list or
/// an absent value skips, anything else is entered once) and inverted ones
/// `{{^name}}`, partials `{{> name}}` (indented when standalone), comments
/// `{{! … }}`, delimiter changes `{{=<% %>=}}`, and functions: inside a
/// list, `first()`, `last()`, `index()`, `even()` and `odd()` (`{{^last()}},
/// {{/last()}}`); on text `empty`, `lowercased`, `uppercased`, `capitalized`,
/// `reversed`; on a list `first`, `last`, `reversed`, `count`, `empty`; on a
/// number `even`, `odd`, `plusone`, `minusone`, `equalzero`
/// (`{{count(photos)}}`). Standalone lines (a section, comment, partial or
/// delimiter tag alone on its line) leave no trace, with the same rules, to
/// the byte, as the library before it, so themes written for it render the
/// same. Template inheritance (`{{< }}`, `{{$ }}`) and dynamic partials are
/// refused when the theme loads, with the template's name and line, and so
/// are sections nested past `deepest`; a page whose partials nest past it
/// (one that includes itself whatever the data) is not rendered.
enum Mustache {
    /// How deep sections may nest in one template, and (twice that) sections
    /// and partials together in a page: far past any page, and well inside
    /// the stack of the threads that render (a level is a few recursive calls).
    static let deepest = 64

    /// Why a template does not parse, and the line where it stopped.
    struct ParseError: Error, CustomStringConvertible {
        var reason: String
        var line: Int
        var description: String { "\(reason) (line \(line))" }
    }

    /// Why a page did not render.
    enum RenderError: Error, CustomStringConvertible {
        case noSuchTemplate
        /// Sections and partials inside one another past twice `deepest` (a
        /// partial that includes itself whatever the data), stopped before
        /// the stack runs out.
        case nestedTooDeep

        var description: String {
            switch self {
            case .noSuchTemplate: "no such template"
            case .nestedTooDeep: "sections and partials nest more than \(2 * Mustache.deepest) deep (does a partial include itself?)"
            }
        }
    }

    /// A parsed template.
    struct Template: Sendable {
        var nodes: [Node]
    }

    /// Templates by name: the pages and the partials they include.
    struct Library: Sendable {
        private var templates: [String: Template] = [:]

        /// Parses `text` and keeps it as `name`.
        mutating func register(_ text: String, named name: String) throws(ParseError) {
            templates[name] = try Parser.parse(text)
        }

        /// Template `name` rendered with `value` as its context.
        func render(_ value: TemplateValue, template name: String) throws(RenderError) -> String {
            guard let template = templates[name] else { throw .noSuchTemplate }
            var renderer = Renderer(library: self, stack: [value])
            renderer.out.reserveCapacity(16 << 10)
            renderer.render(template, sequence: nil, indentation: nil)
            if renderer.tooDeep { throw .nestedTooDeep }
            return String(decoding: renderer.out, as: UTF8.self)
        }

        func template(named name: String) -> Template? { templates[name] }
    }

    /// A piece of a parsed template. Stored as plain fields, not as an enum
    /// with payloads: Swift keeps an enum's case in spare bits of a payload's
    /// pointer (and boxes an indirect case), which hides those pointers from
    /// LeakSanitizer, so a theme alive when a signal ends the process was
    /// reported as leaked. `shape` is the enum, made when it is read.
    struct Node: Sendable {
        enum Shape {
            case text([UInt8])
            case value(Name, escaped: Bool)
            case section(Name, Template, inverted: Bool)
            /// `indentation` is the whitespace before a standalone partial.
            case partial(String, indentation: String?)
        }
        private enum Kind: Sendable { case text, value, section, partial }
        private let kind: Kind
        private let bytes: [UInt8]
        private let name: Name
        private let flag: Bool  // escaped, or inverted
        private let body: Template?
        private let partialName: String
        private let indentation: String?

        private init(_ kind: Kind, bytes: [UInt8] = [], name: Name = Name(root: .current, path: [], functions: []), flag: Bool = false,
                     body: Template? = nil, partialName: String = "", indentation: String? = nil) {
            (self.kind, self.bytes, self.name, self.flag) = (kind, bytes, name, flag)
            (self.body, self.partialName, self.indentation) = (body, partialName, indentation)
        }

        static func text(_ bytes: [UInt8]) -> Node { Node(.text, bytes: bytes) }
        static func value(_ name: Name, escaped: Bool) -> Node { Node(.value, name: name, flag: escaped) }
        static func section(_ name: Name, _ body: Template, inverted: Bool) -> Node { Node(.section, name: name, flag: inverted, body: body) }
        static func partial(_ name: String, indentation: String?) -> Node { Node(.partial, partialName: name, indentation: indentation) }

        var shape: Shape {
            switch kind {
            case .text: .text(bytes)
            case .value: .value(name, escaped: flag)
            case .section: .section(name, body ?? Template(nodes: []), inverted: flag)
            case .partial: .partial(partialName, indentation: indentation)
            }
        }
    }

    /// A tag's name: where its lookup starts, the dotted path, and the
    /// functions applied to what it finds (innermost last, as written).
    struct Name: Sendable, Equatable {
        enum Root: Sendable, Equatable {
            /// Searched from the innermost context outwards (`a.b`).
            case stack
            /// The innermost context only (`.`, `.a`).
            case current
            /// The position in the list being repeated (`last()`).
            case position
        }
        var root: Root
        var path: [String]
        var functions: [String]

        /// As written: `f(g(a.b))`, `last()`, `.`.
        var written: String {
            let core = root == .position ? "" : (root == .current ? "." : "") + path.joined(separator: ".")
            return functions.reversed().reduce(core) { "\($1)(\($0))" }
        }
    }

    /// Where a list's repetition is: what `first()`, `last()`, `index()`,
    /// `even()` and `odd()` read.
    struct Position {
        var index: Int
        var isLast: Bool

        func value(_ function: String) -> TemplateValue? {
            switch function {
            case "first": return .flag(index == 0)
            case "last": return .flag(isLast)
            case "index": return .integer(index)
            case "even": return .flag(index & 1 == 0)
            case "odd": return .flag(index & 1 == 1)
            default: return nil
            }
        }
    }
}

/// A value a template sees: what `TemplateContext` makes of a page model.
/// Plain fields rather than an enum with payloads, for LeakSanitizer (see
/// `Mustache.Node`); `shape` is the enum.
struct TemplateValue: Sendable {
    enum Shape {
        case text(String)
        case integer(Int)
        case number(Double)
        case flag(Bool)
        case list([TemplateValue])
        case object([String: TemplateValue])
    }
    private enum Kind: Sendable { case text, integer, number, flag, list, object }
    private let kind: Kind
    private let string: String
    private let whole: Int  // an integer, or a flag (0 or 1)
    private let real: Double
    private let items: [TemplateValue]
    private let members: [String: TemplateValue]

    private init(_ kind: Kind, string: String = "", whole: Int = 0, real: Double = 0, items: [TemplateValue] = [],
                 members: [String: TemplateValue] = [:]) {
        (self.kind, self.string, self.whole, self.real, self.items, self.members) = (kind, string, whole, real, items, members)
    }

    static func text(_ text: String) -> TemplateValue { TemplateValue(.text, string: text) }
    static func integer(_ number: Int) -> TemplateValue { TemplateValue(.integer, whole: number) }
    static func number(_ number: Double) -> TemplateValue { TemplateValue(.number, real: number) }
    static func flag(_ flag: Bool) -> TemplateValue { TemplateValue(.flag, whole: flag ? 1 : 0) }
    static func list(_ items: [TemplateValue]) -> TemplateValue { TemplateValue(.list, items: items) }
    static func object(_ members: [String: TemplateValue]) -> TemplateValue { TemplateValue(.object, members: members) }

    var shape: Shape {
        switch kind {
        case .text: .text(string)
        case .integer: .integer(whole)
        case .number: .number(real)
        case .flag: .flag(whole != 0)
        case .list: .list(items)
        case .object: .object(members)
        }
    }

    /// An object's member (nil for anything else).
    subscript(member key: String) -> TemplateValue? {
        kind == .object ? members[key] : nil
    }

    /// The value a function makes of this one, or nil (nothing renders).
    func applying(_ function: String) -> TemplateValue? {
        switch shape {
        case .text(let text):
            switch function {
            case "empty": return .flag(text.isEmpty)
            case "lowercased": return .text(text.lowercased())
            case "uppercased": return .text(text.uppercased())
            case "capitalized": return .text(Self.capitalized(text))
            case "reversed": return .text(String(text.reversed()))
            default: return nil
            }
        case .list(let items):
            switch function {
            case "first": return items.first
            case "last": return items.last
            case "reversed": return .list(items.reversed())
            case "count": return .integer(items.count)
            case "empty": return .flag(items.isEmpty)
            default: return nil
            }
        case .integer(let number):
            switch function {
            case "even": return .flag(number & 1 == 0)
            case "odd": return .flag(number & 1 == 1)
            case "plusone": return .integer(number &+ 1)
            case "minusone": return .integer(number &- 1)
            case "equalzero": return .flag(number == 0)
            default: return nil
            }
        case .number, .flag, .object:
            return nil
        }
    }

    /// Each word's first letter upper-cased, the rest lower-cased.
    private static func capitalized(_ text: String) -> String {
        var out = ""
        var startOfWord = true
        for character in text {
            out += startOfWord ? character.uppercased() : character.lowercased()
            startOfWord = character.isWhitespace
        }
        return out
    }
}
