extension SecretKey: Hashable {
    /// Whether two keys are the same 32 bytes, compared in constant time, so that values holding
    /// a key (an authenticator's response with its `largeBlobKey`) can be compared.
    public static func == (lhs: SecretKey, rhs: SecretKey) -> Bool {
        lhs.withUnsafeBytes { left in
            rhs.withUnsafeBytes { right in
                zip(left, right).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
            }
        }
    }

    /// Feeds the key to the process's randomly seeded hasher; the hash reveals nothing stable.
    public func hash(into hasher: inout Hasher) {
        withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}
