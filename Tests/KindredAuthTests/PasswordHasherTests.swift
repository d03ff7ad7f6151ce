import KindredAuth
import Testing

@Suite("Password hashing")
struct PasswordHasherTests {
    let hasher = PasswordHasher(cost: .testsOnly, concurrency: 2)

    @Test func theRightPasswordMatchesAndAWrongOneDoesNot() async throws {
        let stored = try await hasher.hash("correct horse 9")
        #expect(stored.hasPrefix("$argon2id$v=19$m=8,t=1,p=1$"))
        #expect(try await hasher.verify("correct horse 9", against: stored) == .match(needsRehash: false))
        #expect(try await hasher.verify("correct horse 8", against: stored) == .mismatch)
    }

    @Test func twoHashesOfOnePasswordDifferByTheirSalt() async throws {
        let first = try await hasher.hash("same password 1")
        let second = try await hasher.hash("same password 1")
        #expect(first != second)
    }

    @Test func aPasswordWithANULIsNotItsPrefix() async throws {
        let stored = try await hasher.hash("secret\u{0}suffix")
        #expect(try await hasher.verify("secret", against: stored) == .mismatch)
        #expect(try await hasher.verify("secret\u{0}suffix", against: stored) == .match(needsRehash: false))
    }

    @Test func aHashMadeAtAnOlderCostAsksToBeRehashed() async throws {
        let stored = try await hasher.hash("upgrade me 1")
        let stronger = PasswordHasher(cost: .init(iterations: 2, memoryKiB: 16), concurrency: 1)
        #expect(try await stronger.verify("upgrade me 1", against: stored) == .match(needsRehash: true))
        let rehashed = try await stronger.hash("upgrade me 1")
        #expect(try await stronger.verify("upgrade me 1", against: rehashed) == .match(needsRehash: false))
    }

    @Test(arguments: [
        "", "not a hash", "$argon2id$v=19$m=8,t=1,p=1$AAAA$BBBB", "$2b$10$abcdefghijklmnopqrstuv",
    ])
    func aMalformedStoredHashIsAMismatch(stored: String) async throws {
        #expect(try await hasher.verify("anything 1", against: stored) == .mismatch)
    }

    @Test func theDecoyVerificationFindsNothingAndThrowsNothing() async throws {
        try await hasher.verifyAgainstDecoy("whatever 1")
    }

    @Test func hashesBeyondTheQueueAreRefusedAtOnceAndTheRestComplete() async throws {
        // One thread, one queued job: of many concurrent hashes some must be refused as busy, and every
        // accepted one must still complete with a usable hash.
        let small = PasswordHasher(
            cost: .init(iterations: 1, memoryKiB: 32 * 1024), concurrency: 1, maxQueued: 1)
        let outcomes = await withTaskGroup(of: Result<String, PasswordHasherError>.self) { group in
            for index in 0..<16 {
                group.addTask {
                    do throws(PasswordHasherError) {
                        return .success(try await small.hash("queued \(index)"))
                    } catch { return .failure(error) }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let refused = outcomes.filter { $0 == .failure(.busy) }.count
        let hashes = outcomes.compactMap { try? $0.get() }
        #expect(refused > 0)
        #expect(hashes.count + refused == 16)
        #expect(hashes.allSatisfy { $0.hasPrefix("$argon2id$") })
    }

    @Test func opaqueTokensAreRandomAndStoredOnlyAsTheirHash() {
        let first = OpaqueToken.generate()
        let second = OpaqueToken.generate()
        #expect(first != second)
        #expect(first.text.count == 43)
        #expect(first.storageHash.count == 32)
        #expect(OpaqueToken(text: first.text).storageHash == first.storageHash)
        #expect(first.storageHash != second.storageHash)
    }
}
