internal import FoundationEssentials
import Logging

extension MailDeliveryWorker {
    /// Sends every message due now, one at a time, until none is left or the worker is stopping;
    /// returns how many were sent.
    @discardableResult
    func deliverDue() async throws -> Int {
        var sent = 0
        while !isStopping {
            let current = now()
            let lease = current.addingTimeInterval(policy.claimLease.timeInterval)
            guard let mail = try await outbox.claimNext(now: current, leaseUntil: lease, on: database) else {
                break
            }
            if try await attempt(mail) { sent += 1 }
        }
        return sent
    }

    /// One attempt at `mail`: hand it to the transport, then record the outcome. Returns true when sent.
    func attempt(_ mail: ClaimedMail) async throws -> Bool {
        var metadata: Logger.Metadata = [
            "mail_id": "\(mail.id)", "kind": "\(mail.kind)", "attempt": "\(mail.attempts)",
        ]
        do throws(MailTransportError) {
            try await transport.deliver(outgoing(mail))
        } catch {
            let delay = policy.retryDelay(afterAttempt: mail.attempts)
            let retry = now().addingTimeInterval(delay.timeInterval)
            try await outbox.reschedule(mail.id, at: retry, error: error.description, on: database)
            metadata["error"] = "\(error)"
            metadata["retry_in"] = "\(delay)"
            if error.isPermanent {
                logger.error("mail refused as permanent; it will be retried anyway", metadata: metadata)
            } else {
                logger.warning("mail delivery failed; it will be retried", metadata: metadata)
            }
            return false
        }
        do {
            try await outbox.markSent(mail.id, at: now(), on: database)
        } catch {
            metadata["error"] = "\(error)"
            logger.error(
                "mail sent but not recorded; it will be sent again after its claim lapses", metadata: metadata
            )
            throw error
        }
        logger.info("mail sent", metadata: metadata)
        return true
    }

    /// The message as the transport takes it. A stored row that does not open, or no longer passes `MailMessage`'s checks
    /// (written by hand, say) fails as permanent and stays in the outbox for someone to fix.
    func outgoing(_ mail: ClaimedMail) throws(MailTransportError) -> OutgoingMail {
        let message: MailMessage
        let content: SealedMail
        do {
            content = try mail.content.get()
        } catch {
            throw .permanent("the stored message does not open: \(error)")
        }
        do {
            message = try MailMessage(
                to: content.recipient, subject: content.subject, body: content.body, kind: mail.kind)
        } catch {
            throw .permanent("the stored message is invalid: \(error)")
        }
        let bytes = message.rendered(
            from: from, date: mail.createdAt, messageID: "\(mail.messageID)@\(from.domain)")
        return OutgoingMail(sender: from.address, recipient: message.to, bytes: bytes)
    }

    /// Deletes sent mail older than the retention, at most once per `pruneInterval`.
    func pruneIfDue() async throws {
        guard let retention = policy.retention else { return }
        let current = now()
        let isDue = lastPrune.withLock { last in
            if let last, current.timeIntervalSince(last) < Self.pruneInterval.timeInterval { return false }
            last = current
            return true
        }
        guard isDue else { return }
        let pruned = try await outbox.pruneSent(
            before: current.addingTimeInterval(-retention.timeInterval), on: database)
        if pruned > 0 {
            logger.info("pruned sent mail", metadata: ["outbox": "\(outbox.table)", "count": "\(pruned)"])
        }
    }
}
