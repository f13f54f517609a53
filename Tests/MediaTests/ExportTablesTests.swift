import Foundation
import Metadata
import Testing

/// The iCloud download's CSV files, read as RFC 4180 writes them.
@Suite struct ExportTablesTests {
    @Test func quotedFieldsHoldCommasNewlinesAndQuotes() throws {
        let text = "\u{FEFF}imgName,caption\r\n\"IMG_1.HEIC\",\"a, b\"\r\nIMG_2.HEIC,\"two\nlines\"\n\"IMG \"\"3\"\".jpg\",\n\n"
        let table = try CSVTable(Array(text.utf8))
        #expect(table.header == ["imgName", "caption"], "the byte-order mark skipped")
        #expect(table.rows == [["IMG_1.HEIC", "a, b"], ["IMG_2.HEIC", "two\nlines"], ["IMG \"3\".jpg", ""]])
        #expect(table.value("IMGNAME", in: table.rows[0]) == "IMG_1.HEIC")
        #expect(table.value("nothing", in: table.rows[0]) == nil)
        #expect(table.value("caption", in: ["short"]) == nil)
    }

    @Test func hostileTablesAreRefused() throws {
        #expect(throws: CSVError.openQuote(line: 2)) { try CSVTable(Array("a,b\n\"open,\nnever closed".utf8)) }
        #expect(throws: CSVError.empty) { try CSVTable([]) }
        #expect(throws: CSVError.empty) { try CSVTable(Array("\n\n\r\n".utf8)) }
        let wide = Array(String(repeating: ",", count: CSVTable.mostFields + 1).utf8)
        #expect(throws: CSVError.tooManyFields(line: 1)) { try CSVTable(wide) }
        // Bytes that are not UTF-8 are read, not refused.
        #expect(try CSVTable([0x61, 0x0A, 0xFF, 0xFE]).rows == [["\u{FFFD}\u{FFFD}"]])
    }

    @Test func photoDetailsGiveDatesFavouritesHiddenAndDeleted() throws {
        let text = """
        imgName,fileChecksum,favorite,hidden,deleted,originalCreationDate,viewCount,importDate
        IMG_0001.HEIC,abc=,yes,no,no,"Friday October 06,2023 12:11 PM GMT",3,"Saturday October 07,2023 9:00 AM GMT"
        IMG_0002.JPG,def=,no,yes,no,Monday January 01 2024,0,
        IMG_0003.MOV,ghi=,no,no,yes,"Tuesday February 29,2000 11:59 PM GMT",0,
        ../../etc/passwd,x,yes,no,no,,0,
        ,y,yes,no,no,,0,
        IMG_0001.HEIC,dup,no,no,no,,0,
        """
        let details = try ICloudPhotoDetails(Array(text.utf8))
        #expect(details.photos.keys.sorted() == ["IMG_0001.HEIC", "IMG_0002.JPG", "IMG_0003.MOV"])
        let first = try #require(details.photos["IMG_0001.HEIC"])
        #expect(first.favorite && !first.hidden && !first.deleted)
        #expect(first.created == Date(timeIntervalSince1970: 1_696_594_260), "2023-10-06 12:11 UTC")
        #expect(details.photos["IMG_0002.JPG"]?.hidden == true)
        #expect(details.photos["IMG_0002.JPG"]?.created == nil, "a date that does not read is left out")
        #expect(details.photos["IMG_0003.MOV"]?.deleted == true)
        #expect(details.photos["IMG_0003.MOV"]?.created == Date(timeIntervalSince1970: 951_868_740))
        #expect(details.refusedRows == 3, "a path, no name, a second row for one name")
        #expect(throws: CSVError.empty) { try ICloudPhotoDetails(Array("name,date\nIMG_1.JPG,today\n".utf8)) }
    }
}
