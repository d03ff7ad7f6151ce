public import FoundationEssentials

// Generated fields of type google.type.Date are `DateComponents` (as a contact's birthday is in Apple's SDKs):
// the bridge converts through these two. The value is what the caller sent, real date or not; a handler checks
// it (`CalendarDate`). A 0 on the wire is a part the date leaves out, nil in the components.
extension Google_Type_Date {
    /// The date of `components`' year, month and day; a part left out (nil) is 0.
    public init(_ components: DateComponents) {
        self.init(
            year: Int32(clamping: components.year ?? 0), month: Int32(clamping: components.month ?? 0),
            day: Int32(clamping: components.day ?? 0))
    }

    /// The year, month and day, each nil when 0.
    public var components: DateComponents {
        func part(_ value: Int32) -> Int? { value == 0 ? nil : Int(value) }
        return DateComponents(year: part(year), month: part(month), day: part(day))
    }
}
