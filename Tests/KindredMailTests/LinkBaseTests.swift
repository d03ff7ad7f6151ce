import KindredMail
import Testing

/// Where the links in mail point: only a plain http(s) base, so a token is never appended to a query or
/// fragment an operator left in it.
@Suite struct LinkBaseTests {
    @Test(arguments: [
        ("https://kindred.example/app", "https://kindred.example/app/reset-password?token=abc"),
        ("https://kindred.example/app/", "https://kindred.example/app/reset-password?token=abc"),
        ("http://localhost:8080", "http://localhost:8080/reset-password?token=abc"),
    ])
    func aPlainBaseMakesLinksUnderIt(base: String, link: String) throws {
        #expect(try #require(LinkBase(base)).link("reset-password", token: "abc") == link)
    }

    @Test(arguments: [
        "kindred.example/app", "ftp://kindred.example", "https://kindred.example/?a=1",
        "https://kindred.example/#top", "https://kindred example", "",
    ])
    func anythingElseIsRefused(base: String) {
        #expect(LinkBase(base) == nil)
    }
}
