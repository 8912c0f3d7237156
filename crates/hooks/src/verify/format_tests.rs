//! Format names in configuration.

use super::{Format, UnknownFormat, VerifySettings};

#[test]
fn names_round_trip() {
    for format in Format::ALL {
        assert_eq!(format.name().parse::<Format>(), Ok(format));
        assert_eq!(format.to_string(), format.name());
        let json = serde_json::to_string(&format).unwrap();
        assert_eq!(json, format!("\"{}\"", format.name()));
        assert_eq!(serde_json::from_str::<Format>(&json).unwrap(), format);
    }
    assert_eq!("cargo-json".parse::<Format>(), Ok(Format::CargoJson));
}

#[test]
fn unknown_name_lists_the_known_ones() {
    let err = "eslint".parse::<Format>().unwrap_err();
    assert_eq!(err, UnknownFormat("eslint".to_string()));
    assert_eq!(
        err.to_string(),
        "unknown checker output format `eslint` (expected one of: cargo-json, gcc, tsc, lines)"
    );
    assert!(serde_json::from_str::<Format>("\"cargo_json\"").is_err());
}

#[test]
fn settings_default() {
    let settings = VerifySettings::default();
    assert!(settings.enabled);
    assert_eq!(settings.timeout.as_secs(), 120);
    assert!(settings.checks.is_empty());
}
