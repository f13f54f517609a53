/// Parses a template's text into `Mustache.Node`s, names split once (see `Mustache`).
struct Parser {
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
