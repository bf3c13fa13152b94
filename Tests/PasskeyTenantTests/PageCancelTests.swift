import Foundation
import HTTPTypes
import HummingbirdTesting
import PasskeyTenant
import Testing
import WebAuthn

/// The login page's Cancel (`POST /u/passkey/cancel`, **[local]**): back to the application with
/// `access_denied`, under the page API's CSRF checks, as the embedded mode's cancel.
@Suite struct PageCancelTests {
    @Test func cancelGoesBackToTheApplicationWithAccessDenied() async throws {
        let harness = try await TenantHarness()
        let flow = WebAuthFlow(harness)
        let (html, cancelled, after) = try await harness.router { http in
            let result = try await flow.authorize(http)
            let page = try flow.page(result)
            let cancelled = try await http.send(
                .post, "/u/passkey/cancel", json: PageCancelRequest(transaction: page.transaction),
                headers: flow.pageHeaders(page))
            return (result.text, cancelled, try await flow.options(http, page, mode: "login"))
        }
        #expect(html.contains(#"<button id="cancel" type="button">Cancel</button>"#))
        #expect(cancelled.status == .ok, "\(cancelled.text)")
        let query = try flow.callbackQuery(try cancelled.decode(PageVerifyResponse.self).redirect.text)
        #expect(query["error"] == "access_denied")
        #expect(query["error_description"] == "The user cancelled the login.")
        #expect(query["state"] == flow.state)
        expectRefused(after, "invalid_request", status: .badRequest)
    }

    @Test func aFormPostCancelIsRenderedByTheResponsePage() async throws {
        let harness = try await TenantHarness()
        let flow = WebAuthFlow(harness)
        let (cancelled, response) = try await harness.router { http in
            let page = try flow.page(try await flow.authorize(http, ["response_mode": "form_post"]))
            let cancelled = try await http.send(
                .post, "/u/passkey/cancel", json: PageCancelRequest(transaction: page.transaction),
                headers: flow.pageHeaders(page))
            var headers = flow.pageHeaders(page)
            headers[.origin] = nil
            return (cancelled, try await http.send(.get, "/u/passkey/response", contentType: nil, headers: headers))
        }
        #expect(try cancelled.decode(PageVerifyResponse.self).redirect.text == "/u/passkey/response")
        #expect(response.status == .ok)
        #expect(response.text.contains(#"name="error" value="access_denied""#))
    }

    @Test func aCrossSiteCancelIsForbidden() async throws {
        let harness = try await TenantHarness()
        let flow = WebAuthFlow(harness)
        let cancelled = try await harness.router { http in
            let page = try flow.page(try await flow.authorize(http))
            var headers = flow.pageHeaders(page)
            headers[.origin] = "https://evil.example"
            return try await http.send(
                .post, "/u/passkey/cancel", json: PageCancelRequest(transaction: page.transaction), headers: headers)
        }
        expectRefused(cancelled, "access_denied", status: .forbidden)
    }
}
