import KindredHandlers
import KindredMessages
import KindredRPC

/// A `SendMessageRequest` whose fields were checked: the sender's idempotency key, a recipient id that could
/// be anyone's, and text of 1 to 2,000 characters that is not all whitespace.
struct MessageDraft: Sendable, Equatable {
    static let requestIDLength = 1...100
    static let textLength = 1...2_000

    let requestID: String
    let recipientID: UserID
    let text: String

    /// The draft `request` holds, or INVALID_ARGUMENT naming every bad field.
    init(_ request: Kindred_Social_V1_SendMessageRequest) throws(RPCError) {
        var violations = FieldViolations()
        if !Self.requestIDLength.contains(request.requestID.count) {
            violations.add("request_id", "must be 1 to 100 characters")
        }
        let recipientID: UserID? = violations.id("recipient_user_id", request.recipientUserID)
        if !Self.textLength.contains(request.text.count) {
            violations.add("text", "must be 1 to 2,000 characters")
        } else if request.text.allSatisfy(\.isWhitespace) {
            violations.add("text", "must not be only whitespace")
        }
        self.recipientID = try violations.throwIfAny(recipientID)
        requestID = request.requestID
        text = request.text
    }

    /// Whether `message`, sent earlier under this draft's request_id, is this draft sent before: a retry.
    func isRetry(of message: StoredMessage) -> Bool {
        message.recipientID == recipientID && message.body == text
    }
}
