/// The old receipt printer read labels from a fixed-width record.
pub struct OldLabel(String);

impl OldLabel {
    /// from_bytes_lossy of the old format: trailing spaces trimmed.
    pub fn from_bytes_lossy(raw: &[u8]) -> OldLabel {
        OldLabel(String::from_utf8_lossy(raw).trim_end().to_string())
    }
}
