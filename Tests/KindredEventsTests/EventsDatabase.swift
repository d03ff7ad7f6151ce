import KindredTestSupport
import Testing

/// Every test of this target runs in this suite, one at a time, against a PostgreSQL cluster of the suite's
/// own: the restart tests stop it, which must not break other targets' tests on the shared test cluster.
@Suite(.serialized, .privateCluster("events-tests"), .timeLimit(.minutes(1))) struct EventsTests {}
