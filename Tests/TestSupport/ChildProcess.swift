import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs another program for a test: a tool found on the PATH or an executable file, with standard
/// input given as text and both outputs collected (`run`), or left running to be signalled and
/// waited for (`start`).
///
/// Written on `posix_spawn` and `waitpid` rather than Foundation's `Process`: on Linux, `Process`
/// learns that a child ended when a socket it passes down is closed, so a child that starts a
/// daemon (tmux starting its server, `pg_ctl start`) is "running" for as long as the daemon is
/// (swift-corelibs-foundation#4795), and `waitUntilExit()` hangs the test run; a child it starts
/// also keeps every descriptor of the test process not marked close-on-exec, another test's pipe
/// among them, whose reader then never sees its end. Here the child gets
/// only its three standard descriptors, and the wait is for that one process. Not swift-subprocess:
/// its API is async, and most callers are synchronous tests.
public enum ChildProcess {
    public struct Result: Sendable {
        public let status: Int32
        public let stdout: String
        public let stderr: String
    }

    /// A child that did not finish in time; it was killed.
    public struct TimedOut: Error, CustomStringConvertible {
        public let command: [String]
        public let seconds: Double
        public let stdout: String
        public let stderr: String
        public var description: String {
            "\(command.joined(separator: " ")) did not finish within \(Int(seconds)) s and was killed; it wrote:\n\(stdout)\n\(stderr)"
        }
    }

    /// How long a child may run (or keep its output open) before it is killed: a hung child is
    /// a failing test, never a test run that waits for ever.
    public static let defaultTimeLimit: Double = 600

    /// Runs `tool` (a name looked up on the PATH) with `arguments`.
    public static func run(_ tool: String, _ arguments: [String], input: String = "", timeLimit: Double = defaultTimeLimit) throws -> Result {
        try run(URL(fileURLWithPath: "/usr/bin/env"), [tool] + arguments, input: input, timeLimit: timeLimit)
    }

    /// Runs the executable at `executable` with `arguments`.
    /// `environment` is added to (or replaces variables of) the test's own.
    public static func run(
        _ executable: URL, _ arguments: [String], input: String = "", environment: [String: String] = [:],
        timeLimit: Double = defaultTimeLimit
    ) throws -> Result {
        let stdin = try makePipe(), stdout = try makePipe(), stderr = try makePipe()
        let child: Running
        do {
            child = try spawn(executable, arguments, environment: environment, standardInput: .descriptor(stdin.read),
                              standardOutput: .descriptor(stdout.write), standardError: .descriptor(stderr.write))
            [stdin.read, stdout.write, stderr.write].forEach { _ = close($0) }
        } catch {
            [stdin.read, stdin.write, stdout.read, stdout.write, stderr.read, stderr.write].forEach { _ = close($0) }
            throw error
        }
        feed(input, to: stdin.write)
        let deadline = Date().addingTimeInterval(timeLimit)
        let (output, errorOutput, complete) = readBoth(stdout.read, stderr.read, until: deadline)
        do {
            let status = try child.wait(timeLimit: complete ? max(deadline.timeIntervalSinceNow, 0) : 0)
            return Result(status: status, stdout: text(output), stderr: text(errorOutput))
        } catch is TimedOut {
            throw TimedOut(command: child.command, seconds: timeLimit, stdout: text(output), stderr: text(errorOutput))
        }
    }

    /// Starts `executable` and leaves it running: for a server, or a command a test kills midway.
    ///
    /// Standard input gets `input` and then its end; standard output and error go to the files
    /// named (created or emptied), or nowhere. Unlike Foundation's `Process`, the child gets no
    /// other descriptor of the test process (another test's pipe held open by it would never
    /// reach its end), and every wait for it has a limit.
    public static func start(
        _ executable: URL, _ arguments: [String], input: String = "", environment: [String: String] = [:],
        standardOutput: URL? = nil, standardError: URL? = nil
    ) throws -> Running {
        let stdin = try makePipe()
        let child: Running
        do {
            child = try spawn(executable, arguments, environment: environment, standardInput: .descriptor(stdin.read),
                              standardOutput: standardOutput.map { .file($0.path) } ?? .nowhere,
                              standardError: standardError.map { .file($0.path) } ?? .nowhere)
            _ = close(stdin.read)
        } catch {
            [stdin.read, stdin.write].forEach { _ = close($0) }
            throw error
        }
        feed(input, to: stdin.write)
        return child
    }

