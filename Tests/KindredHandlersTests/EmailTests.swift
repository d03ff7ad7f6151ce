import KindredHandlers
import KindredRPC
import KindredTestSupport
import Testing

/// Email addresses: checked once at the edge, one mailbox whatever its spelling's case and surrounding spaces.
@Suite struct EmailTests {
    @Test(arguments: ["ann@example.com", "Ann@Example.COM", "  ann@example.com\t", "ANN@EXAMPLE.COM"])
    func spellingsOfOneMailboxAreEqual(_ text: String) throws {
        let email = try #require(Email(text))
        #expect(email == Email("ann@example.com"))
        #expect(email.normalized == "ann@example.com")
        #expect(Set([email, Email("ann@example.com")!]).count == 1)
        #expect(email.matches(" ANN@example.com "))
    }

    @Test func theAddressKeepsItsCaseAndLosesItsSpaces() {
        #expect(Email(" Ann.Lee+kids@Example.com ")?.address == "Ann.Lee+kids@Example.com")
        #expect(Email.normalized(" Mia_R ") == "mia_r")
    }

    @Test(arguments: [
        ("", "is required"), ("   ", "is required"), ("ann", "is not an email address"),
        ("ann@example", "is not an email address"), ("ann@@example.com", "is not an email address"),
        ("ann lee@example.com", "is not an email address"), ("ann@-example.com", "is not an email address"),
        ("a..b@example.com", "is not an email address"), ("Ann <ann@example.com>", "is not an email address"),
        (String(repeating: "a", count: 250) + "@b.com", "must be at most 254 characters"),
    ])
    func whatIsNoAddressIsRefusedWithItsReason(_ text: String, _ problem: String) {
        #expect(Email(text) == nil)
        #expect(Email.problem(text) == problem)
    }

    @Test func aViolationNamesTheField() throws {
        var violations = FieldViolations()
        #expect(violations.email("guardian_email", "nobody") == nil)
        #expect(violations.email("email", "ann@example.com")?.address == "ann@example.com")
        let refusal = try #require(violations.error)
        #expect(refusal.badFields == ["guardian_email"])
        #expect(throws: RPCError.self) { try FieldViolations.email("email", "") }
    }
}
