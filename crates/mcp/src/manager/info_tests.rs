use super::*;

#[test]
fn short_instructions_are_kept() {
    assert_eq!(cap_chars("use echo"), "use echo");
    let exact = "é".repeat(MAX_INSTRUCTIONS_CHARS);
    assert_eq!(cap_chars(&exact), exact);
}

#[test]
fn long_instructions_are_cut_on_a_character_with_an_ellipsis() {
    let long = "é".repeat(MAX_INSTRUCTIONS_CHARS + 10);
    let capped = cap_chars(&long);
    assert_eq!(capped.chars().count(), MAX_INSTRUCTIONS_CHARS);
    assert!(capped.ends_with('…'));
}
