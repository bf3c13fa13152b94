/// One point of how a cost grows with size (issue 46): a figure of one series (a store's `get` by
/// credential ID per second, a tenant's login p99, …) measured at one size (passkeys in a store,
/// users in a tenant). `passkey-bench growth` prints them as JSON, and `Tools/plot_growth.py`
/// draws each group's series against size on log axes.
struct GrowthPoint: Codable, Equatable {
    /// What grows: `store`, `tenant-sqlite` or `tenant-postgres`.
    let group: String
    /// A stable identifier of the series within its group (`get-by-id`, `login-p99`).
    let series: String
    /// What the series is, in words, for a legend.
    let label: String
    /// The size it was measured at: passkeys in the store, or users in the tenant.
    let size: Int
    /// The figure.
    let value: Double
    /// Its unit (`ops/s`, `ms`, `bytes`, `MB`).
    let unit: String
}
