#if canImport(Glibc)
import Glibc
#endif
internal import CNGHTTP2

/// Carries out what `ConnectionState` answers: timers on the loop, frames through nghttp2, the socket.
extension Connection {
    func perform(_ actions: [ConnectionState.Action]) {
        loop.assertInLoop()
        for action in actions { perform(action) }
    }

    private func perform(_ action: ConnectionState.Action) {
        switch action {
        case .arm(let timer, let delay):
            // The timer holds the connection strongly and `tearDown` cancels it: a weak reference would give the
            // connection a side table, and every retain and release of it would take the runtime's slow path
            // (7% of a Health/Check's CPU, most of it in nghttp2's per-header callback).
            armedTimers[timer] = loop.schedule(after: delay) { [self] in
                armedTimers[timer] = nil
                timerFired(timer)
            }
        case .cancel(let timer):
            // So 10,000 silent sockets' handshake deadlines do not outlive their handshakes.
            if let armed = armedTimers.removeValue(forKey: timer) { loop.cancel(armed) }
        case .sendPing:
            nghttp2_submit_ping(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), nil)
            markDirty()
        case .goAway(let kind):
            submitGoAway(kind)
            markDirty()
        case .halfClose:
            shutdown(fd, Int32(SHUT_WR))
        case .endStreams:
            for call in calls.values where call.route?.streamingResponse == true { call.drainTimedOut() }
            flush()
        case .close:
            close()
        case .tearDown:
            tearDown()
        case .releasePlace:
            core.connectionClosed()
        }
    }

    /// The loop's maintenance tick (about once a second): keepalive, idle timeout and age.
    func maintain(now: UInt64) {
        let actions = state.tick(now: now, callsOpen: !calls.isEmpty)
        if actions.contains(.close) {
            core.logger.debug("keepalive PING unanswered; closing", metadata: ["peer": "\(peer)"])
        } else if actions.contains(.goAway(.lastStreamTaken)) {
            core.logger.debug("closing idle connection", metadata: ["peer": "\(peer)"])
        }
        perform(actions)
    }

    private func timerFired(_ timer: ConnectionState.Timer) {
        switch timer {
        case .handshakeDeadline:
            var byte: UInt8 = 0
            let waiting = recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) > 0
            let actions = state.handshakeDeadlinePassed(clientBytesWaiting: waiting)
            if actions.contains(.close) {
                core.logger.debug(
                    "closing a connection that did not finish its handshake", metadata: ["peer": "\(peer)"])
            } else if waiting {
                core.logger.debug(
                    "the handshake deadline passed with the client's bytes unread; the loop is behind, waiting again",
                    metadata: ["peer": "\(peer)"])
            }
            perform(actions)
        case .finalGoAway:
            perform(state.finalGoAwayDue())
        case .grace:
            perform(state.graceOver())
        case .linger:
            close()
        }
    }

    private func submitGoAway(_ kind: ConnectionState.GoAway) {
        switch kind {
        case .notice:
            core.logger.debug(
                "connection reached its maximum age; asking the client to move", metadata: ["peer": "\(peer)"]
            )
            nghttp2_submit_shutdown_notice(session)
        case .lastStreamTaken:
            nghttp2_submit_goaway(
                session, UInt8(NGHTTP2_FLAG_NONE.rawValue),
                nghttp2_session_get_last_proc_stream_id(session), NGHTTP2_NO_ERROR.rawValue, nil, 0)
        case .refusal:
            let reason = Array("too many connections".utf8)
            nghttp2_submit_goaway(
                session, UInt8(NGHTTP2_FLAG_NONE.rawValue), 0, NGHTTP2_REFUSED_STREAM.rawValue,
                reason, reason.count)
        case .enhanceYourCalm:
            nghttp2_session_terminate_session(session, NGHTTP2_ENHANCE_YOUR_CALM.rawValue)
        }
    }
}
