import Foundation
import Testing
import GalleryTestSupport
@testable import GalleryCore

@Suite struct CaptureDateTests {
    @Test func parsesExifForms() throws {
        let a = try #require(CaptureDate(exif: "2023:12:31 23:59:59", offset: "-05:00", source: .original))
        #expect(a.localDay == LocalDay(year: 2023, month: 12, day: 31))
        #expect(a.utcOffsetSeconds == -18_000)
        #expect(a.instant == Date(timeIntervalSince1970: 1_704_085_199))
        let b = try #require(CaptureDate(exif: "2023-12-31T23:59:59", offset: nil, source: .original))
        #expect(b.wallClockSeconds == a.wallClockSeconds)
        #expect(b.utcOffsetSeconds == nil)
    }

    @Test func rejectsImpossibleDates() {
        for text in ["", "0000:00:00 00:00:00", "2023:02:29 10:00:00", "2023:13:01 00:00:00", "2023:01:01 25:00:00", "    :  :     :  :  "] {
            #expect(CaptureDate(exif: text, offset: nil, source: .original) == nil, "\(text)")
        }
        #expect(CaptureDate(exif: "2024:02:29 10:00:00", offset: nil, source: .original) != nil)
    }

    @Test func offsets() {
        #expect(CaptureDate.parseOffset("+05:30") == 19_800)
        #expect(CaptureDate.parseOffset("-00:30") == -1_800)
        #expect(CaptureDate.parseOffset("05:30") == nil)
        #expect(CaptureDate.parseOffset("+99:00") == nil)
    }

    @Test func civilCalendarRoundTrips() {
        for days in stride(from: Int64(-800_000), to: 800_000, by: 997) {
            let f = CivilCalendar.fields(fromSeconds: days * 86_400 + 3_723)
            #expect(CivilCalendar.seconds(year: f.year, month: f.month, day: f.day, hour: f.hour, minute: f.minute, second: f.second) == days * 86_400 + 3_723)
        }
    }

    @Test func fileTimeUsesTheGivenZone() throws {
        let zone = try #require(TimeZone(identifier: "America/New_York"))
        // 2024-03-10 06:30 UTC is 01:30 EST, before the DST switch that night.
        let date = CaptureDate(fileTime: Date(timeIntervalSince1970: 1_710_052_200), timeZone: zone)
        #expect(date.localDay == LocalDay(year: 2024, month: 3, day: 10))
        #expect(date.wallClock.hour == 1)
        #expect(date.utcOffsetSeconds == -18_000)
    }
}
