//! The terminal `watch` draws on: each screen replaces the last (cleared,
//! and written in one write, so it does not flicker), keys are read one
//! at a time while standard input is a terminal, and the terminal is put
//! back as it was when this is dropped, however `watch` ends.

use std::io::{IsTerminal, Write};
use std::os::fd::AsRawFd;

/// Home, clear the screen, clear the scrollback.
const CLEAR: &[u8] = b"\x1b[H\x1b[2J\x1b[3J";

/// What a key asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    Quit,
    Regrade,
}

/// Standard output and input, as `watch` uses them.
pub struct Screen {
    keys: Option<sys::KeyMode>,
    clear: bool,
    color: bool,
    drawn: bool,
}

impl Screen {
    /// Takes the terminal: keys when standard input is one, a cleared
    /// screen when standard output is one.
    pub fn open() -> Screen {
        let stdin = std::io::stdin();
        let keys = if stdin.is_terminal() {
            sys::KeyMode::enter(stdin.as_raw_fd()).ok()
        } else {
            None
        };
        let stdout = std::io::stdout();
        Screen {
            keys,
            clear: stdout.is_terminal(),
            color: anstream::AutoStream::choice(&stdout) != anstream::ColorChoice::Never,
            drawn: false,
        }
    }

    /// The terminal's size (columns, rows) when the screen is one: each
    /// screen is fitted to it, read again at every look (a resized
    /// terminal is drawn again).
    pub fn size(&self) -> Option<(u16, u16)> {
        self.clear
            .then(|| sys::terminal_size(std::io::stdout().as_raw_fd()))
            .flatten()
    }

    /// Whether keys are read.
    pub fn keys(&self) -> bool {
        self.keys.is_some()
    }

    /// Shows `styled` (ANSI styles kept where colour is on) as the screen:
    /// on a terminal in place of the last one, elsewhere after it.
    pub fn show(&mut self, styled: &[u8]) -> std::io::Result<()> {
        let mut frame = Vec::with_capacity(styled.len() + 16);
        if self.clear {
            frame.extend_from_slice(CLEAR);
        } else if self.drawn {
            frame.push(b'\n');
        }
        if self.color {
            frame.extend_from_slice(styled);
        } else {
            frame.extend_from_slice(&anstream::adapter::strip_bytes(styled).into_vec());
        }
        self.drawn = true;
        let mut stdout = std::io::stdout().lock();
        stdout.write_all(&frame)?;
        stdout.flush()
    }

    /// The keys pressed since the last call that ask for something.
    pub fn pressed(&mut self) -> Option<Key> {
        self.keys.as_ref()?;
        let fd = std::io::stdin().as_raw_fd();
        let interest = sys::Interest {
            fd,
            read: true,
            write: false,
        };
        let ready = sys::poll(&[interest], std::time::Duration::ZERO).ok()?;
        if !(ready[0].readable || ready[0].closed) {
            return None;
        }
        let mut buf = [0u8; 64];
        match sys::read_some(fd, &mut buf) {
            // The terminal went away: no more keys (SIGHUP says the rest).
            Ok(0) | Err(_) => {
                self.keys = None;
                None
            }
            Ok(n) => {
                let keys = &buf[..n];
                // Ctrl-C and Ctrl-D too, in case the line discipline sends them.
                if keys.iter().any(|b| matches!(b, b'q' | b'Q' | 3 | 4)) {
                    Some(Key::Quit)
                } else if keys.iter().any(|b| matches!(b, b'r' | b'R')) {
                    Some(Key::Regrade)
                } else {
                    None
                }
            }
        }
    }

    /// Puts the terminal back as it was (dropping does too).
    pub fn restore(&mut self) {
        self.keys = None;
    }
}
