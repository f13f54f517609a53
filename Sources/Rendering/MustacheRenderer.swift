/// Renders a parsed template against a `TemplateValue` into bytes (see `Mustache`).
struct Renderer {
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
