use shop::text::Label;

#[test]
fn lossy_label_keeps_valid_text() {
    let l = Label::from_bytes_lossy(b"tea");
    assert_eq!(l.as_str(), "tea");
}
