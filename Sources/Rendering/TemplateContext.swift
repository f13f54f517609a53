/// A model whose properties a template sees at the level of the model that
/// holds it (`PageChrome`: `{{title}}`, not `{{chrome.title}}`).
public protocol FlattenedInTemplateContext {}

/// Turns a page model into what a template renders (`TemplateValue`):
/// structs become objects keyed by property name, arrays stay lists, nil
/// optionals are left out (so `{{#key}}` does not render and `{{^key}}`
/// does), and strings, numbers and booleans stay as they are.
///
/// It walks the models through their compiler-made `Encodable` conformance:
/// direct calls, where `Mirror` looked every field's type up by name at run
/// time (a fifth of all rendering time for 30,000 item pages).
enum TemplateContext {
    static func make(_ value: some Encodable) -> TemplateValue? {
        let box = ContextBox()
        do {
            try value.encode(to: ContextEncoder(box: box))
        } catch {
            return nil  // the encoder itself never throws
        }
        return box.value
    }
}

/// What one value became: a dictionary (a struct), an array, or a plain value.
private final class ContextBox {
    var dictionary: [String: TemplateValue]?
    var array: [TemplateValue]?
    var single: TemplateValue?

    var value: TemplateValue? { dictionary.map(TemplateValue.object) ?? array.map(TemplateValue.list) ?? single }

    /// The box of a nested value, filled by encoding it, then read.
    static func encode(_ value: some Encodable) throws -> TemplateValue? {
        let box = ContextBox()
        try value.encode(to: ContextEncoder(box: box))
        return box.value
    }
}

private struct ContextEncoder: Encoder {
    let box: ContextBox
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        // A flattened model encodes into the dictionary of the model that holds it.
        if box.dictionary == nil { box.dictionary = [:] }
        return KeyedEncodingContainer(KeyedContext<Key>(box: box))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if box.array == nil { box.array = [] }
        return UnkeyedContext(box: box)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleContext(box: box) }
}

private struct KeyedContext<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let box: ContextBox
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws {}
    mutating func encode(_ value: Bool, forKey key: Key) throws { box.dictionary![key.stringValue] = .flag(value) }
    mutating func encode(_ value: String, forKey key: Key) throws { box.dictionary![key.stringValue] = .text(value) }
    mutating func encode(_ value: Double, forKey key: Key) throws { box.dictionary![key.stringValue] = .number(value) }
    mutating func encode(_ value: Int, forKey key: Key) throws { box.dictionary![key.stringValue] = .integer(value) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        if value is FlattenedInTemplateContext {
            try value.encode(to: ContextEncoder(box: box))
        } else if let converted = try ContextBox.encode(value) {
            box.dictionary![key.stringValue] = converted
        }
    }

    // Page models are plain structs with synthesized conformances, which
    // never ask for these; a hand-written one that did would see its nested
    // values left out of the context (a test renders every page model).
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        ContextEncoder(box: ContextBox()).container(keyedBy: keyType)
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { ContextEncoder(box: ContextBox()).unkeyedContainer() }
    mutating func superEncoder() -> any Encoder { ContextEncoder(box: ContextBox()) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { ContextEncoder(box: ContextBox()) }
}

private struct UnkeyedContext: UnkeyedEncodingContainer {
    let box: ContextBox
    var codingPath: [any CodingKey] { [] }
    var count: Int { box.array!.count }

    mutating func encodeNil() throws {}
    mutating func encode(_ value: String) throws { box.array!.append(.text(value)) }
    mutating func encode(_ value: Bool) throws { box.array!.append(.flag(value)) }
    mutating func encode(_ value: Int) throws { box.array!.append(.integer(value)) }
    mutating func encode(_ value: Double) throws { box.array!.append(.number(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        if let converted = try ContextBox.encode(value) { box.array!.append(converted) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        ContextEncoder(box: ContextBox()).container(keyedBy: keyType)
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { ContextEncoder(box: ContextBox()).unkeyedContainer() }
    mutating func superEncoder() -> any Encoder { ContextEncoder(box: ContextBox()) }
}

private struct SingleContext: SingleValueEncodingContainer {
    let box: ContextBox
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() throws {}
    mutating func encode(_ value: String) throws { box.single = .text(value) }
    mutating func encode(_ value: Bool) throws { box.single = .flag(value) }
    mutating func encode(_ value: Int) throws { box.single = .integer(value) }
    mutating func encode(_ value: Double) throws { box.single = .number(value) }
    mutating func encode<T: Encodable>(_ value: T) throws { box.single = try ContextBox.encode(value) }
}
