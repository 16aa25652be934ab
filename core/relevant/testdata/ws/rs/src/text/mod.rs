/// Label is a product's name as shown on a receipt.
pub struct Label {
    text: String,
}

impl Label {
    /// Converts raw bytes into a label, replacing what is not UTF-8.
    ///
    /// ```
    /// let l = Label::from_bytes_lossy(b"caf\xC3\xA9");
    /// assert_eq!(l.as_str(), "café");
    /// ```
    pub fn from_bytes_lossy(raw: &[u8]) -> Label {
        Label { text: String::from_utf8_lossy(raw).into_owned() }
    }

    pub fn as_str(&self) -> &str {
        &self.text
    }
}
