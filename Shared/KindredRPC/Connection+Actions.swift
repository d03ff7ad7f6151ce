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
            let armed = loop.schedule(after: delay) { [weak self] in self?.timerFired(timer) }
            if timer == .handshakeDeadline { handshakeTimer = armed }
        case .cancel(let timer):
            // Only the handshake deadline is cancelled: one per connection, so 10,000 silent sockets' timers
            // do not outlive their handshakes; the others find the state moved on when they fire.
            guard timer == .handshakeDeadline, let handshakeTimer else { return }
            loop.cancel(handshakeTimer)
            self.handshakeTimer = nil
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
            handshakeTimer = nil
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
