import Foundation
import KindredPostgres
import KindredTestSupport
import Testing

@testable import KindredMail

@Suite struct MailDeliveryWorkerTests {
    @Test func retryDelaysDoubleFromTheFirstAndStopAtTheMaximum() {
        let policy = MailDeliveryPolicy(firstRetryDelay: .seconds(30), maximumRetryDelay: .seconds(3600))
        let delays = (1...9).map { policy.retryDelay(afterAttempt: $0) }
        #expect(delays == [30, 60, 120, 240, 480, 960, 1920, 3600, 3600].map { .seconds($0) })
        #expect(policy.retryDelay(afterAttempt: 10_000) == .seconds(3600))
    }
}

extension MailDatabaseTests {
    @Suite struct Delivery {
        @Test func aTransportThatFailsTwiceDeliversOnceWithTheAttemptsRecordedAndTheBackoffRespected()
            async throws
        {
            try await withOutbox { pool, outbox in
                let clock = ManualClock()
                let transport = ScriptedTransport(
                    failures: [.temporary("connection refused"), .permanent("550 mailbox unavailable")],
                    clock: clock)
                let policy = MailDeliveryPolicy(
                    firstRetryDelay: .seconds(10), maximumRetryDelay: .seconds(15))
                let worker = MailDeliveryWorker(
                    outbox: outbox, database: pool, transport: transport, from: kindredSender, policy: policy,
                    logger: quietLogger, now: { clock.now() })
                try await outbox.enqueue(
                    MailMessage(to: "user@example.com", subject: "Hi", body: "Hello"), on: pool)

                #expect(try await worker.deliverDue() == 0)
                #expect(try await worker.deliverDue() == 0)
                clock.advance(by: .milliseconds(9_999))
                #expect(try await worker.deliverDue() == 0)
                #expect(transport.calls.count == 1)
                clock.advance(by: .milliseconds(1))
                #expect(try await worker.deliverDue() == 0)
                #expect(transport.calls.count == 2)
                // 20 s would be the doubled delay; the maximum caps it at 15 s.
                clock.advance(by: .milliseconds(14_999))
                #expect(try await worker.deliverDue() == 0)
                clock.advance(by: .milliseconds(1))
                #expect(try await worker.deliverDue() == 1)
                #expect(try await worker.deliverDue() == 0)

                #expect(transport.delivered.count == 1)
                let gaps = zip(transport.calls, transport.calls.dropFirst()).map { $1.timeIntervalSince($0) }
                #expect(gaps.map { ($0 * 1000).rounded() } == [10_000, 15_000])
                let row = try #require(try await outboxRows(pool, outbox).first)
                #expect(row.isSent)
                #expect(row.attempts == 3)
                #expect(row.lastError == "550 mailbox unavailable")
            }
        }

        @Test func twoWorkersOnOneOutboxNeverSendAMessageTwice() async throws {
            try await withOutbox { pool, outbox in
                try await pool.transaction { tx in
                    for index in 0..<40 {
                        let message = try MailMessage(
                            to: "user\(index)@example.com", subject: "Hi", body: "\(index)")
                        try await outbox.enqueue(message, in: tx)
                    }
                }
                let transport = ScriptedTransport()
                let pools = try [makePool(), makePool()]
                let workers = pools.map { pool in
                    MailDeliveryWorker(
                        outbox: outbox, database: pool, transport: transport, from: kindredSender,
                        logger: quietLogger)
                }
                let sent = try await withThrowingTaskGroup(of: Int.self) { group in
                    for worker in workers { group.addTask { try await worker.deliverDue() } }
                    return try await group.reduce(0, +)
                }
                for pool in pools { await pool.close() }

                #expect(sent == 40)
                let recipients = transport.delivered.map(\.recipient)
                #expect(recipients.count == 40)
                #expect(Set(recipients).count == 40)
                let rows = try await outboxRows(pool, outbox)
                #expect(rows.allSatisfy { $0.isSent && $0.attempts == 1 })
            }
        }

