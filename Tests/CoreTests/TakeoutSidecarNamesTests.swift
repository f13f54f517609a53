import Testing
@testable import GalleryCore

/// Takeout's JSON names against the media they describe: each pair alone in
/// a folder (the case immich-go's tests collect from real exports), then
/// whole folders where the wrong JSON is close at hand.
@Suite struct TakeoutSidecarNamesTests {
    /// nil: the JSON describes none of them.
    static let pairs: [(json: String, media: String, matches: Bool)] = [
        ("PXL_20211013_220651983.jpg.json", "PXL_20211013_220651983.jpg", true),
        ("PXL_20211013_220651983.jpg.json", "PXL_20211013_220651958.jpg", false),
        ("PXL_20220405_090123740.PORTRAIT.jpg.json", "PXL_20220405_090123740.PORTRAIT-modifié.jpg", true),
        ("PXL_20220405_090123740.PORTRAIT.jpg.json", "PXL_20220405_090123741.PORTRAIT-modifié.jpg", false),
        ("IMG_1234.jpg.json", "IMG_1234-edited.jpg", true),
        ("IMG_1234.jpg.json", "IMG_1234-Bearbeitet.jpg", true),
        ("IMG_1234.jpg.json", "IMG_1234-holiday.jpg", false),
        ("DSC_0100.JPG.json", "DSC_0100.JPG", true),
        ("DSC_0101.JPG(1).json", "DSC_0101(1).JPG", true),
        ("DSC_0102.JPG(2).json", "DSC_0102(1).JPG", false),
        ("DSC_0103.JPG(1).json", "DSC_0103.JPG", false),
        ("DSC_0104.JPG.json", "DSC_0104(1).JPG", false),
        ("IMG_2710.HEIC(1).json", "IMG_2710(1).HEIC", true),
        ("PXL_20231118_035751175.MP.jpg.json", "PXL_20231118_035751175.MP.jpg", true),
        ("PXL_20230809_203449253.LONG_EXPOSURE-02.ORIGIN.json", "PXL_20230809_203449253.LONG_EXPOSURE-02.ORIGINA.jpg", true),
        ("05yqt21kruxwwlhhgrwrdyb6chhwszi9bqmzu16w0 2.jp.json", "05yqt21kruxwwlhhgrwrdyb6chhwszi9bqmzu16w0 2.jpg", true),
        // 46 UTF-16 code units: an emoji counts two, ☺️ (two scalars) two.
        ("😀😃😄😁😆😅😂🤣🥲☺️😊😇🙂🙃😉😌😍🥰😘😗😙😚😋.json", "😀😃😄😁😆😅😂🤣🥲☺️😊😇🙂🙃😉😌😍🥰😘😗😙😚😋😛.jpg", true),
        ("Backyard_ceremony_wedding_photography_xxxxxxx_(494).json", "Backyard_ceremony_wedding_photography_xxxxxxx_m(494).jpg", true),
        ("Backyard_ceremony_wedding_photography_xxxxxxx_(494).json", "Backyard_ceremony_wedding_photography_xxxxxxx_m(185).jpg", false),
        ("original_1d4caa6f-16c6-4c3d-901b-9387de10e528_.json", "original_1d4caa6f-16c6-4c3d-901b-9387de10e528_P.jpg", true),
        // A copy Takeout wrote no JSON of its own for, under a cut name.
        ("original_1d4caa6f-16c6-4c3d-901b-9387de10e528_.json", "original_1d4caa6f-16c6-4c3d-901b-9387de10e528_P(1).jpg", true),
        ("PXL_20210102_221126856.MP~2.jpg.json", "PXL_20210102_221126856.MP~2.jpg", true),
        ("13039_327707840323_537645323_9470255_27214_n.j(1).json", "13039_327707840323_537645323_9470255_27214_n(1).jpg", true),
        // Newer exports: the infix, whole or cut to fit.
        ("IMG_1234.jpg.supplemental-metadata.json", "IMG_1234.jpg", true),
        ("IMG_20200101_123456789.jpg.supplemental-metada.json", "IMG_20200101_123456789.jpg", true),
        ("IMG_20200101_12345678.jpg.supplemental-metad.json", "IMG_20200101_12345678.jpg", true),
        ("Screenshot_20240101-101010_WhatsApp.jpg.supple.json", "Screenshot_20240101-101010_WhatsApp.jpg", true),
        ("Screenshot_20240101-101010_WhatsApp.jpg.supple.json", "Screenshot_20240101-101010_WhatsApp.png", false),
        ("IMG_1234.jpg.supplemental-metadata(1).json", "IMG_1234(1).jpg", true),
        ("IMG_1234.jpg.supplemental-metadata(1).json", "IMG_1234.jpg", false),
        ("VID_20190505_101010.mp4.json", "VID_20190505_101010.mp4", true),
        ("metadata.json", "metadata.jpg", false),
    ]

