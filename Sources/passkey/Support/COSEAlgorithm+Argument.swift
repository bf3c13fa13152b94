public import ArgumentParser
public import WebAuthn

/// `--algorithm ES256` or `--algorithm -7`: a signature algorithm by its registry name (any case)
/// or its COSE identifier (IANA "COSE Algorithms").
extension COSEAlgorithm: ExpressibleByArgument {
    public init?(argument: String) {
        let algorithm =
            Int(argument).flatMap(COSEAlgorithm.init(rawValue:))
            ?? COSEAlgorithm.allCases.first { $0.description.lowercased() == argument.lowercased() }
        guard let algorithm, algorithm.isSignatureAlgorithm else { return nil }
        self = algorithm
    }

    public static var allValueStrings: [String] {
        allCases.filter(\.isSignatureAlgorithm).map(\.description)
    }
}
