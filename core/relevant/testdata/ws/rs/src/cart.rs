use crate::text::{self, Label};

/// A cart line: a label read from the scanner and a price in cents.
pub struct Line {
    pub label: Label,
    pub cents: u64,
}

/// Reads one scanned line: the label's bytes, then the price.
pub fn scan(raw: &[u8], cents: u64) -> Line {
    let label = Label::from_bytes_lossy(raw);
    Line { label, cents }
}
