//! `wright context`, `wright skills list` and `wright memory …`: what the
//! model sees and the notes and skills it can draw on.

use std::io::Read;
use std::path::Path;

use serde_json::{Value, json};
use wright_config::Settings;
use wright_context::{MemoryScope, MemoryType, NewNote};

use crate::args::{MemoryAction, SkillsAction};
use crate::exit;
use crate::exit::SetupError;
use crate::setup;

/// `wright context [--json]`: the assembled system prompt part by part, then
/// the tools with their schema sizes.
pub fn context(
    settings: &Settings,
    cwd: &Path,
    root: &Path,
    mcp_tools: Vec<(String, usize)>,
    as_json: bool,
) -> Result<u8, SetupError> {
    let inputs = setup::context_inputs(settings, cwd, root)?;
    let context = wright_context::assemble(&inputs);
    // As a session's first request carries them: with `Task` for the
    // agent types found, and the tools that ask the person.
    let dirs = wright_config::agent_dirs(
        settings,
        root,
        wright_config::default_user_config_dir().as_deref(),
    );
    let (defs, _) = wright_context::agents::discover_agents(&dirs);
    let agents = std::sync::Arc::new(setup::agent_types(defs, settings, root));
    let mut tools = setup::spec_sizes(&wright_core::offered_tools(
        std::sync::Arc::new(setup::tool_registry(settings, root)),
        Some(agents),
        settings.permission_mode,
        true,
    ));
    tools.extend(mcp_tools);
    if as_json {
        let report = wright_context::report(&context, &tools, None);
        println!(
            "{}",
            serde_json::to_string(&report).map_err(|e| SetupError(e.to_string()))?
        );
    } else {
        print!("{}", wright_context::render_report(&context, &tools, None));
    }
    Ok(exit::SUCCESS)
}

/// `wright context --agent NAME`: exactly what a subagent of that type is
/// given: its system prompt (from which file) and its tools with sizes.
pub fn agent_context(
    settings: &Settings,
    cwd: &Path,
    root: &Path,
    dirs: &[std::path::PathBuf],
    name: &str,
    as_json: bool,
) -> Result<u8, SetupError> {
    let (defs, warnings) = wright_context::agents::discover_agents(dirs);
    for w in &warnings {
        eprintln!("warning: {w}");
    }
    let Some(def) = defs.iter().find(|d| d.name == name) else {
        let names: Vec<&str> = defs.iter().map(|d| d.name.as_str()).collect();
        return Err(SetupError(format!(
            "no agent type {name:?} (known: {})",
            names.join(", ")
        )));
    };
    let prompt = wright_core::subagent_prompt(def, cwd);
    let parts = wright_core::subagent_prompt_parts(def, cwd);
    let registry = setup::tool_registry(settings, root);
    if let Some(w) = wright_core::tool_list_warning(def, &registry) {
        eprintln!("warning: {}", crate::render::escape_controls(&w));
    }
    let registry = match &def.tools {
        None => registry,
        Some(names) => registry.only(|n| names.iter().any(|a| a == n)),
    };
    let tools = setup::tool_sizes(&registry);
    if as_json {
        let tools: Vec<Value> = tools
            .iter()
            .map(|(n, size)| json!({"name": n, "chars": size}))
            .collect();
        println!(
            "{}",
            json!({
                "agent": def.name,
                "source": def.source.to_string(),
                "model": def.model,
                "system_prompt": prompt,
                "parts": parts
                    .iter()
                    .map(|(source, text)| json!({"source": source, "text": text}))
                    .collect::<Vec<_>>(),
                "tools": tools,
            })
        );
        return Ok(exit::SUCCESS);
    }
    // An alias shown with the model it means under the configured model.
    let model = match (def.model.as_deref(), settings.model.as_deref()) {
        (None, _) => "inherit".to_owned(),
        (Some(wanted), Some(parent)) if wright_core::subagent_model(wanted, parent) != wanted => {
            format!("{wanted} ({})", wright_core::subagent_model(wanted, parent))
        }
        (Some(wanted), _) => wanted.to_owned(),
    };
    println!(
        "Agent {} ({}), model {}",
        def.name,
        crate::render::escape_controls(&def.source.to_string()),
        crate::render::escape_controls(&model)
    );
    println!(
        "\nSystem prompt ({} chars, ~{} tokens):",
        prompt.len(),
        prompt.len().div_ceil(4)
    );
    for (n, (source, text)) in parts.iter().enumerate() {
        println!(
            "\n[{}] {} ({} chars, ~{} tokens)",
            n + 1,
            crate::render::escape_controls(source),
            text.len(),
            text.len().div_ceil(4)
        );
        for line in text.lines() {
            println!("{}", crate::render::escape_controls(line));
        }
    }
    println!("\nTools: {}", tools.len());
    for (name, size) in &tools {
        println!("  {name:<40} {size} chars");
    }
    Ok(exit::SUCCESS)
}

