/// The environment a ``ChildProcess`` runs with.
public enum ChildEnvironment: Sendable, Hashable {
    /// This process's environment, with these variables added or replaced.
    case inheriting([String: String])
    /// Exactly these variables, nothing inherited: what a user's shell would hand the command.
    case exactly([String: String])
}
