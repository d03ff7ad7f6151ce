public import KindredEvents
public import KindredMessages

/// Gamification's events as a consumer reads them, in cursor order from its `WatchEvents`.
extension Kindred_Gamification_V1_Event: SequencedEvent {}
