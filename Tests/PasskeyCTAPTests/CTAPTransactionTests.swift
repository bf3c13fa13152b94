import PasskeyCTAP
import Testing

@Suite struct CTAPTransactionTests {
    @Test func keepAliveStatusesAreCTAPs() {
        #expect(KeepAliveStatus.processing.rawValue == 1 && KeepAliveStatus.userPresenceNeeded.rawValue == 2)
    }
}
