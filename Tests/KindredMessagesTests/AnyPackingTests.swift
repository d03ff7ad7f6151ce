import KindredMessages
import Testing

@Suite struct AnyPackingTests {
    @Test func packsWithTheStandardTypeURLAndUnpacksTheSameMessage() throws {
        let info = Google_Rpc_ErrorInfo(
            reason: "PARENTAL_CONTROLS_MESSAGING_RESTRICTED", domain: "kindred.app")
        let any = try Google_Protobuf_Any(packing: info)
        #expect(any.typeURL == "type.googleapis.com/google.rpc.ErrorInfo")
        #expect(try any.unpack(Google_Rpc_ErrorInfo.self) == info)
    }

    @Test func unpackingAsAnotherTypeGivesNil() throws {
        let any = try Google_Protobuf_Any(packing: Google_Rpc_RetryInfo(retryDelay: .init(seconds: 5)))
        #expect(try any.unpack(Google_Rpc_ErrorInfo.self) == nil)
        #expect(any.holds(Google_Rpc_RetryInfo.self))
    }

    @Test func aTypeURLFromAnotherHostStillMatchesByName() throws {
        let any = Google_Protobuf_Any(
            typeURL: "example.com/x/google.rpc.RetryInfo", value: [0x0A, 0x02, 0x08, 0x05])
        #expect(try any.unpack(Google_Rpc_RetryInfo.self)?.retryDelay?.seconds == 5)
    }

    @Test(arguments: [
        ("type.googleapis.com/google.rpc.ErrorInfo", "google.rpc.ErrorInfo"),
        ("example.com/x/google.rpc.RetryInfo", "google.rpc.RetryInfo"),
        ("google.rpc.BadRequest", "google.rpc.BadRequest"),
        ("type.googleapis.com/", ""),
    ])
    func theTypeNameIsWhatFollowsTheLastSlash(url: String, name: String) {
        #expect(Google_Protobuf_Any(typeURL: url, value: []).typeName == name)
    }
}
