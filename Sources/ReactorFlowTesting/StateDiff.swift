import ReactorFlow

/// A small reflection-based differ: the paths at which two values differ, each as
/// `path: expected …, got …`. Structs, classes, tuples, enums, optionals, arrays, sets and dictionaries are
/// walked; pulses are skipped (they are events, asserted with `expectPulse`); anything else is compared with `==`
/// when it is `Equatable`, otherwise by its description.
public enum StateDiff {
    /// The differing paths, empty when the values are equal (ignoring pulses).
    public static func lines(expected: Any, actual: Any) -> [String] {
        var lines: [String] = []
        walk(expected, actual, path: "", into: &lines)
        return lines
    }

    private static func walk(_ expected: Any, _ actual: Any, path: String, into lines: inout [String]) {
        if expected is AnyPulse { return }
        let left = Mirror(reflecting: expected)
        let right = Mirror(reflecting: actual)
        func leaf() {
            if !leafEqual(expected, actual) {
                lines.append("\(path.isEmpty ? "value" : path): expected \(show(expected)), got \(show(actual))")
            }
        }
        guard left.displayStyle == right.displayStyle, type(of: expected) == type(of: actual) else {
            leaf()
            return
        }
        switch left.displayStyle {
        case .struct?, .class?, .tuple?:
            guard !left.children.isEmpty else { return leaf() }
            for (index, (l, r)) in zip(left.children, right.children).enumerated() {
                var label = l.label ?? ".\(index)"
                if label.hasPrefix("_") { label.removeFirst() } // a property wrapper's storage
                walk(l.value, r.value, path: join(path, label), into: &lines)
            }
        case .optional?:
            switch (left.children.first, right.children.first) {
            case (nil, nil): return
            case (let l?, let r?): walk(l.value, r.value, path: path, into: &lines)
            default: leaf()
            }
        case .enum?:
            let (l, r) = (left.children.first, right.children.first)
            guard let l, let r, l.label == r.label else { return leaf() }
            walk(l.value, r.value, path: join(path, l.label ?? "payload"), into: &lines)
        case .collection?:
            let (l, r) = (Array(left.children), Array(right.children))
            for index in 0..<min(l.count, r.count) {
                walk(l[index].value, r[index].value, path: "\(path)[\(index)]", into: &lines)
            }
            if l.count != r.count {
                lines.append("\(path.isEmpty ? "value" : path): expected \(l.count) elements, got \(r.count)")
            }
        case .dictionary?:
            func entries(_ mirror: Mirror) -> [String: Any] {
                var result: [String: Any] = [:]
                for child in mirror.children {
                    let pair = Array(Mirror(reflecting: child.value).children)
                    if pair.count == 2 { result[String(describing: pair[0].value)] = pair[1].value }
                }
                return result
            }
            let (l, r) = (entries(left), entries(right))
            for key in Set(l.keys).union(r.keys).sorted() {
                let keyPath = "\(path)[\(key)]"
                switch (l[key], r[key]) {
                case (let lv?, let rv?): walk(lv, rv, path: keyPath, into: &lines)
                case (let lv?, nil): lines.append("\(keyPath): expected \(show(lv)), got nothing")
                case (nil, let rv?): lines.append("\(keyPath): expected nothing, got \(show(rv))")
                default: break
                }
            }
        default:
            leaf()
        }
    }

    private static func join(_ path: String, _ label: String) -> String {
        path.isEmpty ? label : "\(path).\(label)"
    }

    private static func leafEqual(_ lhs: Any, _ rhs: Any) -> Bool {
        if let equatable = lhs as? any Equatable {
            return equatable.isEqual(toAny: rhs)
        }
        return String(reflecting: lhs) == String(reflecting: rhs)
    }

    static func show(_ value: Any) -> String {
        if let string = value as? String { return "\"\(string)\"" }
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional {
            guard let wrapped = mirror.children.first else { return "nil" }
            return show(wrapped.value)
        }
        return String(describing: value)
    }
}

extension Equatable {
    fileprivate func isEqual(toAny other: Any) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}
