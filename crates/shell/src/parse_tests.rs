use super::*;

fn words(s: &str) -> Vec<Vec<String>> {
    parse(s)
        .commands
        .iter()
        .map(|c| c.words.iter().map(|w| w.text.clone()).collect())
        .collect()
}

#[test]
fn quoting_is_removed_and_ansi_c_decoded() {
    assert_eq!(
        words("r\\m 'a b' \"c\\\"d\" $'\\x72m' x'y'z"),
        vec![vec!["rm", "a b", "c\"d", "rm", "xyz"]]
    );
    let s = parse("echo $X ~/a *.rs {a,b} \"$Y\" '$Z'");
    let flags: Vec<(bool, bool)> = s.commands[0]
        .words
        .iter()
        .map(|w| (w.dynamic, w.glob))
        .collect();
    assert_eq!(
        flags,
        vec![
            (false, false),
            (true, false),
            (true, false),
            (false, true),
            (true, false),
            (true, false),
            (false, false)
        ]
    );
}

#[test]
fn case_inside_substitution_is_parsed() {
    let s = parse("x=$(case a in a) rm -rf y;; esac)");
    assert!(s.unknown.is_empty());
    assert_eq!(s.substitutions[0].script.commands[0].words[0].text, "rm");
}

#[test]
fn arithmetic_and_odd_constructs_are_unknown() {
    for s in [
        "echo $((1+2))",
        "echo $[1+2]",
        "(( x++ ))",
        "for ((i=0;i<3;i++)); do :; done",
        "echo ${a[$i]}",
        "echo ${x:1}",
        "echo ${!x}",
        "echo ${x@P}",
        "[[ $x -eq 1 ]]",
        "[[ -v x ]]",
        "f() { :; }",
        "echo 'unterminated",
        "a[$(touch x)]=1",
    ] {
        assert!(!parse(s).fully_understood(), "{s}");
    }
    for s in [
        "echo ${x:-a} ${#x} ${x%.rs}",
        "[[ -f x ]] && ls",
        "ls | wc -l",
    ] {
        assert!(parse(s).fully_understood(), "{s}");
    }
}

#[test]
fn separators_depths_and_redirects() {
    let s = parse("a && b || c | d & e; (f) > out 2>&1; cat <<'E' | sh\nrm x\nE");
    let seps: Vec<Sep> = s.commands.iter().map(|c| c.sep).collect();
    assert_eq!(
        seps[..5],
        [Sep::And, Sep::Or, Sep::Pipe, Sep::Background, Sep::End]
    );
    assert_eq!(s.commands[5].depth, 1);
    let kinds: Vec<RedirectKind> = s.commands[6].redirects.iter().map(|r| r.kind).collect();
    assert_eq!(kinds, vec![RedirectKind::Write, RedirectKind::Dup]);
    let cat = &s.commands[7];
    assert_eq!(cat.sep, Sep::Pipe);
    assert_eq!(cat.redirects[0].kind, RedirectKind::HereDoc);
    assert_eq!(cat.redirects[0].target.text, "rm x\n");
    assert_eq!(s.commands[8].words[0].text, "sh");
}

#[test]
fn substitutions_are_marked_in_words() {
    let s = parse("echo a$(b)c `d`");
    let w = &s.commands[0].words;
    assert_eq!(w[1].text, format!("a{}c", marker(0)));
    assert_eq!(w[2].text, marker(1).to_string());
    assert_eq!(s.substitutions[1].source, "d");
}

proptest::proptest! {
    #[test]
    fn never_panics(s in "\\PC{0,200}") {
        let _ = parse(&s);
    }
}

/// Code tree-sitter keeps as text (review class A) makes the script unknown.
#[test]
fn hidden_code_is_unknown() {
    for s in [
        "echo ${x:-`id`}",
        "echo \"${x:-`id`}\"",
        "echo ${x:-${y:-`id`}}",
        "cat <<< ${x:-`id`}",
        "cat f <<E\n`touch M5`\nE",
        "echo `echo \\`touch M\\``",
        "[[ x =~ ( `touch M` ) ]]",
        "echo a\\\n#; echo EXEC4",
        "[ a > M10 ] && ls",
        "[ a >> M10 ]",
    ] {
        assert!(!crate::parse(s).fully_understood(), "{s:?}");
    }
    for s in [
        "echo `date`",
        "echo \"a \\` b\"",
        "cat <<'E'\n`x`\nE",
        "ls -la \\\n  src",
        "echo a # `x`",
        "[[ a > b ]]",
        "echo $(date)",
    ] {
        assert!(crate::parse(s).fully_understood(), "{s:?}");
    }
}

#[test]
fn single_quotes_inside_double_quoted_expansion_are_not_quotes() {
    assert!(!parse("echo \"${x:-'`touch M`'}\"").fully_understood());
    assert!(!parse("echo \"${x:-'$(touch M)'}\"").fully_understood());
    assert!(parse("echo ${x:-'`touch M`'}").fully_understood());
    assert!(parse("echo \"a\" 'b $c'").fully_understood());
}