        /// A replica's worker dies mid-send (its pool goes with it, as a killed process's sockets do): its claim
        /// holds the message until the lease lapses, then another replica's worker sends it, once.
        @Test func aMessageWhoseWorkerDiedMidSendIsSentByAnotherOnceItsClaimLapses() async throws {
            try await withOutbox { pool, outbox in
                let clock = ManualClock()
                let policy = MailDeliveryPolicy()
                try await outbox.enqueue(
                    MailMessage(to: "user@example.com", subject: "Hi", body: "Hello"), on: pool)
                let stalled = StalledTransport()
                let dyingPool = try makePool()
                let dying = MailDeliveryWorker(
                    outbox: outbox, database: dyingPool, transport: stalled, from: kindredSender,
                    policy: policy,
                    logger: quietLogger, now: { clock.now() })
                let running = Task { try await dying.deliverDue() }
                await stalled.started()
                await dyingPool.close()
                running.cancel()
                _ = await running.result

                let transport = ScriptedTransport(clock: clock)
                let survivorPool = try makePool()
                let survivor = MailDeliveryWorker(
                    outbox: outbox, database: survivorPool, transport: transport, from: kindredSender,
                    policy: policy, logger: quietLogger, now: { clock.now() })
                let whileClaimed = try await survivor.deliverDue()
                clock.advance(by: policy.claimLease)
                let afterLapse = try await survivor.deliverDue()
                await survivorPool.close()

                #expect((whileClaimed, afterLapse) == (0, 1))
                #expect(transport.delivered.map(\.recipient) == ["user@example.com"])
                let row = try #require(try await outboxRows(pool, outbox).first)
                #expect(row.isSent && row.attempts == 2)
            }
        }

        @Test(.timeLimit(.minutes(1)))
        func aRunningWorkerWakesOnEnqueueWithoutPollingAndStopsWhenAsked() async throws {
            try await withOutbox { pool, outbox in
                try await outbox.enqueue(
                    MailMessage(to: "early@example.com", subject: "Early", body: "x"), on: pool)
                let transport = ScriptedTransport()
                // A poll interval far beyond the test's patience: only the notification can wake the worker.
                let worker = MailDeliveryWorker(
                    outbox: outbox, database: pool, transport: transport, from: kindredSender,
                    policy: MailDeliveryPolicy(pollInterval: .seconds(3600)), logger: quietLogger)
                let running = Task { await worker.run() }
                try await eventually("the first mail is delivered") { transport.delivered.count == 1 }

                try await pool.transaction { tx in
                    try await outbox.enqueue(
                        MailMessage(to: "late@example.com", subject: "Late", body: "y"), in: tx)
                }
                try await eventually("the late mail is delivered") { transport.delivered.count == 2 }
                #expect(transport.delivered.map(\.recipient) == ["early@example.com", "late@example.com"])

                worker.stop()
                await running.value
            }
        }

        @Test(.timeLimit(.minutes(1)))
        func cancellingARunningWorkerEndsItsRun() async throws {
            try await withOutbox { pool, outbox in
                let transport = ScriptedTransport()
                let worker = MailDeliveryWorker(
                    outbox: outbox, database: pool, transport: transport, from: kindredSender,
                    policy: MailDeliveryPolicy(pollInterval: .seconds(3600)), logger: quietLogger)
                try await pool.transaction { tx in
                    try await outbox.enqueue(
                        MailMessage(to: "ann@example.com", subject: "Hi", body: "x"), in: tx)
                }
                let running = Task { await worker.run() }
                // A mail delivered: the run is under way, and then waits out its hour-long poll.
                try await eventually("the mail is delivered") { transport.delivered.count == 1 }
                running.cancel()
                await running.value
                #expect(worker.isStopping)
            }
        }
    }
}
