import FoundationEssentials
import KindredHandlers
import KindredPostgres

/// The page-token decoder every list RPC runs on the client's opaque `page_token`: the first input byte
/// says how many fields the list expects (0–4), the rest is the token. A token that decodes re-encodes
/// to one that decodes to the same fields, and an instant field reads as a date that a list can bind as
/// a query parameter and write into its next token, as the lists do.
func fuzzPageToken(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    let count = Int(data[0] % 5)
    let token = String(decoding: UnsafeBufferPointer(start: data + 1, count: size - 1), as: UTF8.self)
    guard let fields = Paging.fields(of: token, count: count) else { return 0 }
    precondition(fields.count == count, "a token decoded to the wrong number of fields")
    for field in fields {
        precondition(!field.contains("\n"), "a field holds a newline")
        if let instant = Paging.instant(field) {
            var parameter: [UInt8] = []
            _ = instant.encodePostgres(into: &parameter)
            _ = Paging.field(instant)
        }
    }
    let reissued: String
    switch count {
    case 0: reissued = Paging.token()
    case 1: reissued = Paging.token(fields[0])
    case 2: reissued = Paging.token(fields[0], fields[1])
    case 3: reissued = Paging.token(fields[0], fields[1], fields[2])
    default: reissued = Paging.token(fields[0], fields[1], fields[2], fields[3])
    }
    precondition(Paging.fields(of: reissued, count: count) == fields, "a re-issued token reads differently")
    return 0
}
