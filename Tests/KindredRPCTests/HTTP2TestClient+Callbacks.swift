import CNGHTTP2

// The nghttp2 client callbacks of `HTTP2TestClient`: they capture nothing and recover the client from user_data.

func client(_ userData: UnsafeMutableRawPointer?) -> HTTP2TestClient {
    Unmanaged<HTTP2TestClient>.fromOpaque(userData!).takeUnretainedValue()
}

func clientOnHeader(
    _ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?, _ name: UnsafePointer<UInt8>?,
    _ nameLength: Int,
    _ value: UnsafePointer<UInt8>?, _ valueLength: Int, _ flags: UInt8, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    client(userData).header(
        frame!, String(decoding: UnsafeBufferPointer(start: name, count: nameLength), as: UTF8.self),
        String(decoding: UnsafeBufferPointer(start: value, count: valueLength), as: UTF8.self))
    return 0
}

func clientOnData(
    _ session: OpaquePointer?, _ flags: UInt8, _ streamID: Int32, _ data: UnsafePointer<UInt8>?,
    _ length: Int,
    _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    client(userData).responses[streamID]?.data.append(
        contentsOf: UnsafeBufferPointer(start: data, count: length))
    return 0
}

func clientOnClose(
    _ session: OpaquePointer?, _ streamID: Int32, _ errorCode: UInt32, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    client(userData).responses[streamID]?.closed = true
    client(userData).responses[streamID]?.resetCode = errorCode
    return 0
}

func clientOnFrame(
    _ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    client(userData).frameReceived(frame!)
    return 0
}

func clientRead(
    _ session: OpaquePointer?, _ streamID: Int32, _ buffer: UnsafeMutablePointer<UInt8>?, _ length: Int,
    _ flags: UnsafeMutablePointer<UInt32>?, _ source: UnsafeMutablePointer<nghttp2_data_source>?,
    _ userData: UnsafeMutableRawPointer?
) -> Int {
    client(userData).produce(into: buffer!, length: length, streamID: streamID, flags: flags!)
}
