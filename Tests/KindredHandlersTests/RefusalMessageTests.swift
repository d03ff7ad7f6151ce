import KindredAuth
import KindredHandlers
import KindredTestSupport
import Testing

/// Every refusal of every service says, in a short plain sentence an app can show as it is, what happened
/// and what to do; `ErrorInfo.reason` is the machine-readable part. Before, social and the token layer
/// answered with developer strings ("no such user", "a child-mode token may only read").
@Suite struct RefusalMessageTests {
    /// The repository's refusals, scanned once for the tests that read them (a scan is seconds of a debug
    /// build's CPU, on a 2-core machine whose whole suite waits behind it); a task, so that the second test
    /// suspends while the first scans instead of blocking a cooperative thread on the static's lock.
    static let repository = Task { RefusalSources(files: try RefusalSources.repositoryFiles()) }

    @Test func everyRefusalWrittenInTheSourcesIsASentenceAnAppCanShow() async throws {
        let sources = try await Self.repository.value
        let unfit = sources.messages.filter { !RefusalSources.isShowable($0.text) }
        #expect(
            unfit.isEmpty,
            "not a sentence an app can show:\n\(unfit.map(\.description).joined(separator: "\n"))")
        #expect(
            sources.unreadable.isEmpty,
            "a message that is neither a literal nor a message parameter passed on:\n\(sources.unreadable)")
        // The scan reads what it should: every service's refusals, wrappers followed to their callers.
        let places = Set(sources.messages.map { $0.place.split(separator: ":")[0] })
        for file in [
            "Services/Identity/IdentityService/IdentityError+SignIn.swift",
            "Services/Family/FamilyService/Support/FamilyError+GuardianPin.swift",
            "Services/Social/SocialService/Support/SocialError+Messages.swift",
            "Shared/KindredRPC/CallAuthentication.swift",
        ] {
            #expect(places.contains(Substring(file)), "\(file) was not scanned")
        }
        #expect(sources.messages.count > 80)
        let unfitProblems = sources.fieldProblems.filter { !RefusalSources.isFieldProblem($0.text) }
        #expect(unfitProblems.isEmpty, "a field's problem that makes no sentence:\n\(unfitProblems)")
        #expect(sources.fieldProblems.count > 40)
    }

    @Test func parentalControlsRefusalsSayParentalControlsRestrictTheActionAndWhomToAsk() async throws {
        let sources = try await Self.repository.value
        let restricted = sources.messages.filter { $0.reason?.hasPrefix("PARENTAL_CONTROLS_") == true }
        #expect(restricted.count >= 2)
        for message in restricted {
            #expect(
                message.text.hasPrefix("Parental controls") && message.text.contains("Ask a guardian"),
                "\(message)")
        }
    }

    @Test(arguments: TokenVerificationError.allCases)
    func tokenRefusalsAreSentences(reason: TokenVerificationError) {
        #expect(RefusalSources.isShowable(reason.message) && reason.message.contains("sign in again"))
    }

    @Test(arguments: [
        ("reason", "is required", "Reason is required."),
        (
            "page.page_token", "is not a page token of this list",
            "Page token is not a page token of this list."
        ),
        ("media[2].url", "must be an https URL", "Url must be an https URL."),
        ("update_mask", "names an unknown field \"email\".", "Update mask names an unknown field \"email\"."),
    ])
    func fieldViolationsReadAsSentences(field: String, problem: String, sentence: String) throws {
        var violations = FieldViolations()
        violations.add(field, problem)
        violations.add("title", "is required")
        let error = try #require(violations.error)
        #expect(error.badFieldDescriptions == [sentence, "Title is required."])
        #expect(error.message == "\(sentence) Title is required." && RefusalSources.isShowable(error.message))
    }

    /// The scanner itself: a lower-case message is caught wherever it is written, through a wrapper too, and
    /// a message that is not written where it is refused cannot slip by.
    @Test func theScanCatchesAMessageNoAppCanShowAndOneItCannotRead() {
        let source = """
            enum FutureError {
                static func refusal(_ code: StatusCode, _ reason: String, _ message: String) -> RPCError {
                    RPCError.refusal(code, reason, message, domain: "kindred.future")
                }
                static func withField(_ reason: String, field: String, _ message: String) -> RPCError {
                    refusal(.invalidArgument, reason, message)
                }
                static let fine = refusal(.notFound, "NO_THING", "There is no such thing.", metadata: ["k": "v"])
                static let rude = refusal(.notFound, "NO_THING", "no such thing")
                static let wrapped = withField("BAD_FIELD", field: "name", "bad name")
                static let hidden = refusal(.notFound, "NO_THING", someText)
                static let bug = RPCError(.internal, "the database lost a row")
            }
            """
        let sources = RefusalSources(files: [("Services/Future/FutureError.swift", source)])
        #expect(sources.messages.map(\.text) == ["There is no such thing.", "no such thing", "bad name"])
        #expect(sources.unreadable.map(\.arguments) == [".notFound, \"NO_THING\", someText"])
        #expect(
            !RefusalSources.isShowable("no such thing")
                && RefusalSources.isShowable("There is no such thing."))
    }
}
