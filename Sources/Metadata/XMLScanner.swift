/// A small, forgiving XML reader for XMP packets. Foundation's XMLParser is
/// not used: on Linux it traps inside its element callback on some hostile
/// packets (found by FuzzMetadata) and leaks on every parse error.
///
/// It reads elements, attributes, text, CDATA and the five named and numeric
/// character references; comments, processing instructions and DOCTYPE
/// declarations are skipped, so no entity is ever defined or expanded
/// (nothing external is read, no "billion laughs"). Namespace prefixes are
/// resolved through `xmlns` declarations in scope. Broken markup ends the
/// walk where it breaks; what came before counts. Depth and attribute counts
/// are bounded.
struct XMLScanner {
    /// What the scanner reports.
    enum Event {
        case start(namespace: String, name: String, attributes: [String: String])
        case text(String)
        case end(namespace: String, name: String)
    }

    static let maximumDepth = 256
    static let maximumAttributes = 1000

    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Walks the document, calling `emit` for each element, text run and end.
    static func scan(_ bytes: [UInt8], _ emit: (Event) -> Void) {
        var scanner = XMLScanner(bytes)
        scanner.run(emit)
    }

    private func starts(_ text: String, at index: Int) -> Bool {
        let ascii = Array(text.utf8)
        guard index + ascii.count <= bytes.count else { return false }
        return bytes[index..<(index + ascii.count)].elementsEqual(ascii)
    }

