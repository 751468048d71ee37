import COpenSSL

// Temporary until the JOSE branch lands; replaced by Digest.swift and SecureRandom.swift there.
public enum Digest {
    public static func sha256(_ d: some Collection<UInt8>) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        let input = Array(d)
        var len: UInt32 = 0
        _ = input.withUnsafeBytes { EVP_Digest($0.baseAddress, $0.count, &out, &len, EVP_sha256(), nil) }
        return out
    }
}
public enum SecureRandom {
    public static func bytes(_ count: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        guard RAND_bytes(&out, Int32(count)) == 1 else { preconditionFailure("the system CSPRNG failed") }
        return out
    }
}
