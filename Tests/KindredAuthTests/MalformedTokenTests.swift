@testable import KindredAuth
import Testing

/// One malformed input and why it is malformed.
struct MalformedCase: CustomTestStringConvertible, Sendable {
    let name: String
    let token: String
    var testDescription: String { name }

    /// A token whose header and signature are right but whose claims are `payload`.
    static func claims(_ name: String, _ payload: String) -> MalformedCase {
        MalformedCase(name: name, token: Fixture.token(header: Fixture.header(), payload: payload))
    }

    /// A correctly signed token with `header`.
    static func header(_ name: String, _ header: String) -> MalformedCase {
        MalformedCase(name: name, token: Fixture.token(header: header, payload: validPayload))
    }

    static let validPayload = String(decoding: Fixture.claims().jsonBytes, as: UTF8.self)
    static let validToken = Fixture.token(header: Fixture.header(), payload: validPayload)
    static var validParts: [Substring] { validToken.split(separator: ".", omittingEmptySubsequences: false) }

    /// The valid claims with one member's text replaced.
    static func claims(_ name: String, replacing old: String, with new: String) -> MalformedCase {
        precondition(validPayload.contains(old))
        return claims(name, validPayload.replacing(old, with: new))
    }

    static let all: [MalformedCase] = [
        MalformedCase(name: "empty", token: ""),
        MalformedCase(name: "one part", token: "abc"),
        MalformedCase(name: "two parts", token: "\(validParts[0]).\(validParts[1])"),
        MalformedCase(name: "four parts", token: validToken + ".e30"),
        MalformedCase(name: "empty header", token: ".\(validParts[1]).\(validParts[2])"),
        MalformedCase(name: "header not base64url", token: "e30+.\(validParts[1]).\(validParts[2])"),
        MalformedCase(name: "padded header", token: "\(validParts[0])=.\(validParts[1]).\(validParts[2])"),
        MalformedCase(name: "header not JSON", token: "bm90IGpzb24.\(validParts[1]).\(validParts[2])"),
        MalformedCase(name: "signature not base64url", token: "\(validParts[0]).\(validParts[1]).!!!!"),
        MalformedCase(
            name: "signature one byte short",
            token: "\(validParts[0]).\(validParts[1]).\(validParts[2].dropLast(2))"),
        MalformedCase(name: "oversized", token: String(repeating: "a", count: 9_000) + "." + validToken),
        header("header is an array", #"["EdDSA"]"#),
        header("no kid", #"{"alg":"EdDSA","typ":"JWT"}"#),
        header("kid not a string", #"{"alg":"EdDSA","kid":7}"#),
        header("critical extension", #"{"alg":"EdDSA","kid":"\#(Fixture.key().keyID)","crit":"b64"}"#),
        header("duplicate alg", #"{"alg":"EdDSA","alg":"EdDSA","kid":"\#(Fixture.key().keyID)"}"#),
        claims("claims not JSON", #"{"sub":"#),
        claims("claims empty object", "{}"),
        claims("claims trailing bytes", validPayload + "x"),
        claims("claims nested", #"{"sub":{"id":"u"}}"#),
        claims("pc as a string", replacing: #""pc":true"#, with: #""pc":"true""#),
        claims("exp as a string", replacing: #""exp":1790000900"#, with: #""exp":"1790000900""#),
        claims("exp with a fraction", replacing: #""exp":1790000900"#, with: #""exp":1790000900.5"#),
        claims("exp with an exponent", replacing: #""exp":1790000900"#, with: #""exp":1.7e9"#),
        claims("exp with a leading zero", replacing: #""exp":1790000900"#, with: #""exp":01790000900"#),
        claims("exp overflowing", replacing: #""exp":1790000900"#, with: #""exp":99999999999999999999"#),
        claims("exp after year 9999", replacing: #""exp":1790000900"#, with: #""exp":253402300800"#),
        claims(
            "exp at the largest integer", replacing: #""exp":1790000900"#, with: #""exp":9223372036854775807"#
        ),
        claims("iat before 1970", replacing: #""iat":1790000000"#, with: #""iat":-1"#),
        claims("exp before iat", replacing: #""exp":1790000900"#, with: #""exp":1789999999"#),
        claims("unknown role", replacing: #""role":"user""#, with: #""role":"root""#),
        claims("unknown age band", replacing: #""age_band":"13-15""#, with: #""age_band":"12""#),
        claims("unknown scope", replacing: #""scope":"child_readonly""#, with: #""scope":"read""#),
        claims("empty sub", replacing: #""sub":"0192f5e0-7c1a-7b3e-8f00-000000000001""#, with: #""sub":"""#),
        claims("sub null", replacing: #""sub":"0192f5e0-7c1a-7b3e-8f00-000000000001""#, with: #""sub":null"#),
        claims("no jti", replacing: #","jti":"0192f5e0-7c1a-7b3e-8f00-0000000000aa""#, with: ""),
        claims(
            "duplicate scope", replacing: #""scope":"child_readonly""#,
            with: #""scope":"child_readonly","scope":"full""#),
        claims("raw control character", replacing: #""role":"user""#, with: "\"role\":\"us\ner\""),
        claims("empty guardian_pin", replacing: #""pc":true"#, with: #""pc":true,"guardian_pin":"""#),
        claims("guardian_pin not text", replacing: #""pc":true"#, with: #""pc":true,"guardian_pin":1"#),
    ]
}

@Suite struct MalformedTokenTests {
    @Test(arguments: MalformedCase.all)
    func aMalformedTokenIsRefusedAsMalformed(_ malformed: MalformedCase) {
        let verifier = TokenVerifier(keys: [Fixture.key().verificationKey], clock: ManualClock().tokenClock)
        #expect(throws: TokenVerificationError.malformed) { try verifier.verify(malformed.token) }
    }

    @Test func theTableStartsFromATokenThatVerifies() throws {
        let verifier = TokenVerifier(keys: [Fixture.key().verificationKey], clock: ManualClock().tokenClock)
        #expect(try verifier.verify(MalformedCase.validToken).principal == .account(Fixture.account))
    }

    @Test func unknownClaimsAndEscapedTextAreRead() throws {
        let verifier = TokenVerifier(keys: [Fixture.key().verificationKey], clock: ManualClock().tokenClock)
        let payload = MalformedCase.validPayload
            .replacing(
                #""sub":"0192f5e0-7c1a-7b3e-8f00-000000000001""#, with: #""sub":"\u00e9\ud83d\ude00\/\"""#
            )
            .replacing(#""pc":true"#, with: #" "pc" : true , "aud":"kindred","nbf":null,"n":-3 "#)
        let caller = try verifier.verify(Fixture.token(header: Fixture.header(), payload: payload))
        #expect(caller.principal == .client("é😀/\""))
        #expect(caller.parentalControls)
    }
}
