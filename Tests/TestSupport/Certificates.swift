import Foundation

extension ScratchFolder {
    /// openssl failed to make a certificate.
    public struct CertificateNotMade: Error, CustomStringConvertible {
        public let stderr: String
        public var description: String { "openssl made no certificate: \(stderr)" }
    }

    /// A self-signed certificate for 127.0.0.1, valid for a day, and its key: PEM files in this
    /// folder, made with openssl. No machine trusts it unless told to.
    public func selfSignedCertificate() throws -> (certificate: String, key: String) {
        let (certificate, key) = (path("cert.pem").path, path("key.pem").path)
        let made = try ChildProcess.run("openssl", [
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "1",
            "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
        ])
        guard made.status == 0 else { throw CertificateNotMade(stderr: made.stderr) }
        return (certificate, key)
    }
}
