import Testing
import MockIDPJOSE

/// Keys made once per test process (RSA generation takes 60–650 ms), shared by every suite.
enum TestKeys {
    static let rsa = Result { () throws(OpenSSLError) in try PrivateKey.generateRSA() }
    static let otherRSA = Result { () throws(OpenSSLError) in try PrivateKey.generateRSA() }
    static let ec = Result { () throws(OpenSSLError) in try PrivateKey.generateECP256() }
    static let otherEC = Result { () throws(OpenSSLError) in try PrivateKey.generateECP256() }

    /// A key for each algorithm, and one of the same kind that did not make the signature.
    static func pair(for algorithm: SignatureAlgorithm) throws -> (signer: PrivateKey, stranger: PrivateKey) {
        algorithm == .es256 ? (try ec.get(), try otherEC.get()) : (try rsa.get(), try otherRSA.get())
    }
}

/// RFC 7515 Appendix A: the example payload, and the A.2 RSA key with its deterministic RS256 signature.
enum RFC7515 {
    /// The JWS Payload of A.1–A.3 (note the CR LF line breaks): `{"iss":"joe",\r\n "exp":1300819380,\r\n ...}`.
    static let payload: [UInt8] = Array("{\"iss\":\"joe\",\r\n \"exp\":1300819380,\r\n \"http://example.com/is_root\":true}".utf8)
    static let encodedPayload = "eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"

    /// A.2.1: the RSA key as JWK members.
    static let n = "ofgWCuLjybRlzo0tZWJjNiuSfb4p4fAkd_wWJcyQoTbji9k0l8W26mPddxHmfHQp-Vaw-4qPCJrcS2mJPMEzP1Pt0Bm4d4QlL-yRT-SFd2lZS-pCgNMsD1W_YpRPEwOWvG6b32690r2jZ47soMZo9wGzjb_7OMg0LOL-bSf63kpaSHSXndS5z5rexMdbBYUsLA9e-KXBdQOS-UTo7WTBEMa2R2CapHg665xsmtdVMTBQY4uDZlxvb3qCo5ZwKh9kG4LT6_I5IhlJH7aGhyxXFvUK-DWNmoudF8NAco9_h9iaGNj8q2ethFkMLs91kzk2PAcDTW9gb54h4FRWyuXpoQ"
    static let e = "AQAB"
    static let d = "Eq5xpGnNCivDflJsRQBXHx1hdR1k6Ulwe2JZD50LpXyWPEAeP88vLNO97IjlA7_GQ5sLKMgvfTeXZx9SE-7YwVol2NXOoAJe46sui395IW_GO-pWJ1O0BkTGoVEn2bKVRUCgu-GjBVaYLU6f3l9kJfFNS3E0QbVdxzubSu3Mkqzjkn439X0M_V51gfpRLI9JYanrC4D4qAdGcopV_0ZHHzQlBjudU2QvXt4ehNYTCBr6XCLQUShb1juUO1ZdiYoFaFQT5Tw8bGUl_x_jTj3ccPDVZFD9pIuhLhBOneufuBiB4cS98l2SR_RQyGWSeWjnczT0QU91p1DhOVRuOopznQ"
    static let p = "4BzEEOtIpmVdVEZNCqS7baC4crd0pqnRH_5IB3jw3bcxGn6QLvnEtfdUdiYrqBdss1l58BQ3KhooKeQTa9AB0Hw_Py5PJdTJNPY8cQn7ouZ2KKDcmnPGBY5t7yLc1QlQ5xHdwW1VhvKn-nXqhJTBgIPgtldC-KDV5z-y2XDwGUc"
    static let q = "uQPEfgmVtjL0Uyyx88GZFF1fOunH3-7cepKmtH4pxhtCoHqpWmT8YAmZxaewHgHAjLYsp1ZSe7zFYHj7C6ul7TjeLQeZD_YwD66t62wDmpe_HlB-TnBA-njbglfIsRLtXlnDzQkv5dTltRJ11BKBBypeeF6689rjcJIDEz9RWdc"
    static let dp = "BwKfV3Akq5_MFZDFZCnW-wzl-CCo83WoZvnLQwCTeDv8uzluRSnm71I3QCLdhrqE2e9YkxvuxdBfpT_PI7Yz-FOKnu1R6HsJeDCjn12Sk3vmAktV2zb34MCdy7cpdTh_YVr7tss2u6vneTwrA86rZtu5Mbr1C1XsmvkxHQAdYo0"
    static let dq = "h_96-mK1R_7glhsum81dZxjTnYynPbZpHziZjeeHcXYsXaaMwkOlODsWa7I9xXDoRwbKgB719rrmI2oKr6N3Do9U0ajaHF-NKJnwgjMd2w9cjz3_-kyNlxAr2v4IKhGNpmM5iIgOS1VZnOZ68m6_pbLBSp3nssTdlqvd0tIiTHU"
    static let qi = "IYd7DHOhrWvxkwPQsRM2tOgrjbcrfvtQJipd-DlcxyVuuM9sQLdgjVk2oy26F0EmpScGLq2MowX7fhd_QJQ3ydy5cY7YIBi87w93IKLEdfnbJtoOPLUW0ITrJReOgo1cq9SbsxYawBgfp_gh6A5603k2-ZQwVK0JKSHuLFkuQ3U"

