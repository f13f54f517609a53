import Foundation

/// Compact JSON of any `Encodable` value, object keys sorted (a rebuild
/// writes identical bytes), strings escaped as `PhotoFacts` escapes them for
/// scripts. Written here rather than with JSONEncoder, whose output (`\/`,
/// key order) the search index's files and their tests do not follow.
enum CompactJSON {
    static func string<Value: Encodable>(_ value: Value) -> String {
        let root = Node()
        // Nothing below throws: the containers take every value.
        try? value.encode(to: NodeEncoder(node: root))
        var out = ""
        root.write(to: &out)
        return out
    }

    /// `string(fields)` for an object of strings, written straight out (a
    /// token file of the search index holds thousands).
    static func object(_ fields: [String: String]) -> String {
        var out = "{"
        for (index, key) in fields.keys.sorted().enumerated() {
            if index > 0 { out += "," }
            PhotoFacts.appendJSONString(key, to: &out)
            out += ":"
            PhotoFacts.appendJSONString(fields[key]!, to: &out)
        }
        out += "}"
        return out
    }

    /// A value being encoded: filled by the containers, written once complete.
    /// Children are kept in the node's own storage (not an enum payload, which
    /// would be copied out, grown and put back for every field: quadratic in
    /// a token file of thousands of words).
    final class Node {
        enum Kind { case empty, literal, array, object }
        var kind = Kind.empty
        /// Already JSON: a number, true, false, null or an escaped string.
        var literal = ""
        var elements: [Node] = []
        var fields: [String: Node] = [:]

        func write(to out: inout String) {
            switch kind {
            case .empty: out += "null"
            case .literal: out += literal
            case .array:
                out += "["
                for (index, node) in elements.enumerated() {
                    if index > 0 { out += "," }
                    node.write(to: &out)
                }
                out += "]"
            case .object:
                out += "{"
                for (index, key) in fields.keys.sorted().enumerated() {
                    if index > 0 { out += "," }
                    PhotoFacts.appendJSONString(key, to: &out)
                    out += ":"
                    fields[key]!.write(to: &out)
                }
                out += "}"
            }
        }

        func setLiteral(_ text: String) {
            kind = .literal
            literal = text
        }

        func setString(_ text: String) {
            var escaped = ""
            PhotoFacts.appendJSONString(text, to: &escaped)
            setLiteral(escaped)
        }

        func field(_ key: String) -> Node {
            let child = Node()
            kind = .object
            fields[key] = child
            return child
        }

        func element() -> Node {
            let child = Node()
            kind = .array
            elements.append(child)
            return child
        }
    }

    struct NodeEncoder: Encoder {
        let node: Node
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            node.kind = .object
            return KeyedEncodingContainer(Keyed<Key>(node: node))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            node.kind = .array
            return Unkeyed(node: node)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer { Single(node: node) }
    }

    /// Sets one node from a value.
    static func set<T: Encodable>(_ node: Node, _ value: T) {
        switch value {
        case let text as String: node.setString(text)
        case let flag as Bool: node.setLiteral(flag ? "true" : "false")
        case let number as Int: node.setLiteral(String(number))
        case let number as Double: node.setLiteral(number.isFinite ? String(number) : "null")
        default: try? value.encode(to: NodeEncoder(node: node))
        }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: Node
        var codingPath: [any CodingKey] { [] }
        mutating func encodeNil(forKey key: Key) { node.field(key.stringValue).setLiteral("null") }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) { CompactJSON.set(node.field(key.stringValue), value) }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            NodeEncoder(node: node.field(key.stringValue)).container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            NodeEncoder(node: node.field(key.stringValue)).unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder { NodeEncoder(node: node.field("super")) }
        mutating func superEncoder(forKey key: Key) -> any Encoder { NodeEncoder(node: node.field(key.stringValue)) }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let node: Node
        var codingPath: [any CodingKey] { [] }
        var count: Int { node.elements.count }
        mutating func encodeNil() { node.element().setLiteral("null") }
        mutating func encode<T: Encodable>(_ value: T) { CompactJSON.set(node.element(), value) }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            NodeEncoder(node: node.element()).container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { NodeEncoder(node: node.element()).unkeyedContainer() }
        mutating func superEncoder() -> any Encoder { NodeEncoder(node: node.element()) }
    }

    struct Single: SingleValueEncodingContainer {
        let node: Node
        var codingPath: [any CodingKey] { [] }
        mutating func encodeNil() { node.setLiteral("null") }
        mutating func encode<T: Encodable>(_ value: T) { CompactJSON.set(node, value) }
    }
}
