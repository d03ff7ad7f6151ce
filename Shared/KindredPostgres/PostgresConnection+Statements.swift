internal import CLibPQ

extension PostgresConnection {
    /// A statement prepared on this connection (or being prepared: its Parse is on the wire).
    struct PreparedStatement {
        let name: String
        /// Its words allow a declared pure read to share a segment's transaction (see `wordsAllowSharing`).
        let wordsAllowSharing: Bool
    }

    /// How a query goes out: under a name already prepared, or prepared now under a new one.
    struct StatementPlan {
        let key: StatementKey
        let name: String
        let preparing: Bool
        let wordsAllowSharing: Bool
        let isPureRead: Bool

        /// Declared a pure read, and its words agree: it may share a segment's transaction.
        var sharesTransaction: Bool { isPureRead && wordsAllowSharing }
    }

    /// The name `query` runs under; a statement not prepared yet gets a new name, reserved on this connection.
    func plan(_ query: PostgresQuery) -> StatementPlan {
        let key = StatementKey(sql: query.sql, types: query.binds.types)
        if let known = statements[key] {
            return StatementPlan(
                key: key, name: known.name, preparing: false, wordsAllowSharing: known.wordsAllowSharing,
                isPureRead: query.isPureRead)
        }
        return StatementPlan(
            key: key, name: statementName(for: key), preparing: true,
            wordsAllowSharing: Self.wordsAllowSharing(query.sql), isPureRead: query.isPureRead)
    }

    /// Queues Parse (when preparing), Bind and Execute, without a sync: the caller ends the segment. A new
    /// statement is known at once, so later sends reuse its name; libpq keeps them behind its Parse on the
    /// wire. False if libpq refused, and then part of it may have gone out.
    func send(_ query: PostgresQuery, as plan: StatementPlan) -> Bool {
        let binds = query.binds
        if plan.preparing {
            guard PQsendPrepare(pointer, plan.name, query.sql, Int32(binds.count), binds.types) == 1 else {
                return false
            }
            statements[plan.key] = PreparedStatement(
                name: plan.name, wordsAllowSharing: plan.wordsAllowSharing)
        }
        let sent = binds.bytes.withUnsafeBufferPointer { buffer in
            // The value pointers live on the stack: libpq copies the values before returning.
            withUnsafeTemporaryAllocation(of: UnsafePointer<CChar>?.self, capacity: binds.count) { values in
                let base = UnsafeRawPointer(buffer.baseAddress)
                for (index, offset) in binds.offsets.enumerated() {
                    values[index] =
                        binds.lengths[index] < 0
                        ? nil : base.map { ($0 + offset).assumingMemoryBound(to: CChar.self) }
                }
                return PQsendQueryPrepared(
                    pointer, plan.name, Int32(binds.count), values.baseAddress, binds.lengths, binds.formats,
                    1)
            }
        }
        return sent == 1
    }

    /// Ends the pipeline segment sent so far: the server commits its implicit transaction and answers.
    func sync() -> Bool { PQpipelineSync(pointer) == 1 }

    /// Forgets `name` after its Parse failed or was skipped: the server does not have it.
    func forget(_ name: String, key: StatementKey) {
        if statements[key]?.name == name { statements[key] = nil }
        statementNames.remove(name)
    }

    /// Whether a statement declared a pure read (`pureRead(_:)`) may share a segment's implicit transaction
    /// with other callers' statements: only if its words agree that it is a plain read (SELECT, WITH, VALUES,
    /// TABLE, SHOW naming none of INSERT, UPDATE, DELETE, MERGE, INTO, SHARE). Words cannot tell a function
    /// with effects from a pure one, which is why sharing is declared; they only veto a declaration that is
    /// plainly wrong. Writes keep a transaction of their own: sharing one would hold their row locks until
    /// the segment's end, so two loops writing the same rows in different orders could deadlock, and a
    /// failing neighbour would roll their work back. So does everything else: VACUUM, CREATE DATABASE and the
    /// like refuse to run after another statement of a pipeline, or commit at once when first; COMMIT, CALL
    /// and DO can end transactions. Judged by the words outside comments.
    static func wordsAllowSharing(_ sql: String) -> Bool {
        var words = SQLWords(sql)
        guard let first = words.next(), ["SELECT", "WITH", "VALUES", "TABLE", "SHOW"].contains(first) else {
            return false
        }
        while let word = words.next() {
            if ["INSERT", "UPDATE", "DELETE", "MERGE", "INTO", "SHARE"].contains(word) { return false }
        }
        return true
    }

    /// A name derived from the statement text and types (FNV-1a), unique on this connection.
    private func statementName(for key: StatementKey) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.sql.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        for type in key.types { hash = (hash ^ UInt64(type)) &* 0x0000_0100_0000_01B3 }
        let base = "kindred_" + String(hash, radix: 16)
        var name = base
        var suffix = 1
        while statementNames.contains(name) {
            name = base + "_\(suffix)"
            suffix += 1
        }
        statementNames.insert(name)
        return name
    }
}

/// The words of an SQL text, upper-cased, in order, skipping comments; quoted text is not told apart.
struct SQLWords: IteratorProtocol {
    private let bytes: [UInt8]
    private var index = 0

    init(_ sql: String) { bytes = Array(sql.utf8) }

    mutating func next() -> String? {
        while index < bytes.count {
            let byte = bytes[index]
            if starts("--") {
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
            } else if starts("/*") {
                index += 2
                while index < bytes.count, !starts("*/") { index += 1 }
                index += 2
            } else if Self.isWordStart(byte) {
                let start = index
                while index < bytes.count, Self.isWordStart(bytes[index]) || Self.isDigit(bytes[index]) {
                    index += 1
                }
                return String(decoding: bytes[start..<index], as: UTF8.self).uppercased()
            } else {
                index += 1
            }
        }
        return nil
    }

    private func starts(_ marker: StaticString) -> Bool {
        let count = marker.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        return (0..<count).allSatisfy { bytes[index + $0] == marker.utf8Start[$0] }
    }

    /// A letter (ASCII, folded to lower case, or any byte of a non-ASCII character) or an underscore.
    private static func isWordStart(_ byte: UInt8) -> Bool {
        let folded = byte | 0x20
        return (folded >= UInt8(ascii: "a") && folded <= UInt8(ascii: "z")) || byte == UInt8(ascii: "_")
            || byte >= 0x80
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
