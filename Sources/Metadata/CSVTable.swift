import Foundation

/// A comma-separated table as RFC 4180 writes it: fields in double quotes
/// may hold commas, newlines and doubled quotes; lines end in CRLF or LF; a
/// UTF-8 byte-order mark is skipped. The bytes are untrusted: a quote left
/// open runs to the end (the table is then refused), and the row and field
/// counts are bounded so a hostile file cannot take the memory.
public struct CSVTable: Equatable, Sendable {
    /// The first row's fields.
    public var header: [String]
    /// The other rows (empty lines left out).
    public var rows: [[String]]

    /// At most this many rows and fields a row.
    public static let mostRows = 5_000_000, mostFields = 1_000

    /// The value of column `name` (as the header spells it, letter case
    /// aside) in `row`; nil when there is no such column or the row is short.
    public func value(_ name: String, in row: [String]) -> String? {
        guard let column = header.firstIndex(where: { $0.lowercased() == name.lowercased() }) else { return nil }
        return column < row.count ? row[column] : nil
    }

    public init(header: [String], rows: [[String]]) {
        self.header = header
        self.rows = rows
    }

    /// Reads `bytes` (UTF-8; invalid bytes become U+FFFD).
    public init(_ bytes: [UInt8]) throws(CSVError) {
        var fields: [String] = [], field: [UInt8] = [], table: [[String]] = []
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var quoted = false, wasQuoted = false, line = 1, quoteLine = 1
        func endField() throws(CSVError) {
            guard fields.count < Self.mostFields else { throw .tooManyFields(line: line) }
            fields.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
            wasQuoted = false
        }
        func endRow() throws(CSVError) {
            try endField()
            // A line with nothing on it is no row.
            if !(fields.count == 1 && fields[0].isEmpty) {
                guard table.count < Self.mostRows else { throw .tooManyRows }
                table.append(fields)
            }
            fields.removeAll(keepingCapacity: true)
        }
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
                        field.append(byte)
                        index += 1
                    } else {
                        quoted = false
                    }
                } else {
                    if byte == UInt8(ascii: "\n") { line += 1 }
                    field.append(byte)
                }
                continue
            }
            switch byte {
            case UInt8(ascii: ","):
                try endField()
            case UInt8(ascii: "\r") where index < bytes.count && bytes[index] == UInt8(ascii: "\n"):
                continue
            case UInt8(ascii: "\n"):
                try endRow()
                line += 1
            case UInt8(ascii: "\"") where field.isEmpty && !wasQuoted:
                quoted = true
                wasQuoted = true
                quoteLine = line
            default:
                // A quote inside an unquoted field, or text after a closing quote, is kept as it is.
                field.append(byte)
            }
        }
        if quoted { throw .openQuote(line: quoteLine) }
        if !field.isEmpty || !fields.isEmpty { try endRow() }
        guard let first = table.first else { throw .empty }
        header = first.map { $0.trimmingCharacters(in: .whitespaces) }
        rows = Array(table.dropFirst())
    }
}

/// Why a CSV file was not read.
public enum CSVError: Error, Equatable, CustomStringConvertible {
    case empty
    case openQuote(line: Int)
    case tooManyFields(line: Int)
    case tooManyRows

    public var description: String {
        switch self {
        case .empty: return "an empty table"
        case .openQuote(let line): return "a quote opened on line \(line) is never closed"
        case .tooManyFields(let line): return "line \(line) has more than \(CSVTable.mostFields) fields"
        case .tooManyRows: return "more than \(CSVTable.mostRows) rows"
        }
    }
}
