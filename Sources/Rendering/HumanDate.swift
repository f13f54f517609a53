import GalleryCore

/// English dates for headings, computed from civil fields so neither the
/// machine's locale nor its time zone can change them.
public enum HumanDate {
    static let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                         "October", "November", "December"]
    static let weekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

    /// Day of the week, 0 = Monday.
    static func weekday(_ day: LocalDay) -> Int {
        let days = CivilCalendar.days(year: day.year, month: day.month, day: day.day)
        // 1970-01-01 was a Thursday (index 3).
        return Int(((days % 7) + 7 + 3) % 7)
    }

    /// "Sunday 10 March 2024".
    public static func day(_ day: LocalDay) -> String {
        "\(weekdays[weekday(day)]) \(day.day) \(months[day.month - 1]) \(day.year)"
    }

    /// "March 2024".
    public static func month(_ day: LocalDay) -> String {
        "\(months[day.month - 1]) \(day.year)"
    }

    /// "10 Mar 2024".
    public static func short(_ day: LocalDay) -> String {
        "\(day.day) \(months[day.month - 1].prefix(3)) \(day.year)"
    }

    /// "10–12 March 2024", "30 March – 2 April 2024", or one day.
    public static func range(_ first: LocalDay, _ last: LocalDay) -> String {
        if first == last { return day(first) }
        if first.year == last.year, first.month == last.month {
            return "\(first.day)–\(last.day) \(months[first.month - 1]) \(first.year)"
        }
        if first.year == last.year {
            return "\(first.day) \(months[first.month - 1]) – \(last.day) \(months[last.month - 1]) \(last.year)"
        }
        return "\(first.day) \(months[first.month - 1]) \(first.year) – \(last.day) \(months[last.month - 1]) \(last.year)"
    }

    /// "10 Mar 2024 – 2 Apr 2025" for album date ranges.
    public static func shortRange(_ first: LocalDay, _ last: LocalDay) -> String {
        first == last ? short(first) : "\(short(first)) – \(short(last))"
    }

    /// "23:30" and the offset when known: "23:30 (UTC+02:00)".
    public static func time(_ date: CaptureDate) -> String {
        let f = date.wallClock
        var text = pad(f.hour) + ":" + pad(f.minute)
        if let offset = date.utcOffsetSeconds, date.source != .fileTime {
            let sign = offset < 0 ? "−" : "+"
            let value = abs(offset)
            text += " (UTC\(sign)\(pad(value / 3600)):\(pad(value % 3600 / 60)))"
        }
        return text
    }

    /// ISO 8601 for `<time datetime>`: local time, with the offset when known.
    public static func machine(_ date: CaptureDate) -> String {
        let f = date.wallClock
        var text = "\(date.localDay)T\(pad(f.hour)):\(pad(f.minute)):\(pad(f.second))"
        if let offset = date.utcOffsetSeconds {
            let value = abs(offset)
            text += (offset < 0 ? "-" : "+") + pad(value / 3600) + ":" + pad(value % 3600 / 60)
        }
        return text
    }

    static func pad(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}