    /// Starts a server that prints the port it listens on as the first line of its output
    /// (written to `output`), and waits up to 30 s for that line.
    public static func startServer(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:], output: URL
    ) throws -> (child: Running, port: Int) {
        let child = try start(executable, arguments, environment: environment, standardOutput: output)
        let deadline = Date().addingTimeInterval(30)
        var line: Substring?
        while line == nil, Date() < deadline, child.isRunning {
            let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            line = text.firstIndex(of: "\n").map { text[..<$0] }
            if line == nil { usleep(20_000) }
        }
        guard let port = line.flatMap({ Int($0) }) else {
            child.signal(SIGKILL)
            _ = try? child.wait(timeLimit: 30)
            throw ServerDidNotStart(command: child.command)
        }
        return (child, port)
    }

    /// A server started by `startServer` that never said its port.
    public struct ServerDidNotStart: Error, CustomStringConvertible {
        public let command: [String]
        public var description: String { "\(command.joined(separator: " ")) did not say its port within 30 s" }
    }

    /// A child started by this process, waited for with `waitpid` (its own, never another's).
    public final class Running: @unchecked Sendable {
        public let pid: pid_t
        public let command: [String]
        private let lock = NSLock()
        private var ended: Int32?

        init(pid: pid_t, command: [String]) {
            self.pid = pid
            self.command = command
        }

        /// Whether the child has not ended yet.
        public var isRunning: Bool { reap() == nil }

        /// The most memory the child has held at once so far (its resident high-water mark, in
        /// KiB), once it runs `executable`; nil before that or after it ended.
        ///
        /// Read from /proc while it runs: the `ru_maxrss` a wait reports also counts what the
        /// test process held when it spawned the child (a spawn shares the parent's memory until
        /// the exec, and the kernel keeps that mark), hundreds of megabytes in a long test run.
        public func residentPeakKB(runningAs executable: URL) -> Int? {
            guard (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")) == executable.resolvingSymlinksInPath().path,
                  let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                  let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return nil }
            return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
        }

        /// Sends `signal` to the child, if it still runs.
        public func signal(_ signal: Int32) {
            if isRunning { kill(pid, signal) }
        }

        /// Waits for the child to end: its exit status, or 128 + the signal that ended it, as a
        /// shell reports it. Past `timeLimit` seconds the child is killed and `TimedOut` thrown.
        @discardableResult
        public func wait(timeLimit: Double = ChildProcess.defaultTimeLimit) throws -> Int32 {
            let deadline = Date().addingTimeInterval(timeLimit)
            var pause: useconds_t = 500
            while true {
                if let status = reap() { return status }
                if Date() >= deadline {
                    kill(pid, SIGKILL)
                    while reap() == nil { usleep(1_000) }
                    throw TimedOut(command: command, seconds: timeLimit, stdout: "", stderr: "")
                }
                usleep(pause)
                pause = min(pause * 2, 20_000)
            }
        }

        /// The status once the child has ended (reaped once, remembered after).
        private func reap() -> Int32? {
            lock.lock()
            defer { lock.unlock() }
            if let ended { return ended }
            var status: Int32 = 0
            var reaped: pid_t
            repeat { reaped = waitpid(pid, &status, WNOHANG) } while reaped == -1 && errno == EINTR
            // -1 (ECHILD) cannot happen for a child reaped only here; treat it as ended rather than spin.
            guard reaped == pid || reaped == -1 else { return nil }
            ended = reaped == -1 ? 128 + SIGKILL : (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
            return ended
        }

        /// A child nobody waited for is killed, not left behind the test run.
        deinit {
            if reap() == nil {
                kill(pid, SIGKILL)
                while reap() == nil { usleep(1_000) }
            }
        }
    }

    // MARK: Spawning

    /// Where one of the child's standard descriptors comes from or goes.
    private enum Stream {
        case descriptor(Int32)
        case file(String)
        case nowhere
    }

    private static func spawn(
        _ executable: URL, _ arguments: [String], environment: [String: String],
        standardInput: Stream, standardOutput: Stream, standardError: Stream
    ) throws -> Running {
        let command = [executable.path] + arguments
        let variables = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (stream, target) in [(standardInput, Int32(0)), (standardOutput, 1), (standardError, 2)] {
            switch stream {
            case .descriptor(let descriptor): posix_spawn_file_actions_adddup2(&actions, descriptor, target)
            case .file(let path): posix_spawn_file_actions_addopen(&actions, target, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            case .nowhere: posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
            }
        }
        // Nothing else of the test process goes to the child, nor to whatever the child starts.
        _ = closingFrom3?(&actions, 3)

        // The child starts with no blocked signals and the default actions, whatever the test runner set.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), reset = sigset_t()
        sigemptyset(&none)
        sigemptyset(&reset)
        for signal in [SIGPIPE, SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGCHLD, SIGUSR1, SIGUSR2] { sigaddset(&reset, signal) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &reset)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = command.map { strdup($0) } + [nil]
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable.path, &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        return Running(pid: pid, command: command)
    }

    /// Writes `input` to `descriptor` from another thread, then closes it: a large input cannot
    /// block on a child that first fills its output pipe.
    private static func feed(_ input: String, to descriptor: Int32) {
        let bytes = Array(input.utf8)
        let writer = Thread {
            bytes.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                    if written > 0 { offset += written } else if errno != EINTR { break }
                }
            }
            close(descriptor)
        }
        writer.start()
    }

    /// The directory of the running test binary, where `swift build` puts the package's executables.
    public static var productsDirectory: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    }

    // MARK: Descriptors

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc
    /// module does not declare.
    private static let closingFrom3: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    private static func makePipe() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }

    /// Reads two descriptors to their ends, or until `deadline`; closes both. `complete` is false
    /// when the deadline came first.
    private static func readBoth(_ first: Int32, _ second: Int32, until deadline: Date) -> ([UInt8], [UInt8], complete: Bool) {
        var collected: [[UInt8]] = [[], []]
        var open = [first, second]
        var chunk = [UInt8](repeating: 0, count: 65_536)
        defer { [first, second].forEach { _ = close($0) } }
        while open.contains(where: { $0 >= 0 }) {
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 { return (collected[0], collected[1], false) }
            var polled = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&polled, nfds_t(polled.count), Int32(min(remaining, 1) * 1000))
            if ready < 0, errno != EINTR { break }
            for index in 0..<2 where open[index] >= 0 && polled[index].revents != 0 {
                let count = chunk.withUnsafeMutableBytes { read(open[index], $0.baseAddress!, $0.count) }
                if count > 0 {
                    collected[index] += chunk[..<count]
                } else if count == 0 || errno != EINTR && errno != EAGAIN {
                    open[index] = -1
                }
            }
        }
        return (collected[0], collected[1], true)
    }

    private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
