//! Bad files and bad values fail with errors that name file, line and key.

use wright_config::{ConfigError, Origin, Overrides};

use super::Fixture;

#[test]
fn unknown_key_in_local_file_names_it() {
    let fx = Fixture::new();
    fx.write(&fx.local_file(), "model = \"m\"\nmodle = \"x\"\n");
    let err = fx.loader(&[]).load(&Overrides::default()).unwrap_err();
    match &err {
        ConfigError::UnknownKey {
            path, line, key, ..
        } => {
            assert_eq!(path, &fx.local_file());
            assert_eq!(*line, 2);
            assert_eq!(key, "modle");
        }
        other => panic!("unexpected {other:?}"),
    }
    let text = err.to_string();
    assert!(
        text.starts_with(&format!(
            "{}:2:1: unknown key `modle` (expected one of: provider, model,",
            fx.local_file().display()
        )),
        "{text}"
    );
}

#[test]
fn bad_type_in_user_file_is_located() {
    let fx = Fixture::new();
    fx.write(
        &fx.user_file(),
        "# comment\n[tools]\nbash_timeout_secs = \"slow\"\n",
    );
    let err = fx.loader(&[]).load(&Overrides::default()).unwrap_err();
    assert_eq!(
        err,
        ConfigError::Invalid {
            origin: Origin::File {
                path: fx.user_file(),
                line: 3,
                column: 21
            },
            key: "tools.bash_timeout_secs".into(),
            value: "\"slow\"".into(),
            message: "expected an integer from 1 to 600, found string".into(),
        }
    );
}

#[test]
fn bad_enum_in_project_file_lists_choices() {
    let fx = Fixture::new();
    fx.write(&fx.project_file(), "permission_mode = \"yolo\"\n");
    let text = fx
        .loader(&[])
        .load(&Overrides::default())
        .unwrap_err()
        .to_string();
    assert_eq!(
        text,
        format!(
            "{}:1:19: invalid value `yolo` for `permission_mode`: \
             expected one of: default, accept-edits, plan, auto, bypass",
            fx.project_file().display()
        )
    );
}

#[test]
fn syntax_error_names_file_and_line() {
    let fx = Fixture::new();
    fx.write(
        &fx.project_file(),
        "model = \"m\"\n\nprovider = anthropic\n",
    );
    let err = fx.loader(&[]).load(&Overrides::default()).unwrap_err();
    match err {
        ConfigError::Parse { path, line, .. } => {
            assert_eq!(path, fx.project_file());
            assert_eq!(line, 3);
        }
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn a_bad_lower_layer_fails_even_if_overridden() {
    let fx = Fixture::new();
    fx.write(&fx.user_file(), "max_turns = 0\n");
    let overrides = Overrides {
        max_turns: Some(5),
        ..Overrides::default()
    };
    let err = fx.loader(&[]).load(&overrides).unwrap_err();
    assert!(
        matches!(err, ConfigError::Invalid { ref key, .. } if key == "max_turns"),
        "{err}"
    );
}

#[test]
fn directory_at_config_path_is_an_io_error() {
    let fx = Fixture::new();
    std::fs::create_dir_all(fx.project_file()).unwrap();
    let err = fx.loader(&[]).load(&Overrides::default()).unwrap_err();
    match &err {
        ConfigError::Io { path, .. } => assert_eq!(path, &fx.project_file()),
        other => panic!("unexpected {other:?}"),
    }
    assert!(
        err.to_string().starts_with(&format!(
            "{}: cannot read config file:",
            fx.project_file().display()
        )),
        "{err}"
    );
}

#[test]
fn non_utf8_file_is_an_io_error() {
    let fx = Fixture::new();
    std::fs::write(fx.local_file(), [0x6d, 0xff, 0xfe]).unwrap();
    let err = fx.loader(&[]).load(&Overrides::default()).unwrap_err();
    assert!(matches!(err, ConfigError::Io { .. }), "{err:?}");
}

#[test]
fn bad_env_value_names_the_variable() {
    let fx = Fixture::new();
    let err = fx
        .loader(&[("WRIGHT_MAX_TURNS", "abc")])
        .load(&Overrides::default())
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "env WRIGHT_MAX_TURNS: invalid value `abc` for `max_turns`: expected a positive integer"
    );
}

#[test]
fn bad_base_url_env_only_matters_for_its_provider() {
    let fx = Fixture::new();
    let vars = [("OPENAI_BASE_URL", "not a url")];
    fx.write(&fx.project_file(), "provider = \"anthropic\"\n");
    assert!(fx.loader(&vars).load(&super::trusted()).is_ok());
    fx.write(&fx.project_file(), "provider = \"openai-responses\"\n");
    let err = fx.loader(&vars).load(&super::trusted()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "env OPENAI_BASE_URL: invalid value `not a url` for `base_url`: \
         expected an http:// or https:// URL"
    );
}

#[test]
fn errors_never_echo_api_keys() {
    let fx = Fixture::new();
    let vars = [
        ("ANTHROPIC_API_KEY", "sk-ant-secret"),
        ("WRIGHT_PROVIDER", "nope"),
    ];
    let err = fx.loader(&vars).load(&Overrides::default()).unwrap_err();
    assert!(!format!("{err} {err:?}").contains("sk-ant-secret"));
}
