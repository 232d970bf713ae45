//! Lines of the response channel, taken in time linear in what was read.

/// The bytes read from the response channel, handed out a line at a time
/// in time linear in what was read: lines are taken from a moving start,
/// the search for the next line break resumes where the last one stopped,
/// and the consumed front is dropped once it is half the buffer.
#[derive(Debug, Default)]
pub(super) struct Lines {
    bytes: Vec<u8>,
    start: usize,
    /// No line break in `bytes[start..scanned]`.
    scanned: usize,
}

impl Lines {
    pub(super) fn extend(&mut self, more: &[u8]) {
        if self.start > 0 && self.start * 2 >= self.bytes.len() {
            self.bytes.drain(..self.start);
            self.scanned -= self.start;
            self.start = 0;
        }
        self.bytes.extend_from_slice(more);
    }

    /// The next whole line, without its line break.
    pub(super) fn next_line(&mut self) -> Option<Vec<u8>> {
        let from = self.scanned.max(self.start);
        match self.bytes[from..].iter().position(|&b| b == b'\n') {
            Some(at) => {
                let end = from + at;
                let line = self.bytes[self.start..end].to_vec();
                self.start = end + 1;
                self.scanned = self.start;
                Some(line)
            }
            None => {
                self.scanned = self.bytes.len();
                None
            }
        }
    }

    pub(super) fn has_line(&self) -> bool {
        self.bytes[self.scanned.max(self.start)..].contains(&b'\n')
    }

    /// Bytes received and not yet handed out.
    pub(super) fn unread(&self) -> usize {
        self.bytes.len() - self.start
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_come_out_whole_and_in_order_however_they_arrive() {
        let mut lines = Lines::default();
        lines.extend(b"{\"a\":1}\n{\"b\"");
        assert_eq!(lines.next_line().as_deref(), Some(&b"{\"a\":1}"[..]));
        assert_eq!(lines.next_line(), None);
        assert!(!lines.has_line());
        lines.extend(b":2}\n\n");
        assert!(lines.has_line());
        assert_eq!(lines.next_line().as_deref(), Some(&b"{\"b\":2}"[..]));
        assert_eq!(lines.next_line().as_deref(), Some(&b""[..]));
        assert_eq!(lines.unread(), 0);
        // A long stream of short lines stays small: the front is dropped.
        for i in 0..100_000u32 {
            lines.extend(format!("{i}\n").as_bytes());
            assert_eq!(lines.next_line(), Some(i.to_string().into_bytes()));
        }
        assert!(lines.bytes.len() < 64, "{}", lines.bytes.len());
    }
}
