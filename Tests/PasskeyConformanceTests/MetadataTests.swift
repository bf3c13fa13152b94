import Auth0Passkeys
import Foundation
import PasskeyConformance
import Synchronization
import Testing
import WebAuthn

/// The runner's metadata (FIDO MDS 3.0 §3.1): its BLOB verifies to the PKI's root and lists every
/// model's status, each broken variant is refused, the server serves them over loopback, and
/// ``MetadataService`` keeps a BLOB until its `nextUpdate`.
@Suite struct MetadataTests {
    static let pki = Result { try ConformancePKI() }

    static func metadata(number: Int = 1, nextUpdate: Date = Date() + 3 * 86_400) throws -> ConformanceMetadata {
        ConformanceMetadata(pki: try pki.get(), number: number, nextUpdate: nextUpdate)
    }

    @Test func theBLOBVerifiesToTheRootAndListsEveryStatus() throws {
        let pki = try Self.pki.get()
        let nextUpdate = Date(timeIntervalSince1970: 1_796_100_000)  // 2026-12-01T04:40:00Z
        let blob = try MetadataBLOB(jwt: Self.metadata(number: 7, nextUpdate: nextUpdate).blob(), root: pki.root)
        #expect(blob.number == 7)
        #expect(blob.nextUpdate == "2026-12-01")
        #expect(blob.entries.count == ConformanceAuthenticator.allCases.count - 1)
        for model in ConformanceAuthenticator.allCases {
            let entry = blob.entry(for: model.aaguid)
            #expect(entry?.status == model.status, "\(model)")
            #expect(entry.map { $0.attestationRootCertificates == [pki.root] } ?? (model == .unlisted))
        }
    }

    /// Two processes with the same seed agree: a BLOB of one verifies to the other's root.
    @Test func twoPKIsOfTheSameSeedAgree() throws {
        let nextUpdate = Date(timeIntervalSince1970: 1_796_100_000)
        let (first, second) = (try ConformancePKI(), try ConformancePKI())
        let blob = try ConformanceMetadata(pki: first, nextUpdate: nextUpdate).blob()
        let again = try ConformanceMetadata(pki: second, nextUpdate: nextUpdate).blob()
        // The root's key and name are the seed's (its signature, and so its bytes, may differ).
        #expect(try MetadataBLOB(jwt: blob, root: second.root).entries.count == 4)
        #expect(try MetadataBLOB(jwt: again, root: first.root).entries.count == 4)
        let other = try ConformanceMetadata(pki: ConformancePKI(seed: "another"), nextUpdate: nextUpdate).blob()
        #expect(throws: WebAuthnError(.untrustedMetadata, "")) { try MetadataBLOB(jwt: other, root: first.root) }
    }

