#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import FuzzFixtures
@testable import KindredAuth
import KindredHandlers
import KindredMessages
@testable import KindredRPC

// Writes the seed corpus under the directory given as the only argument, one folder per fuzz target: real
// framed messages, real requests, real tokens signed with the fixture key, real page tokens. The connection
// seeds are captured from grpcio by `capture-grpcio.py` instead. Run by hand after a format changes:
// `Tests/Fuzz/build && Tests/Fuzz/.build/release/FuzzSeeds Tests/Fuzz/corpus`.

let corpus = CommandLine.arguments.dropFirst().first ?? "corpus"
writeMessageSeeds(corpus)
writeTokenSeeds(corpus)
print("wrote seeds under \(corpus)")

func write(_ corpus: String, _ target: String, _ name: String, _ bytes: [UInt8]) {
    let directory = "\(corpus)/\(target)"
    mkdir(corpus, 0o755)
    mkdir(directory, 0o755)
    guard let file = fopen("\(directory)/\(name)", "wb") else {
        fatalError("cannot write \(directory)/\(name)")
    }
    _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
    fclose(file)
}

func selector<Message: ProtoMessage>(of _: Message.Type) -> UInt8 {
    UInt8(requestTypes.firstIndex { $0 == Message.self }!)
}

func request<Message: ProtoMessage>(_ message: Message) -> [UInt8] {
    [selector(of: Message.self)] + (try! message.serializedBytes())
}

func writeMessageSeeds(_ corpus: String) {
    // Messages: every request type empty (all defaults), and a few as apps fill them.
    for (index, type) in requestTypes.enumerated() {
        write(corpus, "messages", "empty-\(type.protoMessageName)", [UInt8(index)])
    }
    var register = Kindred_Identity_V1_RegisterAccountRequest()
    register.requestID = "0193a5c2-7d1e-7000-8000-0000000000a1"
    register.email = "ada@example.com"
    register.username = "ada"
    register.password = "correct horse battery staple"
    register.dateOfBirth = DateComponents()
    register.dateOfBirth?.year = 1990
    register.dateOfBirth?.month = 12
    register.dateOfBirth?.day = 10
    write(corpus, "messages", "register-account", request(register))
    var message = Kindred_Social_V1_SendMessageRequest()
    message.requestID = "0193a5c2-7d1e-7000-8000-0000000000a2"
    message.recipientUserID = "0193a5c2-7d1e-7000-8000-00000000f023"
    message.text = "See you at the park at 4 ✨"
    write(corpus, "messages", "send-message", request(message))
    var feed = Kindred_Social_V1_ListFeedRequest()
    feed.page = Kindred_Common_V1_PageRequest()
    feed.page?.pageSize = 20
    feed.page?.pageToken = Paging.token("1795564800000000", "0193a5c2-7d1e-7000-8000-0000000000a3")
    write(corpus, "messages", "list-feed", request(feed))
    var baby = Kindred_Family_V1_CreateBabyProfileRequest()
    baby.requestID = "0193a5c2-7d1e-7000-8000-0000000000a4"
    baby.name = "Noa"
    baby.expectedBirthDate = DateComponents()
    baby.expectedBirthDate?.year = 2027
    baby.expectedBirthDate?.month = 3
    baby.expectedBirthDate?.day = 1
    write(corpus, "messages", "create-baby-profile", request(baby))
    var echo = Grpc_Testing_SimpleRequest()
    echo.responseSize = 5
    echo.payload = Grpc_Testing_Payload()
    echo.payload?.body = Array("hello".utf8)
    write(corpus, "messages", "simple-request", request(echo))

    // Deframer: the first byte is the chunk size less one; then gRPC length-prefixed messages.
    let echoBytes = try! echo.serializedBytes()
    var framed: [UInt8] = []
    MessageDeframer.frame(echoBytes, compressed: false, into: &framed)
    write(corpus, "deframer", "one-message", [0xFF] + framed)
    var two = framed
    MessageDeframer.frame(try! message.serializedBytes(), compressed: false, into: &two)
    write(corpus, "deframer", "two-messages-in-3-byte-chunks", [2] + two)
    var gzipped: [UInt8] = []
    MessageDeframer.frame(
        MessageEncoding.gzip(try! register.serializedBytes()), compressed: true, into: &gzipped)
    write(corpus, "deframer", "gzip-message", [0x0F] + gzipped)
    var empty: [UInt8] = []
    MessageDeframer.frame([], compressed: false, into: &empty)
    write(corpus, "deframer", "empty-message", [0] + empty)

}

func writeTokenSeeds(_ corpus: String) {
    // Tokens:0 + a whole token; 1 + a header to sign; 2 + claims to sign.
    let token = FuzzFixtures.token
    let parts = token.split(separator: ".")
    write(corpus, "token", "valid", [0] + Array(token.utf8))
    write(corpus, "token", "header", [1] + Base64URL.decode(parts[0].utf8)!)
    write(corpus, "token", "claims", [2] + Base64URL.decode(parts[1].utf8)!)
    var expired = FuzzFixtures.claims
    expired.issuedAt = FuzzFixtures.now - 3600
    expired.expiresAt = FuzzFixtures.now - 2700
    write(
        corpus, "token", "expired", [0] + Array(TokenSigner(key: FuzzFixtures.signingKey).sign(expired).utf8))
    write(
        corpus, "token", "claims-child-mode",
        [2]
            + Array(
                #"{"sub":"0193a5c2-7d1e-7000-8000-00000000f024","role":"user","age_band":"13-15","pc":true,"scope":"child_readonly","iat":1795564740,"exp":1795565640,"jti":"j2"}"#
                    .utf8))
    write(corpus, "token", "header-alg-none", [1] + Array(#"{"alg":"none","kid":"k"}"#.utf8))
    let noneToken = Base64URL.encode(Array(#"{"alg":"none"}"#.utf8)) + "." + parts[1] + "."
    write(corpus, "token", "alg-none", [0] + Array(noneToken.utf8))
    let tampered = String(token.dropLast(2)) + (token.hasSuffix("AA") ? "AQ" : "AA")
    write(corpus, "token", "tampered-signature", [0] + Array(tampered.utf8))

    // Page tokens: the first byte is the number of fields the list expects.
    write(
        corpus, "page-token", "instant-and-id",
        [2] + Array(Paging.token("1795564800000000", "0193a5c2-7d1e-7000-8000-0000000000a3").utf8))
    write(corpus, "page-token", "prefix-and-offset", [3] + Array(Paging.token("ad", "", "120").utf8))
    write(
        corpus, "page-token", "one-field",
        [1] + Array(Paging.token("0193a5c2-7d1e-7000-8000-0000000000a3").utf8))
    write(corpus, "page-token", "wrong-count", [4] + Array(Paging.token("a", "b").utf8))
}
