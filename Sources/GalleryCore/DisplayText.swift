/// Text from file names for terminal messages.
public enum DisplayText {
    /// `text` with control characters escaped (`\n`, `\u{7}`), so it stays on one line
    /// and cannot drive the terminal.
    public static func oneLine(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}" {
                out += scalar == "\n" ? "\\n" : "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
