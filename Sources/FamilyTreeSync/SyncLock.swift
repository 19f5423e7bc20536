#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive lock on a file, so that one sync of a user runs at a time on a device.
/// The operating system releases it when the process ends, however it ends.
public final class SyncLock {
    private let descriptor: Int32
    /// The lock file's path.
    public let path: String

    /// Takes the lock, or throws `.busy` at once when another process holds it.
    public init(path: String) throws(SyncError) {
        self.path = path
        descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .store("cannot open the lock file \(path)") }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw .busy(path)
        }
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
