public import KindredAuth

/// How an outbox keeps its payloads: sealed under the writing service's data keys, bound to the outbox and the
/// event's type, so a dump of the table shows what happened and when, never what an event says (a baby's name
/// and birth date, an 18th birthday, an activity's detail).
extension EventOutbox {
    /// `payload` sealed for an event of `type` in this outbox, as `append` stores it. For a service that
    /// inserts into its outbox in a statement of its own.
    public func seal(_ payload: [UInt8], type: String, with cipher: FieldCipher) -> [UInt8] {
        cipher.seal(payload, context: context(type))
    }

    /// The payload a row holds: opened when sealed, as stored when it was appended before sealing began. A
    /// serialized proto never starts like a sealed value (its first byte is a field's tag, and field number 0
    /// does not exist), so the two cannot be confused.
    public func open(_ stored: [UInt8], type: String, with cipher: FieldCipher) throws(FieldCipherError)
        -> [UInt8]
    {
        guard FieldCipher.keyID(of: stored) != nil else { return stored }
        return try cipher.open(stored, context: context(type))
    }

    private func context(_ type: String) -> String { "\(schema).\(name).payload/\(type)" }
}
