import PasskeyAuthenticator
import WebAuthn

/// Where the service stands with one origin's consent.
enum SiteDecisionState {
    /// Asked and answered: allowed or refused, for the service's lifetime.
    case decided(Bool)
    /// Being asked; later ceremonies of the origin wait for this answer.
    case asking(Task<Result<Bool, ControlError>, Never>)
}

extension ControlService {
    /// Refuses a ceremony whose origin ``SiteConsent`` refuses, asking the hook when the origin is
    /// not decided yet; a service without a hook lets every origin through.
    ///
    /// A browser checks the origin and the RP ID before it shows anything (WebAuthn L3 §5.1.3
    /// steps 5–8, §5.1.4 steps 5–6), so an origin that may not use the RP ID (related origins
    /// included) is refused with `SecurityError` before it is asked about.
    ///
    /// - Parameters:
    ///   - request: the ceremony's origin and RP ID.
    ///   - client: the client the ceremony runs with, for the RP ID check.
    /// - Throws: ``ControlError``: `SecurityError` from the RP ID check, `NotAllowedError` when
    ///   refused, or what the hook threw.
    nonisolated func consenting(_ request: SiteConsent.Request, client: WebAuthnClient) async throws(ControlError) {
        guard let consent else {
            return
        }
        if case .decided(let allowed)? = await siteDecisions[request.origin.description] {
            guard allowed else { throw SiteConsent.refusal }
            return
        }
        do {
            _ = try await client.relyingPartyID(request.rpID, for: request.origin)
        } catch {
            throw ControlError(error)
        }
        guard try await decision(request, consent).get() else {
            throw SiteConsent.refusal
        }
    }

    /// The origin's decision: kept, being asked (waited for), or asked now. An answer is kept; a
    /// failure to answer is not, so the next ceremony asks again.
    private func decision(_ request: SiteConsent.Request, _ consent: SiteConsent) async -> Result<Bool, ControlError> {
        let origin = request.origin.description
        switch siteDecisions[origin] {
        case .decided(let allowed)?:
            return .success(allowed)
        case .asking(let question)?:
            return await question.value
        case nil:
            let question = Task { () async -> Result<Bool, ControlError> in
                do throws(ControlError) {
                    return .success(try await consent.decide(request))
                } catch {
                    return .failure(error)
                }
            }
            siteDecisions[origin] = .asking(question)
            let outcome = await question.value
            siteDecisions[origin] = (try? outcome.get()).map(SiteDecisionState.decided)
            return outcome
        }
    }
}
