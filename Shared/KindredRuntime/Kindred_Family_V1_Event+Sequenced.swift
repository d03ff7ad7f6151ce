public import KindredEvents
public import KindredMessages

/// Family's events as a consumer reads them (gamification), in cursor order from its `WatchEvents`.
extension Kindred_Family_V1_Event: SequencedEvent {}
