import GalleryCore
import Yams

/// Walks a YAML mapping with typed accessors that fail with the key and line.
struct YAMLReader {
    let file: String

    /// Parses the text into its top-level mapping (empty for an empty file).
    func mapping(_ text: String) throws(ConfigError) -> [(key: String, value: Node, line: Int?)] {
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            if let duplicate = Self.duplicateKey(in: error) {
                throw ConfigError(file: file, line: Self.secondLine(of: duplicate, in: text), key: duplicate, message: "is given twice")
            }
            throw ConfigError(file: file, line: Self.line(of: error), key: nil, message: "not valid YAML (\(Self.problem(of: error)))")
        } catch {
            throw ConfigError(file: file, line: nil, key: nil, message: "not valid YAML")
        }
        guard let node else { return [] }
        return try entries(node, path: nil)
    }

    func entries(_ node: Node, path: String?) throws(ConfigError) -> [(key: String, value: Node, line: Int?)] {
        guard let mapping = node.mapping else {
            throw ConfigError(file: file, line: node.mark?.line, key: path, message: "expected a mapping of keys to values")
        }
        var result: [(key: String, value: Node, line: Int?)] = []
        var seen: Set<String> = []
        for (key, value) in mapping {
            guard let name = key.string else {
                throw ConfigError(file: file, line: key.mark?.line, key: path, message: "keys must be plain words")
            }
            let full = path.map { "\($0).\(name)" } ?? name
            guard seen.insert(name).inserted else {
                throw ConfigError(file: file, line: key.mark?.line, key: full, message: "is given twice")
            }
            result.append((full, value, key.mark?.line ?? value.mark?.line))
        }
        return result
    }

    func fail(_ key: String, _ node: Node, _ message: String) -> ConfigError {
        ConfigError(file: file, line: node.mark?.line, key: key, message: message)
    }

    /// A value that is not what `key` takes: the message, and what was written.
    func failValue(_ key: String, _ node: Node, _ message: String) -> ConfigError {
        fail(key, node, message + Self.written(node))
    }

    func string(_ key: String, _ node: Node) throws(ConfigError) -> String {
        guard let scalar = node.scalar else { throw fail(key, node, "must be text") }
        return scalar.string
    }

    func int(_ key: String, _ node: Node, _ range: ClosedRange<Int>) throws(ConfigError) -> Int {
        guard node.scalar != nil, let value = node.int, range.contains(value) else {
            throw failValue(key, node, "must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    func number(_ key: String, _ node: Node, _ range: ClosedRange<Double>) throws(ConfigError) -> Double {
        guard node.scalar != nil, let value = node.float ?? node.int.map(Double.init), range.contains(value) else {
            throw failValue(key, node, "must be a number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    func bool(_ key: String, _ node: Node) throws(ConfigError) -> Bool {
        guard node.scalar != nil, let value = node.bool else { throw failValue(key, node, "must be true or false") }
        return value
    }

    func choice<T>(_ key: String, _ node: Node, _ options: [(String, T)]) throws(ConfigError) -> T {
        let text = try string(key, node).lowercased()
        guard let match = options.first(where: { $0.0 == text }) else {
            throw failValue(key, node, "must be one of: \(options.map(\.0).joined(separator: ", "))")
        }
        return match.1
    }

    /// An unknown key: the nearest known one suggested when there is one
    /// (`qualty` → did you mean 'quality'?), else every key listed.
    func unknown(_ key: String, _ line: Int?, known: [String]) -> ConfigError {
        let leaf = key.split(separator: ".").last.map(String.init) ?? key
        let leaves = known.map { $0.split(separator: ".").last.map(String.init) ?? $0 }
        if let nearest = NearestName.suggestion(for: leaf, among: leaves) {
            return ConfigError(file: file, line: line, key: key, message: "unknown key; did you mean '\(nearest)'?")
        }
        return ConfigError(file: file, line: line, key: key, message: "unknown key (known: \(known.joined(separator: ", ")))")
    }

    /// The value a line gave, as the user wrote it, for an error to repeat.
    static func written(_ node: Node) -> String {
        if let scalar = node.scalar { return " (got '\(DisplayText.oneLine(scalar.string))')" }
        if let sequence = node.sequence {
            return " (got [\(sequence.compactMap { $0.scalar.map { DisplayText.oneLine($0.string) } }.joined(separator: ", "))])"
        }
        return " (got a mapping)"
    }

    /// Yams reports duplicate keys without a position; find the key's name in
    /// its message and the line where it appears the second time.
    static func duplicateKey(in error: YamlError) -> String? {
        let text = problem(of: error)
        guard text.contains("duplicated key"), let open = text.firstIndex(of: "'") else { return nil }
        let rest = text[text.index(after: open)...]
        guard let close = rest.firstIndex(of: "'") else { return nil }
        return String(rest[..<close])
    }

    static func secondLine(of key: String, in text: String) -> Int? {
        var seen = 0
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix(key + ":") {
                seen += 1
                if seen == 2 { return number + 1 }
            }
        }
        return nil
    }

    static func line(of error: YamlError) -> Int? {
        switch error {
        case .scanner(_, _, let mark, _), .parser(_, _, let mark, _): return mark.line
        default: return nil
        }
    }

    static func problem(of error: YamlError) -> String {
        switch error {
        case .scanner(_, let problem, _, _), .parser(_, let problem, _, _): return problem
        default: return String(describing: error).split(separator: "\n").first.map(String.init) ?? "unreadable"
        }
    }
}
