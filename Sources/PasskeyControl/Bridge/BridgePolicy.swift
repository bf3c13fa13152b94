/// Which of a browser's rules for WebAuthn in frames the page bridge enforces in the page.
///
/// A browser's own WebAuthn refuses two requests that the bridge, as a script in the page, must
/// refuse itself to answer as the browser would:
///
/// - **Permissions Policy** (WebAuthn L3 §5.9): `publickey-credentials-create` and
///   `publickey-credentials-get` are enabled in a cross-origin frame only when every embedding
///   frame delegates them (`<iframe allow="publickey-credentials-get *">`); otherwise
///   `NotAllowedError`.
/// - **User activation** (WebAuthn L3 §5.1.3 step 2): `create()` in a frame that is not
///   same-origin with its ancestors needs transient activation (HTML §6.4.3); otherwise
///   `NotAllowedError`, in Chromium's words.
///
/// Both are enforced by default. A test that drives a cross-origin frame without a person (no
/// click, an embedder it cannot change) relaxes them by name: `relax=permissions-policy` and
/// `relax=user-activation` in the query of `GET …/authenticator/{a}/bridge.js`.
///
/// The script reads it as its configuration's `policy` member:
/// `{"permissionsPolicy": true, "userActivation": true}` (`true`: enforced).
public struct BridgePolicy: Sendable, Hashable, Encodable {
    /// Whether a cross-origin frame needs its embedders' permissions policy (WebAuthn L3 §5.9).
    public var permissionsPolicy: Bool
    /// Whether `create()` in a cross-origin frame needs transient user activation (WebAuthn L3 §5.1.3).
    public var userActivation: Bool

    /// A policy.
    ///
    /// - Parameters:
    ///   - permissionsPolicy: whether the permissions policy is enforced.
    ///   - userActivation: whether user activation is required.
    public init(permissionsPolicy: Bool = true, userActivation: Bool = true) {
        self.permissionsPolicy = permissionsPolicy
        self.userActivation = userActivation
    }

    /// Both rules enforced, as a browser does.
    public static let enforced = BridgePolicy()

    /// The names of the rules that can be relaxed, as the `relax` query parameter gives them.
    public static let ruleNames = ["permissions-policy", "user-activation"]

    /// The policy with the named rules relaxed.
    ///
    /// - Parameter names: rule names from ``ruleNames``, each at most once or more.
    /// - Throws: ``ControlError`` `invalid argument` for a name that is not a rule.
    public init(relaxing names: some Sequence<String>) throws(ControlError) {
        self.init()
        for name in names {
            switch name {
            case "permissions-policy": permissionsPolicy = false
            case "user-activation": userActivation = false
            default:
                throw .invalidArgument(
                    "relax: \(name) is not a rule the bridge enforces (\(Self.ruleNames.joined(separator: ", ")))")
            }
        }
    }

    /// The names of the relaxed rules, in the order of ``ruleNames``.
    public var relaxed: [String] {
        zip(Self.ruleNames, [permissionsPolicy, userActivation]).filter { !$0.1 }.map(\.0)
    }
}
