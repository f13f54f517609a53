/// A model whose properties a template sees at the level of the model that
/// holds it (`PageChrome`: `{{title}}`, not `{{chrome.title}}`).
public protocol FlattenedInTemplateContext {}

/// Turns a page model into what the Mustache library renders: structs become
/// dictionaries keyed by property name, arrays stay arrays, nil optionals are
/// left out (so `{{#key}}` does not render and `{{^key}}` does), and strings,
/// numbers and booleans stay as they are. Reflection happens once per model
/// value, not once per template lookup.
enum TemplateContext {
    static func make(_ value: Any) -> Any? {
        switch value {
        case let text as String: return text
        case let number as Int: return number
        case let flag as Bool: return flag
        case let number as Double: return number
        default: break
        }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            return mirror.children.first.flatMap { make($0.value) }
        case .collection:
            return mirror.children.compactMap { make($0.value) }
        case .struct, .class:
            var dictionary: [String: Any] = [:]
            add(mirror, into: &dictionary)
            return dictionary
        default:
            return value
        }
    }

    private static func add(_ mirror: Mirror, into dictionary: inout [String: Any]) {
        for child in mirror.children {
            guard let label = child.label else { continue }
            if child.value is FlattenedInTemplateContext {
                add(Mirror(reflecting: child.value), into: &dictionary)
            } else if let converted = make(child.value) {
                dictionary[label] = converted
            }
        }
    }
}