    private func find(_ text: String, from index: Int) -> Int? {
        let ascii = Array(text.utf8)
        var i = index
        while i + ascii.count <= bytes.count {
            if bytes[i] == ascii[0], bytes[i..<(i + ascii.count)].elementsEqual(ascii) { return i }
            i += 1
        }
        return nil
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
    private static func isNameByte(_ b: UInt8) -> Bool {
        !isSpace(b) && b != UInt8(ascii: "=") && b != UInt8(ascii: ">") && b != UInt8(ascii: "/") && b != UInt8(ascii: "<")
            && b != UInt8(ascii: "\"") && b != UInt8(ascii: "'")
    }

    private mutating func run(_ emit: (Event) -> Void) {
        var scopes: [[String: String]] = [["xml": "http://www.w3.org/XML/1998/namespace"]]
        var open: [(qualified: String, namespace: String, name: String)] = []
        func resolve(_ qualified: String) -> (String, String) {
            let parts = qualified.split(separator: ":", maxSplits: 1).map(String.init)
            let (prefix, name) = parts.count == 2 ? (parts[0], parts[1]) : ("", qualified)
            for scope in scopes.reversed() { if let uri = scope[prefix] { return (uri, name) } }
            return ("", name)
        }
        while offset < bytes.count {
            if bytes[offset] != UInt8(ascii: "<") {
                let end = bytes[offset...].firstIndex(of: UInt8(ascii: "<")) ?? bytes.count
                emit(.text(Self.decodeReferences(String(decoding: bytes[offset..<end], as: UTF8.self))))
                offset = end
                continue
            }
            if starts("<!--", at: offset) {
                guard let end = find("-->", from: offset + 4) else { return }
                offset = end + 3
            } else if starts("<![CDATA[", at: offset) {
                guard let end = find("]]>", from: offset + 9) else { return }
                emit(.text(String(decoding: bytes[(offset + 9)..<end], as: UTF8.self)))
                offset = end + 3
            } else if starts("<?", at: offset) {
                guard let end = find("?>", from: offset + 2) else { return }
                offset = end + 2
            } else if starts("<!", at: offset) {
                // DOCTYPE and other declarations, internal subset included: skipped whole.
                guard let close = bytes[offset...].firstIndex(of: UInt8(ascii: ">")) else { return }
                if let bracket = bytes[offset..<close].firstIndex(of: UInt8(ascii: "[")) {
                    guard let end = find("]", from: bracket), let after = bytes[end...].firstIndex(of: UInt8(ascii: ">")) else { return }
                    offset = after + 1
                } else {
                    offset = close + 1
                }
            } else if starts("</", at: offset) {
                guard let close = bytes[offset...].firstIndex(of: UInt8(ascii: ">")) else { return }
                let qualified = String(decoding: bytes[(offset + 2)..<close], as: UTF8.self).trimmingSpaces
                offset = close + 1
                // Close up to the matching element; a stray end tag is ignored.
                guard let index = open.lastIndex(where: { $0.qualified == qualified }) else { continue }
                while open.count > index {
                    let element = open.removeLast()
                    scopes.removeLast()
                    emit(.end(namespace: element.namespace, name: element.name))
                }
            } else {
                guard let tag = readStartTag() else { return }
                var scope: [String: String] = [:]
                for (key, value) in tag.attributes {
                    if key == "xmlns" { scope[""] = value } else if key.hasPrefix("xmlns:") { scope[String(key.dropFirst(6))] = value }
                }
                guard open.count < Self.maximumDepth else { return }
                scopes.append(scope)
                let (namespace, name) = resolve(tag.name)
                emit(.start(namespace: namespace, name: name, attributes: tag.attributes))
                if tag.selfClosing {
                    scopes.removeLast()
                    emit(.end(namespace: namespace, name: name))
                } else {
                    open.append((tag.name, namespace, name))
                }
            }
        }
    }

    /// Reads `<name attr="value" …>` or `…/>` at `offset`; nil when broken.
    private mutating func readStartTag() -> (name: String, attributes: [String: String], selfClosing: Bool)? {
        var i = offset + 1
        let nameStart = i
        while i < bytes.count, Self.isNameByte(bytes[i]) { i += 1 }
        guard i > nameStart else { return nil }
        let name = String(decoding: bytes[nameStart..<i], as: UTF8.self)
        var attributes: [String: String] = [:]
        while true {
            while i < bytes.count, Self.isSpace(bytes[i]) { i += 1 }
            guard i < bytes.count else { return nil }
            if bytes[i] == UInt8(ascii: ">") {
                offset = i + 1
                return (name, attributes, false)
            }
            if bytes[i] == UInt8(ascii: "/") {
                guard i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: ">") else { return nil }
                offset = i + 2
                return (name, attributes, true)
            }
            let keyStart = i
            while i < bytes.count, Self.isNameByte(bytes[i]) { i += 1 }
            guard i > keyStart else { return nil }
            let key = String(decoding: bytes[keyStart..<i], as: UTF8.self)
            while i < bytes.count, Self.isSpace(bytes[i]) { i += 1 }
            guard i < bytes.count, bytes[i] == UInt8(ascii: "=") else { return nil }
            i += 1
            while i < bytes.count, Self.isSpace(bytes[i]) { i += 1 }
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") else { return nil }
            let quote = bytes[i]
            guard let close = bytes[(i + 1)...].firstIndex(of: quote) else { return nil }
            if attributes.count < Self.maximumAttributes {
                attributes[key] = Self.decodeReferences(String(decoding: bytes[(i + 1)..<close], as: UTF8.self))
            }
            i = close + 1
        }
    }

    /// `&amp;` `&lt;` `&gt;` `&quot;` `&apos;` `&#N;` `&#xH;`; anything else stays as written.
    static func decodeReferences(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            guard let semicolon = after.prefix(12).firstIndex(of: ";") else {
                result += "&"
                rest = after
                continue
            }
            let name = after[..<semicolon]
            var replacement: String?
            switch name {
            case "amp": replacement = "&"
            case "lt": replacement = "<"
            case "gt": replacement = ">"
            case "quot": replacement = "\""
            case "apos": replacement = "'"
            default:
                if name.hasPrefix("#x") || name.hasPrefix("#X") {
                    replacement = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
                } else if name.hasPrefix("#") {
                    replacement = UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
                }
            }
            if let replacement {
                result += replacement
                rest = after[after.index(after: semicolon)...]
            } else {
                result += "&"
                rest = after
            }
        }
        return result + rest
    }
}

private extension String {
    var trimmingSpaces: String {
        var text = Substring(self)
        while let first = text.first, first.isWhitespace { text = text.dropFirst() }
        while let last = text.last, last.isWhitespace { text = text.dropLast() }
        return String(text)
    }
}
