//! wright's permission modes as ACP session modes: the list advertised in
//! `session/new` and the check of a `session/set_mode` id.

use agent_client_protocol::v1::schema::{SessionMode, SessionModeState};

/// Mode id, name, description; ids are the values `Op::SetPermissionMode` takes.
const MODES: &[(&str, &str, &str)] = &[
    (
        "default",
        "Default",
        "Reads run; edits and commands ask first",
    ),
    (
        "accept-edits",
        "Accept edits",
        "File edits run without asking; commands still ask",
    ),
    (
        "plan",
        "Plan",
        "Read-only: explore and plan, change nothing",
    ),
    (
        "auto",
        "Auto",
        "Everything but dangerous commands runs without asking",
    ),
    (
        "bypass",
        "Bypass permissions",
        "Nothing asks (the sandbox still applies)",
    ),
];

/// The id wright reports for a mode name it may spell Claude Code's way.
pub fn normalize(mode: &str) -> Option<&'static str> {
    let id = match mode {
        "acceptEdits" => "accept-edits",
        "bypassPermissions" => "bypass",
        "dontAsk" => "default",
        other => other,
    };
    MODES.iter().map(|(m, _, _)| *m).find(|m| *m == id)
}

/// The modes with `current` selected (unknown names fall back to `default`).
pub fn state(current: &str) -> SessionModeState {
    let current = normalize(current).unwrap_or("default");
    SessionModeState::new(
        current,
        MODES
            .iter()
            .map(|(id, name, description)| {
                SessionMode::new(*id, *name).description((*description).to_owned())
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claude_code_names_map_to_wright_ids() {
        assert_eq!(normalize("acceptEdits"), Some("accept-edits"));
        assert_eq!(normalize("bypassPermissions"), Some("bypass"));
        assert_eq!(normalize("plan"), Some("plan"));
        assert_eq!(normalize("yolo"), None);
        let s = state("acceptEdits");
        assert_eq!(s.current_mode_id.to_string(), "accept-edits");
        assert_eq!(s.available_modes.len(), 5);
    }
}
