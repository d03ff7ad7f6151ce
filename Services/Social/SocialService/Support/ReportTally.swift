/// The rule that makes reports matter: content reported by this many different people is filtered for
/// everyone, whatever their settings. The reports part keeps `social.report_tallies`; the parts that show
/// content leave out what reached the threshold.
enum ReportTally {
    static let filterThreshold = 3
}
