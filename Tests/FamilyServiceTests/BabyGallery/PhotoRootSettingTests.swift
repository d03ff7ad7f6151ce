@testable import FamilyService
import KindredRuntime
import Testing

/// Where the gallery's bytes go: `var/photos` unless `KINDRED_FAMILY_PHOTO_ROOT` says otherwise.
@Suite struct PhotoRootSettingTests {
    @Test func theRootIsVarPhotosUnlessConfigured() throws {
        #expect(try FamilySettings.photoRoot(in: [:]) == "var/photos")
        #expect(
            try FamilySettings.photoRoot(in: ["KINDRED_FAMILY_PHOTO_ROOT": "/srv/photos/"]) == "/srv/photos")
        #expect(try FamilySettings.photoRoot(in: ["KINDRED_FAMILY_PHOTO_ROOT": "/"]) == "/")
    }

    @Test func anEmptyRootIsRefusedAtStartRatherThanReadAsTheWorkingDirectory() {
        #expect(throws: StartupError.self) {
            try FamilySettings.photoRoot(in: ["KINDRED_FAMILY_PHOTO_ROOT": " "])
        }
    }
}
