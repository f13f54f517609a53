import GalleryCore

/// Dates in machine form (`<time datetime>`, the feed) and the civil
/// arithmetic behind the words; the words themselves are the language's
/// (`SiteStrings`).
public enum HumanDate {
    /// Day of the week, 0 = Monday.
    static func weekday(_ day: LocalDay) -> Int {
        let days = CivilCalendar.days(year: day.year, month: day.month, day: day.day)
        // 1970-01-01 was a Thursday (index 3).
        return Int(((days % 7) + 7 + 3) % 7)
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