    /// A.2.1: the JWS Signing Input (`{"alg":"RS256"}` and the payload) and the resulting signature.
    static let rs256SigningInput = "eyJhbGciOiJSUzI1NiJ9." + encodedPayload
    static let rs256Signature = "cC4hiUPoj9Eetdgtv3hF80EGrhuB__dzERat0XF9g2VtQgr9PJbu3XOiZj5RZmh7AAuHIm4Bh-0Qc_lF5YKt_O8W2Fp5jujGbds9uJdbF9CUAr7t1dnZcAcQjbKBYNX4BAynRFdiuB--f_nZLgrnbyTyWzO75vRK5h6xBArLIARNPvkSjtQBMHlb1L07Qe7K0GarZRmB_eSN9383LcOLn6_dO--xi12jzDwusC-eOkHWEsqtFZESc6BfI7noOPqvhJ1phCnvWh6IeYI2w9QOYEUipUTI8np6LbgGY9Fs98rqVt5AXLIhWkWywlVmtVrBp0igcN_IoypGlUPQGe77Rw"

    /// A.3: the P-256 public key (x, y) and the ES256 token it verifies (ECDSA is randomised: verify only).
    static let es256X = "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU"
    static let es256Y = "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"
    static let es256Token = "eyJhbGciOiJFUzI1NiJ9." + encodedPayload
        + ".DtEhU3ljbEg8L38VWAfUAqOyKAM6-Xx-F4GawxaepmXFCgfTjDxw5djxLa8ISlSApmWQxfKTUJqPP3-Kg6NU1Q"

    static func decoded(_ text: String) throws -> [UInt8] { try #require(Base64URL.decode(text)) }

    /// The A.2 key, built from its JWK components.
    static func privateKey() throws -> PrivateKey {
        try PrivateKey.rsa(
            n: decoded(n), e: decoded(e), d: decoded(d), p: decoded(p), q: decoded(q),
            dp: decoded(dp), dq: decoded(dq), qi: decoded(qi))
    }

    /// The A.3 public key as PEM: a P-256 SubjectPublicKeyInfo around the uncompressed point 04 || x || y.
    static func es256PublicKeyPEM() throws -> String {
        let prefix: [UInt8] = [
            0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01, 0x06, 0x08, 0x2A, 0x86,
            0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00, 0x04,
        ]
        let der = prefix + (try decoded(es256X)) + (try decoded(es256Y))
        return "-----BEGIN PUBLIC KEY-----\n\(Base64URL.encodeStandard(der))\n-----END PUBLIC KEY-----\n"
    }
}
