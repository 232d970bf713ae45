//! The styles of text for people. They are always written as ANSI
//! sequences; the caller's stream strips them when the output is not a
//! terminal or NO_COLOR is set.

use anstyle::{AnsiColor, Effects, Style};

pub const GOOD: Style = AnsiColor::Green.on_default().effects(Effects::BOLD);
pub const BAD: Style = AnsiColor::Red.on_default().effects(Effects::BOLD);
pub const HEAD: Style = Style::new().effects(Effects::BOLD);
pub const DIM: Style = Style::new().effects(Effects::DIMMED);
pub const OLD: Style = AnsiColor::Red.on_default();
pub const NEW: Style = AnsiColor::Green.on_default();
pub const OLD_EMPH: Style = AnsiColor::Red
    .on_default()
    .effects(Effects::UNDERLINE.insert(Effects::BOLD));
pub const NEW_EMPH: Style = AnsiColor::Green
    .on_default()
    .effects(Effects::UNDERLINE.insert(Effects::BOLD));
