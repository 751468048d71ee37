/// Python's `cryptography` package as an independent second implementation (skipped when not installed).
enum PythonCryptography {
    static let isAvailable: Bool = {
        guard ExternalTool.isInstalled("python3") else { return false }
        return (try? ExternalTool.run("python3", ["-c", "import cryptography.hazmat.primitives.asymmetric.padding"]))?.status == 0
    }()

    /// Runs `script` with `arguments`; `run` adds the script's shared preamble.
    static func run(_ script: String, arguments: [String]) throws -> ExternalTool.Outcome {
        try ExternalTool.run("python3", ["-c", preamble + script] + arguments)
    }

    private static let preamble = """
        import sys, base64
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import padding, ec, utils
        from cryptography.exceptions import InvalidSignature
        def b64d(s): return base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))
        def b64e(b): return base64.urlsafe_b64encode(b).rstrip(b"=").decode()
        HASHES = {"RS256": hashes.SHA256(), "RS384": hashes.SHA384(), "RS512": hashes.SHA512(),
                  "PS256": hashes.SHA256(), "ES256": hashes.SHA256()}

        """

    /// argv: alg, public key PEM, base64url data, base64url signature. Prints "ok" or "bad".
    /// PS256 is checked with salt length exactly 32, as RFC 7518 §3.5 requires of signers.
    static let verifyScript = """
        alg, pem, data, sig = sys.argv[1:5]
        key = serialization.load_pem_public_key(pem.encode())
        data, sig, h = b64d(data), b64d(sig), HASHES[alg]
        try:
            if alg.startswith("RS"):
                key.verify(sig, data, padding.PKCS1v15(), h)
            elif alg == "PS256":
                key.verify(sig, data, padding.PSS(mgf=padding.MGF1(hashes.SHA256()), salt_length=32), h)
            else:
                r, s = int.from_bytes(sig[:32], "big"), int.from_bytes(sig[32:], "big")
                key.verify(utils.encode_dss_signature(r, s), data, ec.ECDSA(h))
            print("ok")
        except InvalidSignature:
            print("bad")
        """

    /// argv: private key PEM, base64url data. Prints a base64url PS256 signature with the largest salt
    /// (Python's default, and what some client libraries send).
    static let signPSSMaximumSaltScript = """
        pem, data = sys.argv[1:3]
        key = serialization.load_pem_private_key(pem.encode(), None)
        pss = padding.PSS(mgf=padding.MGF1(hashes.SHA256()), salt_length=padding.PSS.MAX_LENGTH)
        print(b64e(key.sign(b64d(data), pss, hashes.SHA256())))
        """
}
