/// A 2048-bit RSA private key made once with
/// `openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048` for test tenants to sign with,
/// so that no test spends seconds generating one (issue 11).
///
/// A test fixture: its private half is in this repository, so it must never sign anything outside
/// the tests.
public enum FixtureSigningKey {
    /// The key as a PKCS#8 PEM.
    public static let pem = """
        -----BEGIN PRIVATE KEY-----
        MIIEvAIBADANBgkqhkiG9w0BAQEFAASCBKYwggSiAgEAAoIBAQC7NC2edCbtyD5k
        5FF28OzkPutruu7zKJl4QXvSyinYXaLxaCeGi6lpNC57UOJNlbhfGRKYFWJmQECc
        EmWS6tVBBkUtw6zVO5YcPlMwlJMfdYyhVGbTKXKeoEnitfw69APhqwmO0iwJSzFf
        A57tkf5ceTE0+ho0Tyfzj0yeGQPKiJ8eCShAZfbMvhelIical1CF4IEAW7E4j0pQ
        vJr4QHv4aF48ebLyF8g7V9FFa9QDQkxNKVFpO+14zNAAMzdqvoI/jizmuHCltkA/
        sqdYdhOcwASh4ViCawdA89wNHrCDS1mP6EcKz+F15dyM+C7NGigYcdW/i5VB03Zk
        MKyyjgIpAgMBAAECggEABcxDKG/s/7rOseW/XyltkNEhDfRbb7T/cdHHYbsoqh6W
        TBc/eCONsuguk1upMqFzNSDL6mFpK4UMazkHo9H5mlq1HEp96RnAF65Xeb70Qopr
        uVhpmdskBWUt/KNJxVKm5x+au21ndz84r3pnevClWdxYCY3Ab4PPFzRGOXRJYYWl
        isPr6xHROrrPAiNw6lwgdKrk+iJmcx/4kD7yO8g2pK49ZJrlmAYC0H0CEzSExfwW
        uiSELcNFGaga0n7VAE+L66WkWFT9r3duhsM9szfLGdMDdnVxrCBveMkQ6QDd7NW5
        Ct68GwXqK2IDP0EqdDLV7Djlg8QvL7JwtR2nbKerPQKBgQD4ZXrsSNhqUFBmUmlQ
        hxl/HTDcga7Es8P90flhI8UbX4wXFrJy18s48NKbO9RF6k0GAQvr+tIgvNRENQY3
        d1EaDpXkfTODYjSISvkjnxD9pEZm5DB64HMnPkVvvgUQafyjHCx/GjWcTvSmRM0d
        uedJXDXtZm7hHiTh+OjITK/wDQKBgQDA7yv9+myPqizVv4KhMBGokhrsmj/AyDel
        oy3+DM2OdN3ogtpNMrjrrUw6A9dwhWEFUHeIxht+e8+fHAiE1gDA7TOwLxTdD+hC
        GaUuiF1yV26TXuunjFMM2egx13/rv2zvUn8WQwWj7aCiTgtB1sfGizHRwFnZI+L/
        DLyldGQ3jQKBgH8yuDe3Ndt7NTCwku2BwTSupg7E+dIQnBSmKaXsw0q5KuvH26mj
        h5Wo/LAxewoyaS7h6lD1KBVLnQcwf/Z3Szikr21KD87/wxboDZyIIBNCxCp8P7cs
        qMs3wCbwj3dQTubXzpFnwnxAkldyc/b888tFRPhEtBLjdM+ivtGTM6UhAoGAD4gx
        pnSuoLI2gc61GXzhLwz0FfAlCcQUlsUYQseNFNbbtogyQty+flqpNFJy2aAjO2ZK
        +TvZoskc4dZD6U3BKcbuzlQ7/b/2FrwxzBk2TKo1QK/3kLl/Rh2Uz85lgfkbL/kY
        OhaTMatDr01RIq/DzXwPOq+djBmTgKzp0vgXyVECgYAKTTdFAeGW+VANQvIn9u6J
        C9+sXIMhtgdhLT6Jt8e7LRmvfZYT0jHzVx+6kYvhHQYUZ2M+1hQ51TC51RQi9oH3
        1oVrCicybK9+nSX1cArFTdibGyWpwMBCuqI9D9zMTIbfZkLRuqQKOyWLjSV4IPpl
        flZ19pP6t0sbAJ7DHbonRQ==
        -----END PRIVATE KEY-----
        """
}
