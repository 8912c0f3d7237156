use super::*;

fn policy(include: &[&str], exclude: &[&str]) -> EnvPolicy {
    let own = |l: &[&str]| l.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    EnvPolicy::new(&own(include), &own(exclude)).unwrap()
}

#[test]
fn the_default_withholds_credentials_by_word_in_any_position_and_case() {
    let p = EnvPolicy::default();
    for name in [
        "GITHUB_TOKEN",
        "NPM_TOKEN",
        "token",
        "MY_PASSWORD",
        "PGPASSWORD",
        "db_passwd",
        "AWS_SECRET_ACCESS_KEY",
        "ANTHROPIC_AUTH_TOKEN",
        "GEMINI_API_KEY",
        "Stripe_Secret",
        "KEY",
        "apikey",
        "GOOGLE_APPLICATION_CREDENTIALS",
        "azure_credential_file",
        "ANTHROPIC_API_KEY",
        "OPENAI_API_KEY",
    ] {
        assert!(p.withholds(name), "{name} passed");
    }
    for name in [
        "PATH",
        "HOME",
        "TERM",
        "LANG",
        "XAUTHORITY",
        "GPG_TTY",
        "SSH_AUTH_SOCK",
        "GIT_CONFIG_COUNT",
        "GIT_CONFIG_KEY_0",
        "git_config_key_12",
        "GIT_CONFIG_VALUE_0",
        "CARGO_HOME",
    ] {
        assert!(!p.withholds(name), "{name} withheld");
    }
}

#[test]
fn every_provider_key_is_withheld_by_name_and_model_keys_are_told_apart() {
    let p = EnvPolicy::default();
    for k in PROVIDER_KEY_VARS {
        assert!(p.withholds(k.name), "{}", k.name);
        assert!(is_provider_key_var(&k.name.to_ascii_lowercase()));
        assert_eq!(is_model_api_key(k.name), k.kind == KeyKind::ModelApi);
    }
    assert!(is_model_api_key("anthropic_api_key"));
    assert!(!is_model_api_key("AWS_SECRET_ACCESS_KEY"));
    assert!(!is_provider_key_var("GITHUB_TOKEN"));
}

#[test]
fn an_include_lets_a_name_back_but_never_an_own_key_or_an_exclude() {
    let p = policy(
        &["MY_TOKEN", "npm_*", "*_API_KEY", "AWS_*"],
        &["NPM_SECRET*"],
    );
    assert!(!p.withholds("MY_TOKEN"));
    assert!(!p.withholds("my_token"), "names match case-insensitively");
    assert!(!p.withholds("NPM_TOKEN"));
    assert!(!p.withholds("GEMINI_API_KEY"));
    assert!(!p.withholds("AWS_SECRET_ACCESS_KEY"));
    assert!(
        p.withholds("NPM_SECRET_KEY"),
        "an exclude wins over an include"
    );
    assert!(p.withholds("ANTHROPIC_API_KEY"), "wright's own key");
    assert!(p.withholds("OPENAI_API_KEY"), "wright's own key");
    assert!(p.withholds("OTHER_TOKEN"), "only what is included passes");
}

#[test]
fn an_exclude_withholds_more_names() {
    let p = policy(&[], &["CORP_*", "DATABASE_URL", "?B_HOST"]);
    assert!(p.withholds("CORP_PROXY"));
    assert!(p.withholds("corp_anything"));
    assert!(p.withholds("DATABASE_URL"));
    assert!(p.withholds("DB_HOST"));
    assert!(!p.withholds("XDB_HOST"), "`?` is exactly one character");
    assert!(!p.withholds("MY_CORP_X"), "patterns anchor at both ends");
    assert!(!p.withholds("PATH"));
}

#[test]
fn bad_patterns_are_refused() {
    for bad in ["", "A=B", "A B", "A\0"] {
        let err = EnvPolicy::new(&[bad.to_owned()], &[]).unwrap_err();
        assert_eq!(err.pattern, bad);
    }
    assert!(EnvPolicy::new(&[], &["*".to_owned()]).is_ok());
}

#[test]
fn globs_match_like_the_shell() {
    for (p, t, want) in [
        ("*", "", true),
        ("*", "ABC", true),
        ("A*C", "ABBC", true),
        ("A*C", "ABCD", false),
        ("*KEY*", "KEY", true),
        ("*KEY*", "MONKEYS", true),
        ("*KEY*", "KE", false),
        ("A?C", "ABC", true),
        ("A?C", "AC", false),
        ("**A", "BA", true),
        ("*A*B", "XAXAXB", true),
        ("*A*B", "XAXAX", false),
    ] {
        assert_eq!(glob_match(p, t), want, "{p} ~ {t}");
    }
}

#[test]
fn a_child_env_keeps_order_and_names_only_what_it_withholds() {
    let vars = [
        ("PATH", "/bin"),
        ("GITHUB_TOKEN", "ghp_value"),
        ("HOME", "/h"),
        ("MY_PASSWORD", "hunter2"),
    ]
    .map(|(k, v)| (OsString::from(k), OsString::from(v)));
    let got = child_env(vars, &EnvPolicy::default());
    assert_eq!(
        got.kept,
        vec![
            (OsString::from("PATH"), OsString::from("/bin")),
            (OsString::from("HOME"), OsString::from("/h")),
        ]
    );
    assert_eq!(
        got.withheld,
        vec![
            OsString::from("GITHUB_TOKEN"),
            OsString::from("MY_PASSWORD")
        ]
    );
}

#[cfg(unix)]
#[test]
fn a_name_that_is_not_utf8_is_judged_by_its_readable_part() {
    use std::os::unix::ffi::OsStringExt;
    let name = OsString::from_vec(b"X\xffTOKEN".to_vec());
    let got = child_env([(name.clone(), OsString::from("v"))], &EnvPolicy::default());
    assert_eq!(got.withheld, vec![name]);
}

#[test]
fn a_scrubbed_command_keeps_what_the_caller_set() {
    let mut cmd = std::process::Command::new("true");
    cmd.env("SET_TOKEN", "mine");
    let inherited = ["SET_TOKEN", "GITHUB_TOKEN", "PATH"].map(OsString::from);
    scrub_from(&mut cmd, inherited.into_iter(), &EnvPolicy::default());
    let mut envs: Vec<(String, Option<String>)> = cmd
        .get_envs()
        .map(|(k, v)| {
            let s = |o: &std::ffi::OsStr| o.to_string_lossy().into_owned();
            (s(k), v.map(s))
        })
        .collect();
    envs.sort();
    assert_eq!(
        envs,
        vec![
            ("GITHUB_TOKEN".to_owned(), None),
            ("SET_TOKEN".to_owned(), Some("mine".to_owned())),
        ]
    );
}

#[test]
fn a_scrubbed_command_loses_the_withheld_names_of_this_process() {
    let mut cmd = std::process::Command::new("true");
    scrub_env(&mut cmd);
    let removed: Vec<String> = cmd
        .get_envs()
        .filter(|(_, v)| v.is_none())
        .map(|(k, _)| k.to_string_lossy().into_owned())
        .collect();
    let mut removed_sorted = removed.clone();
    removed_sorted.sort();
    assert_eq!(removed_sorted, withheld_names());
    assert!(removed.iter().all(|n| env_policy().withholds(n)));
}
