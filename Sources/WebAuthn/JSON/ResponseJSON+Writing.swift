// The ceremony responses write themselves (``JSONWritable``), members in the byte order of their
// keys as `JSONEncoder`'s `.sortedKeys` orders them, optional members only when present.

extension PublicKeyCredentialJSON: JSONWritable where Response: JSONWritable {
    package var writesDirectly: Bool {
        response.writesDirectly && clientExtensionResults.writesDirectly
    }

    package func write(to writer: inout JSONWriter) {
        writer.object { writer in
            if let authenticatorAttachment {
                writer.member("authenticatorAttachment", authenticatorAttachment.rawValue)
            }
            writer.key("clientExtensionResults")
            clientExtensionResults.write(to: &writer)
            writer.member("id", id)
            writer.member("rawId", rawId)
            writer.key("response")
            response.write(to: &writer)
            writer.member("type", type.rawValue)
        }
    }
}

extension AuthenticatorAssertionResponseJSON: JSONWritable {
    package var writesDirectly: Bool { true }

    package func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("authenticatorData", authenticatorData)
            writer.member("clientDataJSON", clientDataJSON)
            writer.member("signature", signature)
            if let userHandle {
                writer.member("userHandle", userHandle)
            }
        }
    }
}

extension AuthenticatorAttestationResponseJSON: JSONWritable {
    package var writesDirectly: Bool { true }

    package func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("attestationObject", attestationObject)
            if let authenticatorData {
                writer.member("authenticatorData", authenticatorData)
            }
            writer.member("clientDataJSON", clientDataJSON)
            if let publicKey {
                writer.member("publicKey", publicKey)
            }
            if let publicKeyAlgorithm {
                writer.member("publicKeyAlgorithm", publicKeyAlgorithm)
            }
            if let transports {
                writer.member("transports", transports.map(\.rawValue))
            }
        }
    }
}

extension AuthenticationExtensionsClientOutputsJSON: JSONWritable {
    /// Other extensions' outputs are ``JSONValue``s, which `JSONEncoder` writes.
    package var writesDirectly: Bool { otherExtensions.isEmpty }

    package func write(to writer: inout JSONWriter) {
        writer.object { writer in
            if let credProps {
                writer.key("credProps")
                writer.object { writer in
                    if let rk = credProps.rk {
                        writer.member("rk", rk)
                    }
                }
            }
            if let prf {
                writer.key("prf")
                writer.object { writer in
                    if let enabled = prf.enabled {
                        writer.member("enabled", enabled)
                    }
                    if let results = prf.results {
                        writer.key("results")
                        results.write(to: &writer)
                    }
                }
            }
        }
    }
}
