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
        fileprivate var nodes: [Node]
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

        fileprivate func template(named name: String) -> Template? { templates[name] }
    }

    /// A piece of a parsed template. Stored as plain fields, not as an enum
    /// with payloads: Swift keeps an enum's case in spare bits of a payload's
    /// pointer (and boxes an indirect case), which hides those pointers from
    /// LeakSanitizer, so a theme alive when a signal ends the process was
    /// reported as leaked. `shape` is the enum, made when it is read.
    fileprivate struct Node: Sendable {
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
    fileprivate struct Name: Sendable, Equatable {
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
    fileprivate struct Position {
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
    fileprivate func applying(_ function: String) -> TemplateValue? {
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

// MARK: - Rendering

private struct Renderer {
    let library: Mustache.Library
    /// The contexts, outermost first.
    var stack: [TemplateValue]
    var out: [UInt8] = []
    /// Templates (section bodies, partials) being rendered inside one
    /// another, and whether that went past `Mustache.deepest`.
    var depth = 0
    var tooDeep = false

    /// Renders `template`'s nodes. With an `indentation` (a standalone
    /// partial's, inherited by what it includes), a node that writes
    /// something where this template's own output so far ends a line is
    /// indented first — per node and per rendering of a template (a
    /// section's body counts its own output), the rule the old library
    /// followed, so pages stay byte for byte what they were.
    mutating func render(_ template: Mustache.Template, sequence: Mustache.Position?, indentation: String?) {
        guard !tooDeep else { return }
        guard depth <= 2 * Mustache.deepest else {
            tooDeep = true
            return
        }
        depth += 1
        defer { depth -= 1 }
        guard let indentation, !indentation.isEmpty else {
            for node in template.nodes { render(node.shape, sequence: sequence, indentation: indentation) }
            return
        }
        let start = out.count
        for node in template.nodes {
            let before = out.count
            let atLineStart = before > start && out[before - 1] == UInt8(ascii: "\n")
            render(node.shape, sequence: sequence, indentation: indentation)
            if atLineStart && out.count > before {
                out.insert(contentsOf: indentation.utf8, at: before)
            }
        }
    }

    private mutating func render(_ node: Mustache.Node.Shape, sequence: Mustache.Position?, indentation: String?) {
        switch node {
        case .text(let bytes):
            out.append(contentsOf: bytes)
        case .value(let name, let escaped):
            guard let value = lookUp(name, sequence: sequence) else { return }
            switch value.shape {
            case .text(let text): escaped ? HTML.appendEscaped(text, to: &out) : out.append(contentsOf: text.utf8)
            case .integer(let number): out.append(contentsOf: String(number).utf8)
            case .number(let number): out.append(contentsOf: String(describing: number).utf8)
            case .flag(let flag): out.append(contentsOf: (flag ? "true" : "false").utf8)
            case .list, .object: break
            }
        case .section(let name, let body, inverted: false):
            let found = lookUp(name, sequence: sequence)
            switch found?.shape {
            case .none, .flag(false)?:
                break
            case .flag(true)?:
                render(body, sequence: sequence, indentation: indentation)
            case .list(let items)?:
                for (index, item) in items.enumerated() {
                    stack.append(item)
                    render(body, sequence: Mustache.Position(index: index, isLast: index == items.count - 1), indentation: indentation)
                    stack.removeLast()
                }
            case .text, .integer, .number, .object:
                stack.append(found!)
                render(body, sequence: nil, indentation: indentation)
                stack.removeLast()
            }
        case .section(let name, let body, inverted: true):
            switch lookUp(name, sequence: sequence)?.shape {
            case .none, .flag(false)?:
                render(body, sequence: sequence, indentation: indentation)
            case .list(let items)? where items.isEmpty:
                stack.append(.list(items))
                render(body, sequence: nil, indentation: indentation)
                stack.removeLast()
            default:
                break
            }
        case .partial(let name, let indented):
            guard let template = library.template(named: name) else { return }
            let inner = indented.map { (indentation ?? "") + $0 } ?? indentation
            render(template, sequence: nil, indentation: inner)
        }
    }

    /// What `name` stands for here, or nil.
    private func lookUp(_ name: Mustache.Name, sequence: Mustache.Position?) -> TemplateValue? {
        var functions = name.functions[...]
        var found: TemplateValue?
        switch name.root {
        case .position:
            guard let sequence, let innermost = functions.popLast() else { return nil }
            found = sequence.value(innermost)
        case .current:
            found = follow(name.path[...], from: stack.last)
        case .stack:
            guard let first = name.path.first else { return nil }
            for context in stack.reversed() {
                if let child = context[member: first] {
                    found = follow(name.path.dropFirst(), from: child)
                    break
                }
            }
        }
        while let function = functions.popLast() {
            guard let value = found else { return nil }
            found = value.applying(function)
        }
        return found
    }

    private func follow(_ path: ArraySlice<String>, from value: TemplateValue?) -> TemplateValue? {
        var current = value
        for key in path {
            current = current?[member: key]
        }
        return current
    }
}

// MARK: - Parsing

private struct Parser {
    let bytes: [UInt8]
    var position = 0

    /// What a template being parsed is inside of, and how its tags are written.
    struct State {
        var sectionName: Mustache.Name?
        /// Sections open around this one.
        var depth = 0
        /// At the start of a line, or after a standalone tag.
        var newLine = true
        var open: [UInt8] = Array("{{".utf8)
        var close: [UInt8] = Array("}}".utf8)
    }

    static func parse(_ text: String) throws(Mustache.ParseError) -> Mustache.Template {
        var parser = Parser(bytes: Array(text.utf8))
        return try parser.parse(State())
    }

    var atEnd: Bool { position >= bytes.count }
    var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    func error(_ reason: String) -> Mustache.ParseError {
        Mustache.ParseError(reason: reason, line: 1 + bytes[..<min(position, bytes.count)].count(where: { $0 == UInt8(ascii: "\n") }))
    }

    static func isNewline(_ byte: UInt8?) -> Bool { byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") }
    static func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
    static func isWhitespace(_ byte: UInt8) -> Bool { isSpace(byte) || isNewline(byte) || byte == 0x0B || byte == 0x0C }

    /// The newline at `position` (`\r\n` counts as one), consumed.
    mutating func readNewline() -> ArraySlice<UInt8> {
        let start = position
        if bytes[position] == UInt8(ascii: "\r"), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "\n") {
            position += 2
        } else {
            position += 1
        }
        return bytes[start..<position]
    }

    mutating func read(while accept: (UInt8) -> Bool) -> ArraySlice<UInt8> {
        let start = position
        while position < bytes.count, accept(bytes[position]) { position += 1 }
        return bytes[start..<position]
    }

    func starts(with literal: [UInt8]) -> Bool {
        position + literal.count <= bytes.count && bytes[position..<position + literal.count].elementsEqual(literal)
    }

    mutating func read(_ literal: [UInt8]) -> Bool {
        guard starts(with: literal) else { return false }
        position += literal.count
        return true
    }

    /// Text up to the next opening delimiter (consumed) or newline (not), or the end.
    mutating func readText(_ state: State) -> ArraySlice<UInt8> {
        let start = position
        while position < bytes.count {
            if Self.isNewline(bytes[position]) { return bytes[start..<position] }
            if bytes[position] == state.open[0], starts(with: state.open) {
                let text = bytes[start..<position]
                position += state.open.count
                return text
            }
            position += 1
        }
        return bytes[start..<position]
    }

    /// Only spaces and tabs, then a newline, to the end of the line: consumed
    /// with the newline. At the very end of the template, true (with nothing
    /// after the tag, not even spaces).
    mutating func lineFinished() -> Bool {
        if atEnd { return true }
        var probe = self
        _ = probe.read(while: Self.isSpace)
        guard Self.isNewline(probe.current) else { return false }
        _ = probe.readNewline()
        position = probe.position
        return true
    }

    mutating func standalone(_ state: State) -> Bool { state.newLine && lineFinished() }

    /// What a name may hold: letters, digits and `.-_?()*` (a partial's also `/`).
    static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "?"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"):
            return true
        default:
            return false
        }
    }

    /// A tag's name and its closing delimiter.
    mutating func readName(_ state: State) throws(Mustache.ParseError) -> Mustache.Name {
        _ = read(while: Self.isWhitespace)
        let text = read(while: Self.isNameByte)
        _ = read(while: Self.isWhitespace)
        guard read(state.close) else { throw error("a tag's name is not followed by \(String(decoding: state.close, as: UTF8.self))") }
        guard let name = Self.name(text) else { throw error("'\(String(decoding: text, as: UTF8.self))' is not a name or a function of one") }
        return name
    }

    /// `a.b`, `.`, `.a`, `f(a)`, `f(g(a))`, `last()`, from a name's bytes
    /// (ASCII: `isNameByte` let nothing else in).
    static func name(_ text: ArraySlice<UInt8>) -> Mustache.Name? {
        let open = UInt8(ascii: "("), close = UInt8(ascii: ")"), dot = UInt8(ascii: ".")
        var functions: [String] = []
        var rest = text
        while let bracket = rest.firstIndex(of: open) {
            functions.append(String(decoding: rest[..<bracket], as: UTF8.self))
            rest = rest[(bracket + 1)...]
        }
        var closing = 0
        while closing < rest.count, rest[rest.endIndex - 1 - closing] == close { closing += 1 }
        guard closing == functions.count, !functions.contains(where: \.isEmpty) else { return nil }
        let core = rest.dropLast(closing)
        guard !core.contains(open), !core.contains(close) else { return nil }
        if core.isEmpty && !functions.isEmpty { return Mustache.Name(root: .position, path: [], functions: functions) }
        if core.isEmpty || core.elementsEqual([dot]) { return Mustache.Name(root: .current, path: [], functions: functions) }
        let path = core.split(separator: dot).map { String(decoding: $0, as: UTF8.self) }
        return Mustache.Name(root: core.first == dot ? .current : .stack, path: path, functions: functions)
    }

    mutating func readPartialName(_ state: State) throws(Mustache.ParseError) -> String {
        _ = read(while: Self.isWhitespace)
        let text = String(decoding: read(while: { Self.isNameByte($0) || $0 == UInt8(ascii: "/") }), as: UTF8.self)
        _ = read(while: Self.isWhitespace)
        guard read(state.close) else { throw error("a partial's name is not followed by \(String(decoding: state.close, as: UTF8.self))") }
        return text
    }

    /// The nodes up to the end of the template, or up to the close of the
    /// section `state` is in. Whitespace at the start of a line is held back
    /// until it is known whether a standalone tag follows it.
    mutating func parse(_ initial: State) throws(Mustache.ParseError) -> Mustache.Template {
        var state = initial
        var nodes: [Mustache.Node] = []
        var whitespaceBefore: ArraySlice<UInt8> = []
        func flushWhitespace() {
            if !whitespaceBefore.isEmpty { nodes.append(.text(Array(whitespaceBefore))) }
            whitespaceBefore = []
        }
        while !atEnd {
            if state.newLine { whitespaceBefore = read(while: Self.isSpace) }
            let text = readText(state)
            if Self.isNewline(current) {
                nodes.append(.text(Array(whitespaceBefore) + Array(text) + Array(readNewline())))
                state.newLine = true
                continue
            }
            if !text.isEmpty {
                nodes.append(.text(Array(whitespaceBefore) + Array(text)))
                whitespaceBefore = []
                state.newLine = false
            }
            guard let kind = current else { break }
            var setNewLine = false
            switch kind {
            case UInt8(ascii: "#"), UInt8(ascii: "^"):
                position += 1
                let name = try readName(state)
                if standalone(state) { setNewLine = true } else { flushWhitespace() }
                guard state.depth < Mustache.deepest else { throw error("sections nest more than \(Mustache.deepest) deep") }
                var inner = state
                inner.sectionName = name
                inner.depth += 1
                if !setNewLine { inner.newLine = false }
                let body = try parse(inner)
                nodes.append(.section(name, body, inverted: kind == UInt8(ascii: "^")))
            case UInt8(ascii: "/"):
                position += 1
                let name = try readName(state)
                guard let open = state.sectionName, open == name else {
                    throw error(state.sectionName == nil ? "a section is closed that was never opened" : "a section is closed under another name")
                }
                if !standalone(state) { flushWhitespace() }
                return Mustache.Template(nodes: nodes)
            case UInt8(ascii: "!"):
                position += 1
                while !atEnd, !starts(with: state.close) { position += 1 }
                guard read(state.close) else { throw error("a comment is not closed") }
                setNewLine = standalone(state)
            case UInt8(ascii: "{"):
                flushWhitespace()
                position += 1
                let name = try readName(state)
                guard read([UInt8(ascii: "}")]) else { throw error("a {{{ tag is not closed by }}}") }
                nodes.append(.value(name, escaped: false))
            case UInt8(ascii: "&"):
                flushWhitespace()
                position += 1
                nodes.append(.value(try readName(state), escaped: false))
            case UInt8(ascii: ">"):
                position += 1
                _ = read(while: Self.isWhitespace)
                if current == UInt8(ascii: "*") { throw error("dynamic partials (>*) are not supported") }
                let name = try readPartialName(state)
                let indentation = String(decoding: whitespaceBefore, as: UTF8.self)
                flushWhitespace()
                if standalone(state) {
                    setNewLine = true
                    nodes.append(.partial(name, indentation: indentation))
                } else {
                    nodes.append(.partial(name, indentation: nil))
                }
            case UInt8(ascii: "<"), UInt8(ascii: "$"):
                throw error("template inheritance ({{< }}, {{$ }}) is not supported")
            case UInt8(ascii: "="):
                position += 1
                _ = read(while: Self.isWhitespace)
                let open = read(while: { !Self.isWhitespace($0) })
                _ = read(while: Self.isWhitespace)
                let close = read(while: { !Self.isWhitespace($0) && $0 != UInt8(ascii: "=") })
                _ = read(while: Self.isWhitespace)
                guard !open.isEmpty, !close.isEmpty, read([UInt8(ascii: "=")]), read(state.close) else {
                    throw error("a delimiter change is not written {{=<open> <close>=}}")
                }
                state.open = Array(open)
                state.close = Array(close)
                setNewLine = standalone(state)
            case UInt8(ascii: "%"):
                // A pragma: `CONTENT_TYPE: …` chose the old library's escaping;
                // every value here is escaped for HTML, so it is read and left.
                position += 1
                _ = read(while: Self.isWhitespace)
                let key = read(while: Self.isNameByte)
                _ = read(while: Self.isWhitespace)
                guard String(decoding: key, as: UTF8.self) == "CONTENT_TYPE", read([UInt8(ascii: ":")]) else {
                    throw error("the only pragma is {{% CONTENT_TYPE: … }}")
                }
                _ = read(while: Self.isWhitespace)
                _ = read(while: Self.isNameByte)
                _ = read(while: Self.isWhitespace)
                guard read(state.close) else { throw error("a pragma is not closed") }
                setNewLine = standalone(state)
            default:
                flushWhitespace()
                nodes.append(.value(try readName(state), escaped: true))
            }
            state.newLine = setNewLine
        }
        if let open = initial.sectionName {
            throw error("section '\(open.written)' is never closed")
        }
        return Mustache.Template(nodes: nodes)
    }
}