    @Test(arguments: ConformanceMetadata.Variant.allCases.filter { $0 != .good })
    func aBrokenVariantIsRefused(_ variant: ConformanceMetadata.Variant) throws {
        let root = try Self.pki.get().root
        #expect(throws: WebAuthnError(.untrustedMetadata, "")) {
            try MetadataBLOB(jwt: Self.metadata().blob(variant), root: root)
        }
    }

    @Test func theServerServesEachBLOBAndTheRootOverLoopback() async throws {
        let server = try MetadataServer(pki: Self.pki.get())
        let root = try Self.pki.get().root
        try await server.serving { url in
            let transport = CurlTransport()
            for variant in ConformanceMetadata.Variant.allCases {
                let response = try await transport.send(
                    HTTPRequest(method: .get, url: url + MetadataServer.path(variant)))
                #expect(response.status == 200)
                #expect(response.header("Content-Type") == "application/jwt")
                #expect(response.body == server.blob(variant))
            }
            let pem = try await transport.send(HTTPRequest(method: .get, url: url + "root.pem"))
            #expect(String(decoding: pem.body, as: UTF8.self) == server.metadata.pki.rootPEM)
            let blob = try await MetadataService(url: url, root: root).blob()
            #expect(blob.entry(for: ConformanceAuthenticator.revoked.aaguid)?.status == .revoked)
            await #expect(throws: ConformanceError(.badMetadata, "")) {
                try await MetadataService(url: url + "expired", root: root).blob()
            }
        }
    }

    @Test func theServiceKeepsABLOBUntilItsNextUpdateAndThroughAFailedRefetch() async throws {
        let start = Date()
        let nextUpdate = start + 3 * 86_400
        let script = ScriptedBLOBs(try (1...2).map { try Self.metadata(number: $0, nextUpdate: nextUpdate).blob() })
        let clock = Mutex(start)
        let service = MetadataService(
            url: "http://metadata.test/", root: try Self.pki.get().root, transport: script,
            now: { clock.withLock { $0 } })
        #expect(try await service.blob().number == 1)
        clock.withLock { $0 = start + 86_400 }
        #expect(try await service.blob().number == 1)
        #expect(script.fetches == 1)
        // nextUpdate is a day: the BLOB is fetched again once that day has begun.
        let nextDay = Date(timeIntervalSince1970: (nextUpdate.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400)
        clock.withLock { $0 = nextDay + 60 }
        #expect(try await service.blob().number == 2)
        #expect(script.fetches == 2)
        // Out of BLOBs: the last one is kept for a day past its nextUpdate, and the failure told.
        clock.withLock { $0 = nextDay + 3_600 }
        #expect(try await service.blob().number == 2)
        #expect(await service.lastRefreshFailure?.code == .metadataUnavailable)
        clock.withLock { $0 = nextDay + 86_400 }
        await #expect(throws: ConformanceError(.metadataUnavailable, "")) { try await service.blob() }
    }

    /// WebAuthn L3 §7.1 step 23: a relying party with the service's BLOB accepts the certified
    /// model's packed attestation, trusted through the entry's root, and refuses the revoked model's.
    @Test func aRelyingPartyWithTheServiceRefusesARevokedModel() async throws {
        let pki = try Self.pki.get()
        let server = try MetadataServer(pki: pki)
        try await server.serving { url in
            let relyingParty = try await MetadataService(url: url, root: pki.root).relyingParty(
                RelyingParty(ids: ["example.org"]))
            func register(_ model: ConformanceAuthenticator) throws -> VerifiedRegistration {
                var ceremony = try HandmadeCeremony()
                ceremony.aaguid = model.aaguid
                (ceremony.format, ceremony.statement) = try pki.attest(
                    .packed, authenticatorData: ceremony.authenticatorData(),
                    clientDataHash: SHA256Digest.hash(ceremony.clientData(.create)), credentialKey: ceremony.key)
                return try relyingParty.verifyRegistration(
                    clientDataJSON: ceremony.clientData(.create), attestationObject: ceremony.attestationObject(),
                    challenge: ceremony.challenge)
            }
            #expect(try register(.certified).isTrusted)
            #expect(throws: WebAuthnError(.authenticatorCompromised, "")) { try register(.revoked) }
        }
    }
}

/// Answers each GET with the next BLOB of a list, then fails as an unreachable host would.
private final class ScriptedBLOBs: HTTPTransport, Sendable {
    private let state: Mutex<(blobs: [[UInt8]], fetches: Int)>

    init(_ blobs: [[UInt8]]) {
        state = Mutex((blobs, 0))
    }

    var fetches: Int { state.withLock { $0.fetches } }

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let blob = state.withLock { state -> [UInt8]? in
            state.fetches += 1
            return state.blobs.isEmpty ? nil : state.blobs.removeFirst()
        }
        guard let blob else {
            throw TransportError(.cannotConnect, "metadata.test does not answer")
        }
        return HTTPResponse(status: 200, headers: [(name: "Content-Type", value: "application/jwt")], body: blob)
    }
}
