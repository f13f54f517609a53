import Foundation

/// Where a photo's capture time came from, best first.
public enum CaptureDateSource: String, Sendable, Codable {
    /// EXIF `DateTimeOriginal`: when the shutter fired.
    case original
    /// EXIF `DateTimeDigitized`.
    case digitized
    /// EXIF `DateTime` (IFD0): often when the file was last edited.
    case modified
    /// The file system's modification time: no usable EXIF date.
    case fileTime
    /// The export's record of when it was taken (Google Takeout's
    /// `photoTakenTime`, iCloud's `originalCreationDate`): the instant is
    /// exact, the UTC offset the building machine's guess.
    case exportRecord
}

/// A calendar day on the photographer's wall clock.
public struct LocalDay: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// Year, e.g. 2024.
    public var year: Int
    /// Month 1–12.
    public var month: Int
    /// Day 1–31.
    public var day: Int

    /// Creates a day.
    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// ISO 8601 form `YYYY-MM-DD`, as used in `<time datetime>`.
    public var description: String {
        monthDescription + (day < 10 ? "-0" : "-") + String(day)
    }

    /// Its month, `YYYY-MM`: a month section's `<time datetime>` and the month
    /// index's keys. Built by hand: a moments page asks for one per photo,
    /// and `String(format:)` is slow.
    public var monthDescription: String {
        let digits = String(year)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits + (month < 10 ? "-0" : "-") + String(month)
    }

    /// Orders by calendar position.
    public static func < (a: LocalDay, b: LocalDay) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }
}

/// When a photo was taken: the wall-clock time shown on the camera, plus its UTC
/// offset when the camera recorded one.
///
/// Moments group by `localDay` (the photographer's date, wherever they were);
/// ordering uses `instant`, so photos from two time zones interleave correctly.
public struct CaptureDate: Hashable, Sendable, Codable {
    /// Seconds since 1970 of the wall-clock reading taken as if it were UTC.
    public var wallClockSeconds: Int64
    /// Offset from UTC in seconds, when known (EXIF `OffsetTimeOriginal`).
    public var utcOffsetSeconds: Int?
    /// Which field the date was read from.
    public var source: CaptureDateSource

    /// Creates a date from a wall-clock reading.
    public init(wallClockSeconds: Int64, utcOffsetSeconds: Int?, source: CaptureDateSource) {
        self.wallClockSeconds = wallClockSeconds
        self.utcOffsetSeconds = utcOffsetSeconds
        self.source = source
    }

    /// A date from a file time: the instant is exact; the wall clock is that instant
    /// in the time zone of the machine building the site (the best guess we have).
    public init(fileTime: Date, timeZone: TimeZone = .current) {
        let offset = timeZone.secondsFromGMT(for: fileTime)
        self.init(
            wallClockSeconds: Int64(fileTime.timeIntervalSince1970.rounded(.down)) + Int64(offset),
            utcOffsetSeconds: offset,
            source: .fileTime
        )
    }

    /// A date from an export's record of the instant it was taken: the wall
    /// clock is that instant in `timeZone` (the building machine's: the
    /// record has no zone, and there is no offline table of the zones' borders).
    public init(exportRecord instant: Date, timeZone: TimeZone = .current) {
        self.init(fileTime: instant, timeZone: timeZone)
        source = .exportRecord
    }

    /// Whether the UTC offset was recorded with the date, not guessed from the building machine's zone.
    public var offsetIsRecorded: Bool { utcOffsetSeconds != nil && source != .fileTime && source != .exportRecord }

    /// The moment in time. Without a recorded offset the wall clock is taken as UTC,
    /// which keeps photos of one camera in shooting order.
    public var instant: Date {
        Date(timeIntervalSince1970: TimeInterval(wallClockSeconds - Int64(utcOffsetSeconds ?? 0)))
    }

    /// The wall-clock fields.
    public var wallClock: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        CivilCalendar.fields(fromSeconds: wallClockSeconds)
    }

    /// The photographer's calendar day.
    public var localDay: LocalDay {
        let f = wallClock
        return LocalDay(year: f.year, month: f.month, day: f.day)
    }

    /// Parses an EXIF date `YYYY:MM:DD HH:MM:SS` (also `-` separators or a `T`),
    /// with an optional EXIF offset `+HH:MM`. Returns nil for blank or impossible
    /// dates such as `0000:00:00 00:00:00`.
    public init?(exif text: String, offset: String?, source: CaptureDateSource) {
        let bytes = Array(text.utf8)
        func number(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[start..<start + count] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2) else { return nil }
        let hour = number(11, 2) ?? 0, minute = number(14, 2) ?? 0, second = number(17, 2) ?? 0
        guard (1800...2999).contains(year), (1...12).contains(month),
              (1...CivilCalendar.daysIn(month: month, year: year)).contains(day),
              (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        let seconds = CivilCalendar.seconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        self.init(wallClockSeconds: seconds, utcOffsetSeconds: offset.flatMap(CaptureDate.parseOffset), source: source)
    }

    /// Parses an ISO 8601 time as QuickTime's `com.apple.quicktime.creationdate`
    /// writes it: `2024-07-15T00:30:05+0900` (local wall clock and its offset;
    /// also `+09:00`, or `Z` for UTC). Nil without a usable offset.
    public init?(iso8601 text: String, source: CaptureDateSource) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.utf8.count >= 20 else { return nil }
        var rest = Substring(trimmed.dropFirst(19))
        if rest.first == "." { rest = rest.drop { $0 == "." || $0.isNumber } }  // fractional seconds
        let offset: Int?
        if rest == "Z" {
            offset = 0
        } else if rest.count == 5, let sign = rest.first, sign == "+" || sign == "-" {
            offset = CaptureDate.parseOffset("\(sign)\(rest.dropFirst().prefix(2)):\(rest.suffix(2))")
        } else {
            offset = CaptureDate.parseOffset(String(rest))
        }
        guard let offset else { return nil }
        self.init(exif: String(trimmed.prefix(19)), offset: nil, source: source)
        utcOffsetSeconds = offset
    }

    /// Parses `+HH:MM` / `-HH:MM` (EXIF 2.31 OffsetTime*) into seconds.
    public static func parseOffset(_ text: String) -> Int? {
        let t = text.trimmingCharacters(in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: "\0")))
        guard t.count == 6, let sign = t.first, sign == "+" || sign == "-" else { return nil }
        let parts = t.dropFirst().split(separator: ":")
        guard parts.count == 2, let h = Int(parts[0]), let m = Int(parts[1]), (0...14).contains(h), (0...59).contains(m) else {
            return nil
        }
        let value = h * 3600 + m * 60
        return sign == "-" ? -value : value
    }
}

/// Proleptic Gregorian arithmetic on wall-clock seconds, free of time zones,
/// so a date is never shifted by the machine's zone or its DST rules.
public enum CivilCalendar {
    /// True for leap years.
    public static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    /// Days in a month.
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm).
    public static func days(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let m = Int64(month)
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// Seconds since 1970 of a wall-clock reading taken as UTC.
    public static func seconds(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Int64 {
        days(year: year, month: month, day: day) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    /// The civil fields of wall-clock seconds.
    public static func fields(fromSeconds seconds: Int64) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        var days = seconds / 86_400
        var rest = seconds % 86_400
        if rest < 0 { rest += 86_400; days -= 1 }
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        return (Int(y), Int(m), Int(d), Int(rest / 3600), Int(rest % 3600 / 60), Int(rest % 60))
    }
}
