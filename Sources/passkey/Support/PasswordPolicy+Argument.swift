public import ArgumentParser
public import PasskeyTenant

/// `--password-policy none|low|fair|good|excellent`: the connection's password strength policy.
extension PasswordPolicy: ExpressibleByArgument {}

/// `--bot-detection off|always`.
extension DatabaseConnectionOptions.BotDetection: ExpressibleByArgument {}
