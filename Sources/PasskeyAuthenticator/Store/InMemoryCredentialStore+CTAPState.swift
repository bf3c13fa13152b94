extension InMemoryCredentialStore: CTAPStateStore {
    public func ctapState() -> CTAPDeviceState {
        ctapDeviceState
    }

    public func setCTAPState(_ state: CTAPDeviceState) {
        ctapDeviceState = state
    }
}
