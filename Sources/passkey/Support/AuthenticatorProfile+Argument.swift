public import ArgumentParser
public import PasskeyAuthenticator

/// `--profile NAME`: one of the built-in profiles, by name.
extension AuthenticatorProfile: ExpressibleByArgument {
    public init?(argument: String) {
        guard let profile = AuthenticatorProfile.builtIn[argument] else { return nil }
        self = profile
    }

    public var defaultValueDescription: String { name }

    public static var allValueStrings: [String] { builtIn.keys.sorted() }
}
