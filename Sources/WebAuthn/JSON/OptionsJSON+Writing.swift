// The ceremony options write themselves (``JSONWritable``), as a relying party sends them for
// every ceremony: members in the byte order of their keys, as `JSONEncoder`'s `.sortedKeys` orders
// them, optional members only when present.

extension PublicKeyCredentialCreationOptionsJSON: JSONWritable {
    package var writesDirectly: Bool { extensions?.writesDirectly ?? true }

    package func write(to writer: inout JSONWriter) {
        writer.object { writer in
            if let attestation {
                writer.member("attestation", attestation.rawValue)
            }
            if let attestationFormats {
                writer.member("attestationFormats", attestationFormats)
            }
            if let authenticatorSelection {
                writer.key("authenticatorSelection")
                authenticatorSelection.write(to: &writer)
            }
            writer.member("challenge", challenge)
            if let excludeCredentials {
                writer.key("excludeCredentials")
                writer.array(excludeCredentials) { writer, descriptor in descriptor.write(to: &writer) }
            }
            if let extensions {
                writer.key("extensions")
                extensions.write(to: &writer)
            }
            if let hints {
                writer.member("hints", hints.map(\.rawValue))
            }
            writer.key("pubKeyCredParams")
            writer.array(pubKeyCredParams) { writer, parameters in
                writer.object { writer in
                    writer.member("alg", parameters.alg)
                    writer.member("type", parameters.type.rawValue)
                }
            }
            writer.key("rp")
            writer.object { writer in
                if let id = rp.id {
                    writer.member("id", id)
                }
                writer.member("name", rp.name)
            }
            if let timeout {
                writer.member("timeout", Int(timeout))
            }
            writer.key("user")
            writer.object { writer in
                writer.member("displayName", user.displayName)
                writer.member("id", user.id)
                writer.member("name", user.name)
            }
        }
    }
}

extension PublicKeyCredentialRequestOptionsJSON: JSONWritable {
    package var writesDirectly: Bool { extensions?.writesDirectly ?? true }

    package func write(to writer: inout JSONWriter) {
        writer.object { writer in
            if let allowCredentials {
                writer.key("allowCredentials")
                writer.array(allowCredentials) { writer, descriptor in descriptor.write(to: &writer) }
            }
            writer.member("challenge", challenge)
            if let extensions {
                writer.key("extensions")
                extensions.write(to: &writer)
            }
            if let hints {
                writer.member("hints", hints.map(\.rawValue))
            }
            if let rpId {
                writer.member("rpId", rpId)
            }
            if let timeout {
                writer.member("timeout", Int(timeout))
            }
            if let userVerification {
                writer.member("userVerification", userVerification.rawValue)
            }
        }
    }
}

extension PublicKeyCredentialDescriptorJSON {
    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("id", id)
            if let transports {
                writer.member("transports", transports.map(\.rawValue))
            }
            writer.member("type", type.rawValue)
        }
    }
}

extension AuthenticatorSelectionCriteria {
    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            if let authenticatorAttachment {
                writer.member("authenticatorAttachment", authenticatorAttachment.rawValue)
            }
            if let requireResidentKey {
                writer.member("requireResidentKey", requireResidentKey)
            }
            if let residentKey {
                writer.member("residentKey", residentKey.rawValue)
            }
            if let userVerification {
                writer.member("userVerification", userVerification.rawValue)
            }
        }
    }
}

extension AuthenticationExtensionsClientInputsJSON {
    /// Other extensions' inputs are ``JSONValue``s, which `JSONEncoder` writes; so are PRF inputs
    /// by credential whose IDs are not ASCII, whose order is `JSONEncoder`'s to decide.
    var writesDirectly: Bool {
        otherExtensions.isEmpty && (prf?.evalByCredential?.keys.allSatisfy { $0.utf8.allSatisfy { $0 < 0x80 } } ?? true)
    }

    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            if let credProps {
                writer.member("credProps", credProps)
            }
            if let prf {
                writer.key("prf")
                writer.object { writer in
                    if let eval = prf.eval {
                        writer.key("eval")
                        eval.write(to: &writer)
                    }
                    if let evalByCredential = prf.evalByCredential {
                        writer.key("evalByCredential")
                        writer.object { writer in
                            for id in evalByCredential.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                                writer.key(id)
                                evalByCredential[id]?.write(to: &writer)
                            }
                        }
                    }
                }
            }
        }
    }
}

extension AuthenticationExtensionsPRFValuesJSON {
    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("first", first)
            if let second {
                writer.member("second", second)
            }
        }
    }
}