/// `wright skills list`.
pub fn skills(
    settings: &Settings,
    cwd: &Path,
    root: &Path,
    action: &SkillsAction,
) -> Result<u8, SetupError> {
    let SkillsAction::List { json: as_json } = action;
    let inputs = setup::context_inputs(settings, cwd, root)?;
    let (skills, warnings) =
        wright_context::discover_skills(&inputs.skill_dirs, &inputs.project_root);
    for w in &warnings {
        eprintln!("warning: {w}");
    }
    if *as_json {
        let items: Vec<Value> = skills
            .iter()
            .map(|s| json!({"name": s.name, "description": s.description, "allowed_tools": s.allowed_tools, "path": s.path}))
            .collect();
        println!("{}", Value::Array(items));
    } else if skills.is_empty() {
        eprintln!(
            "no skills (looked in {})",
            inputs
                .skill_dirs
                .iter()
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
    } else {
        for s in &skills {
            println!(
                "{:<24} {}\n{:<24} {}",
                s.name,
                s.description,
                "",
                s.path.display()
            );
        }
    }
    Ok(exit::SUCCESS)
}

/// `wright memory …`.
pub fn memory(settings: &Settings, root: &Path, action: &MemoryAction) -> Result<u8, SetupError> {
    let store = setup::memory_store(settings, root);
    let err = |e: wright_context::MemoryError| SetupError(e.to_string());
    match action {
        MemoryAction::List { json: as_json } => {
            let (notes, warnings) = store.list();
            for w in &warnings {
                eprintln!("warning: {w}");
            }
            if *as_json {
                println!(
                    "{}",
                    serde_json::to_string(&notes).map_err(|e| SetupError(e.to_string()))?
                );
            } else if notes.is_empty() {
                eprintln!("no memory notes");
            } else {
                for n in &notes {
                    println!("{:<24} {:<10} {}", n.name, n.kind.as_str(), n.description);
                }
            }
        }
        MemoryAction::Show { name } => {
            let note = store.show(name).map_err(err)?;
            println!(
                "# {} ({}, {})\n{}\n\n{}",
                note.name,
                note.kind.as_str(),
                note.path.display(),
                note.description,
                note.body.trim_end()
            );
        }
        MemoryAction::Add {
            name,
            description,
            kind,
            body,
            user,
        } => {
            let kind: MemoryType = serde_json::from_value(json!(kind)).map_err(|_| {
                SetupError(format!(
                    "unknown note type `{kind}`: use user, feedback, project or reference"
                ))
            })?;
            let body = match body {
                Some(body) => body.clone(),
                None => {
                    let mut text = String::new();
                    std::io::stdin().read_to_string(&mut text).map_err(|e| {
                        SetupError(format!("cannot read the note body from stdin: {e}"))
                    })?;
                    text
                }
            };
            let path = store
                .add(&NewNote {
                    name: name.clone(),
                    description: description.clone(),
                    kind,
                    body,
                    scope: if *user {
                        MemoryScope::User
                    } else {
                        MemoryScope::Project
                    },
                })
                .map_err(err)?;
            eprintln!("wrote {}", path.display());
        }
        MemoryAction::Rm { name } => {
            let path = store.remove(name).map_err(err)?;
            eprintln!("removed {}", path.display());
        }
    }
    Ok(exit::SUCCESS)
}
