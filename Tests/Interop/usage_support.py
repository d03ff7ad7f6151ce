"""Usage sessions as a device uploads them, and a time zone in which they fall on today whatever the hour."""

import datetime

from google.protobuf import timestamp_pb2
from kindred.gamification.v1 import usage_pb2


def zone_at_midday():
    """An Etc/GMT zone whose local time is near noon now, so the walk's sessions (the last two hours) fall on
    today and in this week there, whatever the hour of the run."""
    offset = max(-12, min(14, 12 - datetime.datetime.now(datetime.timezone.utc).hour))
    # Etc/GMT names count the other way: Etc/GMT-3 is three hours ahead of UTC.
    return "UTC" if offset == 0 else f"Etc/GMT{-offset:+d}"


def session(session_id, app, minutes_ago, minutes):
    start = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(minutes=minutes_ago)
    end = start + datetime.timedelta(minutes=minutes)
    stamp = lambda moment: timestamp_pb2.Timestamp(seconds=int(moment.timestamp()))
    return usage_pb2.UsageSession(client_session_id=session_id, app_id=app, start_time=stamp(start),
                                  end_time=stamp(end), updated_at=stamp(end))
