#if canImport(Glibc)
import Glibc
#endif
internal import CLinuxSystem

/// A classic BPF socket filter for a listening socket that drops the packets of some source addresses, so the
/// kernel discards their SYNs: a refused address costs no accept, no handshake and no close, and its client
/// waits out TCP's SYN retransmission (1 s, then 3 s, 7 s…) instead of reconnecting at once. A connection
/// already accepted is not touched (it inherits the filter it was accepted under, which cannot name its own
/// address: that address's SYN would have been dropped).
struct SourceFilter: Equatable {
    /// A source address as the filter compares it: the words of its header field, in network order.
    enum Address: Hashable {
        case v4(UInt32)
        case v6(UInt32, UInt32, UInt32, UInt32)

        /// From a peer address as `FloodCooling` keys it (`ipv4:10.0.0.7`, `ipv6:[2001:db8::1]`); an IPv4
        /// client of a dual-stack listener (`ipv6:[::ffff:10.0.0.7]`) sends IPv4 packets, so it is `.v4`.
        init?(peerAddress: String) {
            if peerAddress.hasPrefix("ipv4:") {
                var address = in_addr()
                guard inet_pton(AF_INET, String(peerAddress.dropFirst(5)), &address) == 1 else { return nil }
                self = .v4(UInt32(bigEndian: address.s_addr))
                return
            }
            guard peerAddress.hasPrefix("ipv6:[") && peerAddress.hasSuffix("]") else { return nil }
            var address = in6_addr()
            guard inet_pton(AF_INET6, String(peerAddress.dropFirst(6).dropLast()), &address) == 1 else {
                return nil
            }
            let words = withUnsafeBytes(of: address) { bytes in
                (0..<4).map {
                    UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: 4 * $0, as: UInt32.self))
                }
            }
            self =
                words[0] == 0 && words[1] == 0 && words[2] == 0xffff
                ? .v4(words[3]) : .v6(words[0], words[1], words[2], words[3])
        }
    }

    /// Addresses past this many are refused at accept only (every jump of the program must stay under 256).
    static let capacity = 64

    let refused: [Address]

    /// Refuses the first `capacity` of `refused`.
    init(refusing refused: some Sequence<Address>) {
        self.refused = Array(refused.prefix(Self.capacity))
    }

    /// The program: the IP version from the network header, then each refused address of that version
    /// compared in turn; a match returns 0 (drop), anything else the whole packet (accept).
    var program: [sock_filter] {
        let v4 = refused.compactMap { if case .v4(let word) = $0 { word } else { nil } }
        let v6 = refused.compactMap {
            if case .v6(let a, let b, let c, let d) = $0 { [a, b, c, d] } else { nil }
        }
        var program = [
            Self.loadByte(at: 0),
            sock_filter(code: UInt16(BPF_ALU | BPF_RSH | BPF_K), jt: 0, jf: 0, k: 4),
            // Not IPv4: skip the IPv4 block (the load, two instructions a word, the accept).
            Self.jumpIfEqual(4, then: 0, else: UInt8(2 + 2 * v4.count)),
            Self.loadWord(at: 12),
        ]
        for word in v4 { program += [Self.jumpIfEqual(word, then: 0, else: 1), Self.drop] }
        program.append(Self.accept)
        for words in v6 {
            for (index, word) in words.enumerated() {
                // A mismatch skips this address's remaining loads and compares, and its drop.
                program += [
                    Self.loadWord(at: 8 + 4 * index),
                    Self.jumpIfEqual(word, then: 0, else: UInt8(7 - 2 * index)),
                ]
            }
            program.append(Self.drop)
        }
        program.append(Self.accept)
        return program
    }

    /// Attaches the program to `fd`, or detaches any filter when nothing is refused; false if the kernel refused.
    func apply(to fd: Int32) -> Bool {
        guard !refused.isEmpty else {
            var unused: Int32 = 0
            let status = setsockopt(
                fd, SOL_SOCKET, SO_DETACH_FILTER, &unused, socklen_t(MemoryLayout<Int32>.size))
            return status == 0 || errno == ENOENT
        }
        var instructions = program
        return instructions.withUnsafeMutableBufferPointer { buffer in
            var header = sock_fprog(len: UInt16(buffer.count), filter: buffer.baseAddress)
            return setsockopt(
                fd, SOL_SOCKET, SO_ATTACH_FILTER, &header, socklen_t(MemoryLayout<sock_fprog>.size)) == 0
        }
    }

    private static let accept = sock_filter(code: UInt16(BPF_RET | BPF_K), jt: 0, jf: 0, k: UInt32.max)
    private static let drop = sock_filter(code: UInt16(BPF_RET | BPF_K), jt: 0, jf: 0, k: 0)

    /// Offsets are from the network (IP) header: a TCP socket's filter sees the packet from its TCP header.
    private static func loadWord(at offset: Int) -> sock_filter {
        sock_filter(
            code: UInt16(BPF_LD | BPF_W | BPF_ABS), jt: 0, jf: 0,
            k: UInt32(bitPattern: SKF_NET_OFF + Int32(offset)))
    }

    private static func loadByte(at offset: Int) -> sock_filter {
        sock_filter(
            code: UInt16(BPF_LD | BPF_B | BPF_ABS), jt: 0, jf: 0,
            k: UInt32(bitPattern: SKF_NET_OFF + Int32(offset)))
    }

    private static func jumpIfEqual(_ value: UInt32, then: UInt8, else otherwise: UInt8) -> sock_filter {
        sock_filter(code: UInt16(BPF_JMP | BPF_JEQ | BPF_K), jt: then, jf: otherwise, k: value)
    }
}
