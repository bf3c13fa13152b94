import Auth0Passkeys

extension Request {
    /// Sends the request as one step of a flow, reporting its failure as the party's case.
    ///
    /// - Parameter party: the case for this API (`PasskeyFlowError.authentication`, …).
    /// - Returns: the decoded answer.
    /// - Throws: ``PasskeyFlowError``, the API's error in `party`'s case.
    func start(as party: (Failure) -> PasskeyFlowError) async throws(PasskeyFlowError) -> Value {
        do {
            return try await start()
        } catch {
            throw party(error)
        }
    }
}
