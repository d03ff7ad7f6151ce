import Foundation
import KindredAPI
import KindredMessages
import KindredRPC

/// `UploadUsage` as devices send it: each call a batch of 50 sessions never sent before (ids carry the run and
/// the worker), one minute each with a second between them, starting 20 days ago, by the uploader of the
/// worker (worker w uses uploader w % count). Sessions of different calls may overlap in time, which the
/// service allows (two devices); within a batch they never do.
struct UsageUpload: Sendable {
    static let batchSize = 50
    static let apps = ["instagram", "whatsapp", "youtube", "tiktok", "facebook"]

    let uploaders: [Scene.Person]
    let run = UUID().uuidString.prefix(8)
    let firstStart = Int64(Date().timeIntervalSince1970) - 20 * 86_400

    var call: @Sendable (Int, RPCClient, Int) async throws -> Void {
        let (uploaders, run, firstStart) = (uploaders, String(run), firstStart)
        return { worker, client, iteration in
            let uploader = uploaders[worker % uploaders.count]
            var options = CallOptions(timeout: .seconds(30))
            options.metadata.add("authorization", "Bearer \(uploader.token)")
            let sessions = (0..<Self.batchSize).map { index in
                let number = iteration * Self.batchSize + index
                let start = firstStart + Int64(number) * 61
                return Kindred_Gamification_V1_UsageSession(
                    clientSessionID: "\(run)-\(worker)-\(number)", appID: Self.apps[index % Self.apps.count],
                    startTime: Date(timeIntervalSince1970: Double(start)),
                    endTime: Date(timeIntervalSince1970: Double(start + 60)),
                    updatedAt: Date(timeIntervalSince1970: Double(start + 60)))
            }
            let stored = try await Kindred_Gamification_V1_GamificationService.Client(client).uploadUsage(
                .init(sessions: sessions), options: options
            ).stored
            guard stored == Self.batchSize else { throw RPCError(.internal, "a batch was not stored whole") }
        }
    }
}
