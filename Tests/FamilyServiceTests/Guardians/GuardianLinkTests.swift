@testable import FamilyService
import Foundation
import KindredRuntime
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// `ListGuardianLinks`, `RemoveGuardianLink`, and the checks other parts ask.
@Suite struct GuardianLinkTests {
    @Test func eachSideListsItsLinksAndTheMinorTheirPendingInvitations() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let rules = GuardianRules(pool)
            let (mia, leo, dad) = (FamilyCallers.minor(), FamilyCallers.minor(), FamilyCallers.adult())
            let miaLink = try await rules.link(dad, to: mia)
            rules.clock.advance(seconds: 1)
            let leoLink = try await rules.link(dad, to: leo)
            let (pending, _) = try await rules.invite("mum@example.com", from: mia)
            let (expired, _) = try await rules.invite("gran@example.com", from: mia)
            rules.clock.advance(seconds: 3_600)
            try await pool.query(
                "UPDATE family.guardian_invitations SET expires_at = \(rules.clock.now) WHERE id = \(expired.id)::uuid"
            )

            let asMinor = try await rules.guardians.links(of: mia)
            #expect(asMinor.links == [miaLink] && asMinor.pending.map(\.id) == [pending.id])
            let asGuardian = try await rules.guardians.links(of: dad)
            #expect(asGuardian.links == [miaLink, leoLink] && asGuardian.pending.isEmpty)
            let stranger = try await rules.guardians.links(of: FamilyCallers.adult())
            #expect(stranger.links.isEmpty && stranger.pending.isEmpty)
        }
    }

    @Test func onlyTheGuardianEndsALink() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let rules = GuardianRules(pool)
            let (mia, dad, mum) = (FamilyCallers.minor(), FamilyCallers.adult(), FamilyCallers.adult())
            let link = try await rules.link(dad, to: mia)
            try await rules.link(mum, to: mia)
            let otherFamilysGuardian = FamilyCallers.adult()
            try await rules.link(otherFamilysGuardian, to: FamilyCallers.minor())

            let byMinor = await rpcError {
                try await rules.guardians.remove(link: link.id, as: mia)
            }
            #expect(byMinor?.code == .permissionDenied && byMinor?.reason == "ONLY_GUARDIAN_MAY_REMOVE")
            for outsider in [mum, otherFamilysGuardian, FamilyCallers.adult(), FamilyCallers.service] {
                let error = await rpcError {
                    try await rules.guardians.remove(link: link.id, as: outsider)
                }
                #expect(error?.code == .notFound && error?.reason == "GUARDIAN_LINK_NOT_FOUND")
            }
            #expect(try await rules.guardians.isGuardian(dad.accountUserID!, of: mia.accountUserID!))

            try await rules.guardians.remove(link: link.id, as: dad)
            #expect(try await !rules.guardians.isGuardian(dad.accountUserID!, of: mia.accountUserID!))
            #expect(try await rules.guardians.guardians(of: mia.accountUserID!) == [mum.accountUserID])
            let again = await rpcError {
                try await rules.guardians.remove(link: link.id, as: dad)
            }
            #expect(again?.code == .notFound)
        }
    }

    @Test func theChecksOtherPartsAskAgreeInsideAndOutsideATransaction() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let rules = GuardianRules(pool)
            let (mia, dad, mum) = (FamilyCallers.minor(), FamilyCallers.adult(), FamilyCallers.adult())
            try await rules.link(dad, to: mia)
            rules.clock.advance(seconds: 1)
            try await rules.link(mum, to: mia)
            let guardians = rules.guardians
            #expect(
                try await guardians.guardians(of: mia.accountUserID!) == [
                    dad.accountUserID, mum.accountUserID,
                ])
            #expect(try await guardians.isGuardian(dad.accountUserID!, of: mia.accountUserID!))
            #expect(try await !guardians.isGuardian(mia.accountUserID!, of: dad.accountUserID!))
            let inside = try await pool.transaction { tx in
                (
                    try await guardians.guardians(of: mia.accountUserID!, in: tx),
                    try await guardians.isGuardian(mum.accountUserID!, of: mia.accountUserID!, in: tx),
                    try await guardians.guardians(of: FamilyCallers.adult().accountUserID!, in: tx)
                )
            }
            #expect(inside.0 == [dad.accountUserID, mum.accountUserID] && inside.1 && inside.2.isEmpty)
        }
    }
}
