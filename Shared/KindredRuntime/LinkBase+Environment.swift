public import KindredMail

extension LinkBase {
    /// The base `KINDRED_<SERVICE>_LINK_BASE` names (empty or unset: `LinkBase.local`), or why it cannot be used.
    public static func configured(for service: String, in environment: [String: String]) throws(StartupError)
        -> LinkBase
    {
        let variable = "KINDRED_\(service.uppercased())_LINK_BASE"
        guard let text = environment[variable], !text.isEmpty else { return .local }
        guard let base = LinkBase(text) else {
            throw StartupError("\(variable): \"\(text)\" is not an http:// or https:// URL")
        }
        return base
    }
}
