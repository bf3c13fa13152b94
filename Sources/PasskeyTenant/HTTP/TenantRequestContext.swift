public import Hummingbird

/// The request context of the tenant's router: Hummingbird's core context plus the client's
/// address, which failed attempts are counted against.
public struct TenantRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The client's IP address; nil when the channel has none (router tests).
    public let remoteAddress: String?

    public init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        remoteAddress = source.channel.remoteAddress?.ipAddress
    }
}
