#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The terminal's settings before single-key mode, for the signal handlers, which may only touch global state.
/// Written once, before the handlers are installed; read only to restore.
nonisolated(unsafe) private var savedSettings = termios()
nonisolated(unsafe) private var singleKeyModeOn = false

/// Restores the saved settings; async-signal-safe (only `tcsetattr`).
private func restoreSavedSettings() {
    guard singleKeyModeOn else { return }
    _ = tcsetattr(STDIN_FILENO, TCSANOW, &savedSettings)
}

/// Single-key input for a terminal screen: without it a key does nothing until Enter, and is echoed.
enum Terminal {
    /// If standard input is a terminal, turns off line buffering and echo, and makes sure the terminal is restored
    /// on `restore()`, on the end of the process, on Ctrl-C (SIGINT) and on SIGTERM. Piped input is left as it is.
    /// Returns whether single-key mode is on.
    @discardableResult
    static func enterSingleKeyMode() -> Bool {
        guard isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &savedSettings) == 0 else { return false }
        var raw = savedSettings
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0 else { return false }
        singleKeyModeOn = true
        for number in [SIGINT, SIGTERM] {
            _ = signal(number) { received in
                restoreSavedSettings()
                _ = write(STDOUT_FILENO, "\n", 1)
                _exit(128 + received)
            }
        }
        atexit { restoreSavedSettings() }
        return true
    }

    /// Puts the terminal back as it was (a no-op if single-key mode was never entered).
    static func restore() {
        restoreSavedSettings()
    }

    /// Standard input one byte at a time; ends at the end of input or at Ctrl-D. Each key counts at once in
    /// single-key mode; piped input is read as it comes.
    static func readKey() -> Character? {
        var byte: UInt8 = 0
        while true {
            let count = read(STDIN_FILENO, &byte, 1)
            if count == 1 { break }
            if count < 0 && errno == EINTR { continue }
            return nil
        }
        if byte == 4 { return nil } // Ctrl-D, which single-key mode passes through as a byte
        return Character(Unicode.Scalar(byte))
    }
}
