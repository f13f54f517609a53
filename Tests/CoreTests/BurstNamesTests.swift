import GalleryCore
import Testing

/// Burst frames named as real phones name them (the cases photo importers'
/// issues collect), and names that look alike but are no burst.
@Suite struct BurstNamesTests {
    /// Each burst's frames: one key, their own indexes, the cover where the camera marked it.
    @Test(arguments: [
        // Motorola, Fairphone, Honor: a sequence after _BURST, the cover first.
        ["IMG_20180914_094602055_BURST000_COVER.jpg", "IMG_20180914_094602055_BURST001.jpg", "IMG_20180914_094602055_BURST002.jpg"],
        // Oppo (Cshot folders): no underscore inside the date.
        ["IMG20250208154709_BURST000_COVER.jpg", "IMG20250208154709_BURST001.jpg", "IMG20250208154709_BURST019.jpg"],
        // Huawei Nexus 6P, Pixel XL: serial, IMG_, serial, _BURST and the instant; the cover last.
        ["00001IMG_00001_BURST20171111030039.jpg", "00014IMG_00014_BURST20171111030039.jpg", "00015IMG_00015_BURST20171111030039_COVER.jpg"],
        // Nothing: the instant in epoch milliseconds.
        ["00001IMG_00001_BURST1713793240432_COVER.jpg", "00002IMG_00002_BURST1713793240432.jpg"],
        // Sony Xperia.
        ["DSC_0001_BURST20230709220904977.JPG", "DSC_0052_BURST20230709220904977_COVER.JPG", "DSC_0101_BURST20230709220904977.JPG"],
        // Sony's predictive capture.
        ["DSCPDC_0000_BURST20180224164317669.JPG", "DSCPDC_0003_BURST20180224164317669_COVER.JPG"],
        // Samsung: date, time, three digits; no cover in the name.
        ["20231207_101605_001.jpg", "20231207_101605_002.jpg", "20231207_101605_039.jpg"],
    ])
    func theFramesOfOneBurstShareAKey(_ names: [String]) throws {
        let parsed = try names.map { try #require(BurstName.parse($0), "\($0)") }
        #expect(Set(parsed.map(\.key)).count == 1, "\(parsed.map(\.key))")
        #expect(Set(parsed.map(\.index)).count == names.count, "\(parsed.map(\.index))")
        #expect(parsed.map(\.isCover) == names.map { $0.uppercased().contains("_COVER.") })
    }

    @Test func twoBurstsHaveTwoKeys() throws {
        let pairs = [
            ("IMG_20180914_094602055_BURST001.jpg", "IMG_20180914_094610001_BURST001.jpg"),
            ("DSC_0001_BURST20230709220904977.JPG", "DSC_0001_BURST20230709221004001.JPG"),
            ("DSC_0001_BURST20230709220904977.JPG", "DSCPDC_0001_BURST20230709220904977.JPG"),
            ("20231207_101605_001.jpg", "20231207_101606_001.jpg"),
            ("00001IMG_00001_BURST20171111030039.jpg", "00001IMG_00001_BURST20171111030040.jpg"),
        ]
        for (a, b) in pairs {
            let first = try #require(BurstName.parse(a)), second = try #require(BurstName.parse(b))
            #expect(first.key != second.key, "\(a) and \(b)")
        }
    }

    @Test(arguments: [
        "IMG_20171111_030055.jpg", "20231207_101552.jpg", "PXL_20231207_101605123.jpg", "IMG_1234.HEIC", "DSC_0001.JPG",
        "_BURST001.jpg", "IMG_BURST.jpg", "IMG_BURSTabc.jpg", "IMG_BURST12345.jpg", "20231207_101605_0001.jpg",
        "2023120_101605_001.jpg", "20231207_101605_00a.jpg", "BURST", "", ".jpg", "IMG_1_BURST٣.jpg",
        "1234567IMG_1234567_BURST20171111030039.jpg",
    ])
    func namesThatAreNoBurst(_ name: String) {
        #expect(BurstName.parse(name) == nil, "\(name): \(String(describing: BurstName.parse(name)))")
    }
}
