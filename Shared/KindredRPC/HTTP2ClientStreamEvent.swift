/// What an HTTP/2 client stream reports to the call that opened it, in order: at most one
/// `.headers`, any number of `.data`, at most one `.trailers`, then exactly one `.closed`.
enum HTTP2ClientStreamEvent {
    /// The response header block (`:status` included).
    case headers([(name: String, value: String)])
    /// A chunk of response body bytes.
    case data([UInt8])
    /// The trailing header block, which ends the response.
    case trailers([(name: String, value: String)])
    /// The stream is over; no further event follows.
    case closed(HTTP2StreamClosure)
}

/// How an HTTP/2 client stream ended.
enum HTTP2StreamClosure: Equatable, Sendable {
    /// Both sides finished normally.
    case finished
    /// The peer never processed the request (REFUSED_STREAM, or above a GOAWAY's last stream id):
    /// it is safe to send again on another connection.
    case refused
    /// The stream was reset, by either side, with this HTTP/2 error code.
    case reset(errorCode: UInt32)
    /// The connection failed or closed before the stream finished.
    case connectionLost
    /// The stream was never sent: the connection could not be established.
    case notConnected
}