    @Test(arguments: pairs.indices) func aJSONDescribesItsOwnMediaOnly(_ index: Int) {
        let pair = Self.pairs[index]
        let matching = TakeoutSidecarNames.match(media: [pair.media], json: [pair.json])
        #expect((matching.jsonByMedia[pair.media] == pair.json) == pair.matches, "\(pair.json) ↔ \(pair.media)")
        #expect(matching.unmatchedJSON == (pair.matches ? [] : [pair.json]))
    }

    @Test func aFolderOfDuplicatesAndEditsPairsEachWithItsOwn() {
        let media = ["DSC_0101.JPG", "DSC_0101(1).JPG", "DSC_0101(2).JPG", "DSC_0101-edited.JPG", "IMG_9.heic", "IMG_9.mov", "lone.png"]
        let json = ["DSC_0101.JPG.json", "DSC_0101.JPG(1).json", "DSC_0101.JPG(2).json", "IMG_9.heic.json", "IMG_9.mov.json",
                    "gone.jpg.json", "metadata.json", "notes.txt"]
        let matching = TakeoutSidecarNames.match(media: media, json: json)
        #expect(matching.jsonByMedia == [
            "DSC_0101.JPG": "DSC_0101.JPG.json", "DSC_0101(1).JPG": "DSC_0101.JPG(1).json", "DSC_0101(2).JPG": "DSC_0101.JPG(2).json",
            "DSC_0101-edited.JPG": "DSC_0101.JPG.json", "IMG_9.heic": "IMG_9.heic.json", "IMG_9.mov": "IMG_9.mov.json",
        ])
        #expect(matching.unmatchedJSON == ["gone.jpg.json", "metadata.json"])
        #expect(matching.ambiguousJSON == [])
    }

    @Test func twoPhotosCutToOneNameShareNoJSON() {
        // Both names cut to the same 46 units: the JSON cannot tell which it is.
        let a = "IMG_20190704_181512_HDR_very_long_name_from_app_A.jpg", b = "IMG_20190704_181512_HDR_very_long_name_from_app_B.jpg"
        let json = TakeoutSidecarNames.cut(a) + ".json"
        #expect(TakeoutSidecarNames.cut(a) == TakeoutSidecarNames.cut(b))
        let matching = TakeoutSidecarNames.match(media: [a, b], json: [json])
        #expect(matching.jsonByMedia.isEmpty)
        #expect(matching.ambiguousJSON == [json])
    }

    @Test func namesThatAreNotTakeoutsAreLeftAlone() {
        #expect(TakeoutSidecarNames.keys(ofJSON: ".json") == [])
        #expect(TakeoutSidecarNames.keys(ofJSON: "photo.jpg") == [])
        #expect(TakeoutSidecarNames.keys(ofJSON: "a(99999999999999999999).json") == [.init(cutName: "a(99999999999999999999)", index: nil)])
        #expect(TakeoutSidecarNames.keys(ofJSON: "a(١).json") == [.init(cutName: "a(١)", index: nil)], "ASCII digits only")
        #expect(TakeoutSidecarNames.keys(ofJSON: "a.jpg.s(2).JSON") == [.init(cutName: "a.jpg.s", index: 2), .init(cutName: "a.jpg", index: 2)])
        #expect(TakeoutSidecarNames.cut(String(repeating: "é", count: 60)).utf16.count == 46)
        #expect(TakeoutSidecarNames.cut(String(repeating: "😀", count: 30)).utf16.count == 46)
        #expect(TakeoutSidecarNames.cut("a" + String(repeating: "😀", count: 30)).utf16.count == 45, "never half an emoji")
    }
}
