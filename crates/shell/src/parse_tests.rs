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

/// tree-sitter-bash's scanner crashed (out-of-bounds `isdigit`) on
/// non-ASCII text after `{`; found by the guard's property test.
#[test]
fn non_ascii_text_never_crashes_the_parser() {
    let found = "`\u{1c5}\u{cd8a}]\\0\u{8796}~)\u{98c19}`7!c\u{2f6fe}7:~&\u{134d8}.7[*1'_25\u{65e5}$`\u{bef9c}<*/@a\"/)\u{6cfca}~}\u{1f600},z}\u{1c5}\u{1f600}2\\8y&: :`289\u{c663f}\u{200b}\u{4ef2b}\u{100fbe}!\u{d414b}\u{1f600}51\u{10835c}'\u{677af}\u{200b}(!xz\u{580c7}/-<5_\u{72950}_+=&3#*_0(,{\u{a9eed}(b\u{a656f}\u{b2b62}\u{8aecb}\u{97d71}2";
    let _ = parse(found);
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let pool: Vec<char> = "{}$`'\"()[]<>|&;: \\09az.é日\u{1F600}\u{200b}ǅ"
        .chars()
        .collect();
    for _ in 0..3_000 {
        let len = usize::try_from(next() % 120).unwrap();
        let text: String = (0..len)
            .map(|_| {
                let r = next();
                if r % 4 == 0 {
                    char::from_u32(u32::try_from(r % 0x10_FFFF).unwrap()).unwrap_or('x')
                } else {
                    pool[usize::try_from(r).unwrap() % pool.len()]
                }
            })
            .collect();
        let _ = parse(&text);
    }
    // Text is read from the original, not the stand-in.
    let s = parse("echo héllo 日本");
    assert_eq!(s.commands[0].words[1].text, "héllo");
}

/// Recent parses are reused by text: whatever order scripts come in, each
/// gets its own parse, equal to an uncached one.
#[test]
fn a_repeated_script_gets_the_same_parse() {
    let scripts = [
        "ls -la",
        "rm -rf /tmp/x && echo done",
        "git diff | head",
        "echo $HOME > out.txt",
        "((x++))",
        "cat <<EOF\nhi\nEOF",
    ];
    for _ in 0..3 {
        for s in scripts {
            assert_eq!(crate::parse(s), crate::parse::parse_uncached(s), "{s}");
        }
    }
    assert_eq!(crate::parse("ls -la"), crate::parse("ls -la"));
}
