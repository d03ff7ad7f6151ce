public import KindredEvents
public import KindredMessages

/// Identity's events as a consumer reads them, in cursor order from its `WatchEvents`.
extension Kindred_Identity_V1_Event: SequencedEvent {}
