import LoadTestKit

/// SQL the seed's statements share.
enum SeedSQL {
    /// The seed's id in `space` of the number `n` (SQL of an integer), as `BabyFamilies.id(space:_:)` and
    /// `SeededUsers.userID` (space 0) make it; `tag` is the seed's hex tag, so it can be SQL text.
    static func id(tag: String, space: Int, _ n: String) -> String {
        "('\(tag)-\(BabyFamilies.hex(space, digits: 4))-4000-8000-' || lpad(to_hex(\(n)), 12, '0'))::uuid"
    }
}
