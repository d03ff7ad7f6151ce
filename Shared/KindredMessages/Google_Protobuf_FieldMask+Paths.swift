// Generated fields of type google.protobuf.FieldMask are the `[String]` of its paths (an unset mask is empty):
// the bridge converts through this init and `paths`.
extension Google_Protobuf_FieldMask {
    /// A mask of `paths`, e.g. `["display_name"]`.
    public init(_ paths: [String]) {
        self.init(paths: paths)
    }
}
