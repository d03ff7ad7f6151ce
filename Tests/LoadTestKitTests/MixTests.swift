import Foundation
import LoadTestKit
import Testing

@Suite struct MixTests {
    // Tests/LoadTest/mix.json documents the standard mix; it must not drift from what the tool runs.
    @Test func theShippedMixFileIsTheStandardMix() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../LoadTest/mix.json")
        let file = try Mix(json: Data(contentsOf: url))
        #expect(file.weights == Mix.standard.weights)
        #expect(Set(file.weights.keys) == Set(Persona.allCases))
    }

    @Test func aPersonaTheFileLeavesOutKeepsItsStandardActions() throws {
        let mix = try Mix(json: Data(#"{"adult": {"listFeed": 1}}"#.utf8))
        #expect(mix.weights[.adult] == [.listFeed: 1])
        #expect(mix.weights[.grandparent] == Mix.standard.weights[.grandparent])
    }

    @Test func anUnknownNameOrNoPositiveWeightIsRefusedSayingWhy() {
        #expect(throws: Mix.Invalid.self) { try Mix(json: Data(#"{"robot": {"getMe": 1}}"#.utf8)) }
        #expect(throws: Mix.Invalid.self) { try Mix(json: Data(#"{"adult": {"dance": 1}}"#.utf8)) }
        do {
            _ = try Mix(json: Data(#"{"adult": {"getMe": 0}}"#.utf8))
            Issue.record("a mix with no positive weight was accepted")
        } catch {
            #expect(error.description.contains("adult"))
        }
    }

    @Test func everyActionOfTheStandardMixIsPicked() {
        var generator = SystemRandomNumberGenerator()
        for persona in Persona.allCases {
            let expected = Set(Mix.standard.weights[persona]!.keys)
            var seen = Set<Persona.Action>()
            for _ in 0..<200_000 where seen != expected {
                seen.insert(Mix.standard.choose(for: persona, using: &generator))
            }
            #expect(seen == expected, "\(persona)")
        }
    }

    // Uploads cost family a sanitizer pass and a file each; the issue asks for them rare and from owners only,
    // as are arrivals (only an owner may announce).
    @Test func onlyOwnersUploadOrAnnounceAndAPhotoIsTheirRarestAction() throws {
        for persona in Persona.allCases where persona != .babyOwner {
            let weights = try #require(Mix.standard.weights[persona])
            #expect(weights[.uploadPhoto] == nil && weights[.announceArrival] == nil, "\(persona)")
        }
        let owner = try #require(Mix.standard.weights[.babyOwner])
        let upload = try #require(owner[.uploadPhoto])
        #expect(upload == owner.values.min())
        #expect(Double(upload) / Double(owner.values.reduce(0, +)) <= 0.05)
    }

    @Test func followersSeeTheGalleryAndTheArrival() throws {
        let grandparent = try #require(Mix.standard.weights[.grandparent])
        for action in [Persona.Action.viewGallery, .squishPhoto, .viewArrival, .squishArrival] {
            #expect((grandparent[action] ?? 0) > 0, "\(action)")
        }
    }
}
