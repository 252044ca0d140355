//! The terminal while the view runs: raw mode and the alternate screen,
//! given back whatever way the view ends — a normal quit (the guard's
//! drop), a panic (the hook, before the message is printed), or a signal
//! (the first asks the view to quit, a second restores and dies).

use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use ratatui::crossterm::{cursor, execute, terminal};

/// The terminal's settings before raw mode, for the signal handler.
static SAVED: OnceLock<libc::termios> = OnceLock::new();
/// The terminal is in the view's state (restoring twice is harmless, but
/// a restore after the view ended would clear the user's screen).
static ACTIVE: AtomicBool = AtomicBool::new(false);
/// Signals received: the first asks the view to quit.
static SIGNALS: AtomicUsize = AtomicUsize::new(0);
/// The first signal's number (0: none yet).
static FIRST_SIGNAL: AtomicI32 = AtomicI32::new(0);
/// Turns of the UI loop, for the watchdog.
static BEATS: AtomicU64 = AtomicU64::new(0);
/// Writes under way (a job past its confirmation).
static WRITING: AtomicUsize = AtomicUsize::new(0);
/// Panics of worker threads, printed once the terminal is back.
static PANICS: Mutex<Vec<String>> = Mutex::new(Vec::new());

thread_local! {
    static UI_THREAD: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Raw mode and the alternate screen until dropped.
pub struct Guard(());

impl Guard {
    pub fn enter() -> std::io::Result<Guard> {
        // SAFETY: tcgetattr writes a termios into the zeroed struct.
        unsafe {
            let mut t: libc::termios = std::mem::zeroed();
            if libc::tcgetattr(libc::STDIN_FILENO, &mut t) == 0 {
                let _ = SAVED.set(t);
            }
        }
        UI_THREAD.with(|u| u.set(true));
        install_panic_hook();
        install_signal_handlers();
        start_watchdog();
        terminal::enable_raw_mode()?;
        ACTIVE.store(true, Ordering::SeqCst);
        let entered = execute!(
            std::io::stdout(),
            terminal::EnterAlternateScreen,
            cursor::Hide
        );
        if let Err(e) = entered {
            restore();
            return Err(e);
        }
        Ok(Guard(()))
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        restore();
        for p in take_panics() {
            eprintln!("{p}");
        }
    }
}

/// Leave the alternate screen and raw mode, show the cursor.
pub fn restore() {
    if !ACTIVE.swap(false, Ordering::SeqCst) {
        return;
    }
    let _ = execute!(
        std::io::stdout(),
        terminal::LeaveAlternateScreen,
        cursor::Show
    );
    let _ = terminal::disable_raw_mode();
    let _ = std::io::stdout().flush();
}

/// The UI loop went round once (the watchdog's sign of life).
pub fn beat() {
    BEATS.fetch_add(1, Ordering::Relaxed);
}

/// A write starts (`true`) or ends (`false`): the watchdog never ends the
/// process in the middle of one.
pub fn writing(started: bool) {
    if started {
        WRITING.fetch_add(1, Ordering::SeqCst);
    } else {
        WRITING.fetch_sub(1, Ordering::SeqCst);
    }
}

/// After a signal the UI loop quits by itself — unless its terminal is
/// gone: crossterm then reads end-of-file forever inside `poll` (a known
/// crossterm defect), so the loop never sees the signal and the process would
/// spin until killed. A hangup is the usual way (a closed window, a lost
/// ssh connection). The watchdog ends the process when a signal came, the
/// loop has not turned for two seconds, and no write is under way (one is
/// let finish: every write is crash-safe, but a finished one needs no
/// repair).
fn start_watchdog() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        std::thread::spawn(|| {
            let mut last = (BEATS.load(Ordering::Relaxed), std::time::Instant::now());
            loop {
                std::thread::sleep(Duration::from_millis(250));
                let beats = BEATS.load(Ordering::Relaxed);
                if beats != last.0 {
                    last = (beats, std::time::Instant::now());
                    continue;
                }
                let stuck = last.1.elapsed() >= Duration::from_secs(2);
                if stuck && quit_requested() && WRITING.load(Ordering::SeqCst) == 0 {
                    restore();
                    let sig = FIRST_SIGNAL.load(Ordering::SeqCst);
                    std::process::exit(128 + sig);
                }
            }
        });
    });
}

/// A signal asked the view to quit.
pub fn quit_requested() -> bool {
    SIGNALS.load(Ordering::SeqCst) > 0
}

/// What worker threads panicked with (said once the terminal is back).
pub fn take_panics() -> Vec<String> {
    std::mem::take(&mut *PANICS.lock().unwrap_or_else(|e| e.into_inner()))
}

fn install_panic_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if UI_THREAD.with(|u| u.get()) {
                // The message must land on the user's screen, not the
                // alternate one, and the shell must work afterwards.
                restore();
                previous(info);
            } else if ACTIVE.load(Ordering::SeqCst) {
                // A worker: the view reports its failure and goes on; the
                // message would garble the screen now, so it waits.
                let at = info
                    .location()
                    .map(|l| format!(" at {}:{}", l.file(), l.line()))
                    .unwrap_or_default();
                let what = info
                    .payload()
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_owned())
                    .or_else(|| info.payload().downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                PANICS
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push(format!("sessionctl: internal error{at}: {what}"));
            } else {
                previous(info);
            }
        }));
    });
}

/// The first signal the view was sent (0: none): the exit code is then
/// 128 + it, as a shell reports a process a signal ended, so a script or a
/// supervisor sees the view did not end by the user's `q`.
pub fn first_signal() -> i32 {
    FIRST_SIGNAL.load(Ordering::SeqCst)
}

extern "C" fn on_signal(sig: libc::c_int) {
    let _ = FIRST_SIGNAL.compare_exchange(0, sig, Ordering::SeqCst, Ordering::SeqCst);
    if SIGNALS.fetch_add(1, Ordering::SeqCst) == 0 {
        return; // the view sees it and quits, after a running write ends
    }
    // A second one: give the terminal back and die of the signal. Only
    // async-signal-safe calls here (tcsetattr, write, signal, raise).
    const RESET: &[u8] = b"\x1b[?1049l\x1b[?25h";
    // SAFETY: plain system calls on static data.
    unsafe {
        if let Some(t) = SAVED.get() {
            libc::tcsetattr(libc::STDIN_FILENO, libc::TCSANOW, t);
        }
        libc::write(libc::STDOUT_FILENO, RESET.as_ptr().cast(), RESET.len());
        libc::signal(sig, libc::SIG_DFL);
        libc::raise(sig);
    }
}

fn install_signal_handlers() {
    let handler = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
    for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP, libc::SIGQUIT] {
        // SAFETY: installs a handler that only touches atomics and makes
        // async-signal-safe calls.
        unsafe {
            libc::signal(sig, handler);
        }
    }
}
