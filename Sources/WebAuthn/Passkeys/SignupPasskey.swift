/// A new passkey that signs a new user up through Auth0's webauthn grant (Auth0 passkey API
/// spec §4.2, §3.4).
///
/// It adds nothing to ``NewPasskey``: since Auth0.swift 2.13.0 the signup protocol is an empty
/// refinement, kept so that signup and My Account enrollment (which takes any ``NewPasskey``)
/// read the same four values under the names the SDK uses.
public protocol SignupPasskey: NewPasskey {}
