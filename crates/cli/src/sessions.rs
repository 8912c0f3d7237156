//! Session files from the CLI: opening one for a run (new, `--continue`,
//! `--resume ID`, `--fork-session`), and the `wright sessions …` and
//! `wright rewind` commands.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use wright_protocol::Message;
use wright_store::{
    ExportFormat, RestoreAction, RewindPoint, RewindScope, SearchOptions, SessionMeta,
    SessionStore, SessionWriter, UNTRACKED_NOTE,
};

use crate::args::{ExportFormatArg, SessionsAction};
use crate::exit;
use crate::exit::SetupError;
use crate::sessions_agents;

/// How a run picks its session.
#[derive(Debug, Clone, Default)]
pub struct SessionChoice {
    /// `--continue`: the latest session of this directory.
    pub continue_latest: bool,
    /// `--resume ID` (a unique prefix is enough).
    pub resume: Option<String>,
    /// `--fork-session`: continue in a new session that starts as a copy.
    pub fork: bool,
    /// `--session-id UUID`: the id of the new session.
    pub session_id: Option<String>,
}

/// An opened session.
pub struct Opened {
    /// The writer (holds the lock).
    pub writer: SessionWriter,
    /// The conversation to continue.
    pub history: Vec<Message>,
    /// Load warnings to show (torn lines and the like).
    pub warnings: Vec<String>,
    /// Usage and cost recorded so far.
    pub usage: (wright_protocol::Usage, f64),
    /// The user prompts on the current branch (empty for a new session),
    /// taken from the one parse of the file: the resume note needs them and
    /// reading the file again would double the cost of `--continue`.
    pub turns: Vec<wright_store::UserTurn>,
}

impl Opened {
    /// Everything from one load; the history is moved out last, not copied.
    fn from_loaded(writer: SessionWriter, loaded: wright_store::LoadedSession) -> Self {
        Self {
            warnings: loaded.warnings.iter().map(ToString::to_string).collect(),
            usage: loaded.usage_total(),
            turns: loaded.user_turns(),
            history: loaded.into_history(),
            writer,
        }
    }
}

/// The store under the user's data dir.
pub fn store() -> Result<SessionStore, SetupError> {
    dirs::data_dir().map(SessionStore::new).ok_or_else(|| {
        SetupError("cannot find the user data directory (set XDG_DATA_HOME)".to_owned())
    })
}

/// Opens the session a run writes to.
pub fn open(
    choice: &SessionChoice,
    cwd: &Path,
    model: &str,
    provider: &str,
) -> Result<Opened, SetupError> {
    let store = store()?;
    let err = |e: wright_store::StoreError| SetupError(e.to_string());
    let existing = if choice.continue_latest {
        Some(store.latest_for_project(cwd).ok_or_else(|| {
            SetupError(format!(
                "--continue: no earlier session for {} (start one without --continue)",
                cwd.display()
            ))
        })?)
    } else if let Some(prefix) = &choice.resume {
        Some(store.resolve_id(prefix, Some(cwd)).map_err(err)?.id)
    } else {
        None
    };
    let Some(id) = existing else {
        let meta = SessionMeta {
            cwd: cwd.to_path_buf(),
            model: model.to_owned(),
            provider: provider.to_owned(),
        };
        let writer = match &choice.session_id {
            Some(id) => store.create_with_id(&meta, id),
            None => store.create(&meta),
        }
        .map_err(err)?;
        return Ok(Opened {
            writer,
            history: Vec::new(),
            warnings: Vec::new(),
            usage: (wright_protocol::Usage::default(), 0.0),
            turns: Vec::new(),
        });
    };
    if choice.fork {
        let writer = store.fork(&id, None).map_err(err)?;
        let loaded = writer.load().map_err(err)?;
        return Ok(Opened::from_loaded(writer, loaded));
    }
    let (writer, loaded) = store.resume(&id).map_err(err)?;
    Ok(Opened::from_loaded(writer, loaded))
}

/// `wright sessions …`.
pub fn command(action: &SessionsAction, cwd: &Path) -> Result<u8, SetupError> {
    let store = store()?;
    let err = |e: wright_store::StoreError| SetupError(e.to_string());
    match action {
        SessionsAction::List { all, json } => {
            let project = (!all).then_some(cwd);
            warn_unreadable(&store, project);
            let mut list = store.list(project);
            for s in &mut list {
                s.cost_usd = sessions_agents::cost_with_subagents(&store, s);
            }
            let shorts = store.short_ids();
            if *json {
                let items: Vec<Value> = list
                    .iter()
                    .map(|s| {
                        json!({"id": s.id, "title": s.title, "cwd": s.cwd, "created": s.created,
                               "updated": s.updated, "turns": s.turns, "cost_usd": s.cost_usd,
                               "path": s.path})
                    })
                    .collect();
                println!("{}", Value::Array(items));
            } else if list.is_empty() {
                eprintln!(
                    "no sessions{}",
                    if *all {
                        ""
                    } else {
                        " for this directory (try --all)"
                    }
                );
            } else {
                for s in &list {
                    let cost = s.cost_usd.map(|c| format!(" ${c:.4}")).unwrap_or_default();
                    println!(
                        "{}  {}  {:>3} turn(s){cost}  {}",
                        short(&shorts, &s.id),
                        s.updated.get(..16).unwrap_or(&s.updated),
                        s.turns,
                        s.title
                    );
                }
            }
        }
        SessionsAction::Show { id, json, agent } => {
            let id = store.resolve_id(id, Some(cwd)).map_err(err)?.id;
            let format = if *json {
                ExportFormat::Json
            } else {
                ExportFormat::Markdown
            };
            let out = match agent {
                Some(agent) => sessions_agents::show_agent(&store, &id, agent, format),
                None => load_warning(&store, &id).and_then(|loaded| {
                    let out = wright_store::export_loaded(&loaded, format)?;
                    let (usage, cost) = loaded.usage_total();
                    let own = sessions_agents::Spent {
                        input_tokens: usage.total_input(),
                        output_tokens: usage.output_tokens,
                        cost_usd: cost,
                    };
                    sessions_agents::with_subagents(&store, &id, out, format, own)
                }),
            };
            print!("{}", out.map_err(err)?);
        }
        SessionsAction::Export { id, format } => {
            let id = store.resolve_id(id, Some(cwd)).map_err(err)?.id;
            let format = match format {
                ExportFormatArg::Markdown => ExportFormat::Markdown,
                ExportFormatArg::Json => ExportFormat::Json,
            };
            print!("{}", export_warning(&store, &id, format).map_err(err)?);
        }
        SessionsAction::Search { text, all, json } => {
            let options = SearchOptions {
                project: (!all).then(|| cwd.to_path_buf()),
                limit: Some(200),
            };
            warn_unreadable(&store, options.project.as_deref());
            let hits = store.search(text, &options).map_err(err)?;
            let shorts = store.short_ids();
            if *json {
                let items: Vec<Value> = hits
                    .iter()
                    .map(|h| json!({"session": h.session, "entry": h.entry, "snippet": h.snippet, "path": h.path}))
                    .collect();
                println!("{}", Value::Array(items));
            } else {
                for h in &hits {
                    println!("{}  {}", short(&shorts, &h.session), h.snippet);
                }
                if hits.is_empty() {
                    eprintln!("no matches");
                }
            }
        }
        SessionsAction::Rm { id } => {
            let id = store.resolve_id(id, Some(cwd)).map_err(err)?.id;
            store.remove(&id).map_err(err)?;
            eprintln!("removed session {id}");
        }
    }
    Ok(exit::SUCCESS)
}

/// Tells stderr about `*.jsonl` paths that are not regular files (a FIFO,
/// say): they are skipped, since reading one could hang.
fn warn_unreadable(store: &SessionStore, project: Option<&Path>) {
    for path in store.unreadable_session_files(project) {
        eprintln!("warning: skipped {}: not a regular file", path.display());
    }
}

/// Renders session `id`, first telling stderr what loading skipped or
/// repaired (corrupt lines, unknown parents and types, duplicate ids), as
/// `--continue` does: a silent export would hide lost history.
fn export_warning(
    store: &SessionStore,
    id: &str,
    format: ExportFormat,
) -> Result<String, wright_store::StoreError> {
    wright_store::export_loaded(&load_warning(store, id)?, format)
}

/// Session `id`, its load warnings told on stderr.
fn load_warning(
    store: &SessionStore,
    id: &str,
) -> Result<wright_store::LoadedSession, wright_store::StoreError> {
    let loaded = store.load(id)?;
    for w in &loaded.warnings {
        eprintln!("warning: {w}");
    }
    Ok(loaded)
}

/// What `wright rewind` should do.
pub struct RewindRequest<'a> {
    /// Session id or prefix; the latest of this directory when absent.
    pub id: Option<&'a str>,
    /// 1-based user turn to return to (before it); list the turns when absent.
    pub to: Option<usize>,
    /// What to restore.
    pub scope: RewindScope,
    /// `--yes`: overwrite files without asking.
    pub yes: bool,
    /// Machine-readable output.
    pub json: bool,
    /// The workspace roots configured beyond the session's directory
    /// (`permissions.additional_roots`, `--add-dir`): the only other
    /// places a file is restored.
    pub roots: Vec<PathBuf>,
}

/// `wright rewind`: list the user turns, or go back to before one of them.
pub fn rewind(request: &RewindRequest<'_>, cwd: &Path) -> Result<u8, SetupError> {
    let store = store()?;
    let err = |e: wright_store::StoreError| SetupError(e.to_string());
    let id = match request.id {
        Some(prefix) => store.resolve_id(prefix, Some(cwd)).map_err(err)?.id,
        None => store
            .latest_for_project(cwd)
            .ok_or_else(|| SetupError("no session for this directory".to_owned()))?,
    };
    let mut writer = store.open_for_append(&id).map_err(err)?;
    writer.set_roots(request.roots.iter().cloned());
    let turns = writer.user_turns().map_err(err)?;
    let Some(n) = request.to else {
        if request.json {
            let items: Vec<Value> = turns
                .iter()
                .enumerate()
                .map(|(i, t)| json!({"turn": i + 1, "entry": t.entry, "ts": t.ts, "text": t.text}))
                .collect();
            println!("{}", json!({"session": id, "turns": items}));
        } else {
            println!("session {id}");
            for (i, t) in turns.iter().enumerate() {
                println!(
                    "{:>3}. {}  {}",
                    i + 1,
                    t.ts.get(..19).unwrap_or(&t.ts),
                    first_line(&t.text)
                );
            }
            println!(
                "\nwright rewind --to N restores files and conversation to before turn N.\n{UNTRACKED_NOTE}"
            );
        }
        return Ok(exit::SUCCESS);
    };
    let Some(turn) = n.checked_sub(1).and_then(|i| turns.get(i)) else {
        return Err(SetupError(format!(
            "--to {n}: the session has {} user turn(s)",
            turns.len()
        )));
    };
    let point = RewindPoint::BeforeTurn(turn.entry.clone());
    if !request.yes {
        let preview = writer.rewind_preview(&point, request.scope).map_err(err)?;
        let short = store.short_id(&id);
        if !crate::rewind_confirm::confirm(&short, n, &first_line(&turn.text), &preview)? {
            eprintln!("not rewound; nothing changed");
            return Ok(exit::SUCCESS);
        }
    }
    let outcome = writer.rewind(&point, request.scope).map_err(err)?;
    let files: Vec<(PathBuf, String)> = outcome
        .files
        .iter()
        .map(|f| {
            let what = match &f.action {
                RestoreAction::Restored => "restored".to_owned(),
                RestoreAction::Deleted => "deleted (it did not exist then)".to_owned(),
                RestoreAction::Failed(why) => format!("FAILED: {why}"),
            };
            (f.path.clone(), what)
        })
        .collect();
    let failed = outcome
        .files
        .iter()
        .any(|f| matches!(f.action, RestoreAction::Failed(_)));
    if request.json {
        let items: Vec<Value> = files
            .iter()
            .map(|(p, what)| json!({"path": p, "action": what}))
            .collect();
        println!(
            "{}",
            json!({"session": id, "turn": n, "files": items, "messages": outcome.history.len(), "note": UNTRACKED_NOTE})
        );
    } else {
        println!(
            "rewound session {id} to before turn {n}: {}",
            first_line(&turn.text)
        );
        for (p, what) in &files {
            println!("  {}: {what}", p.display());
        }
        if files.is_empty() {
            println!("  no files to restore");
        }
        println!("{UNTRACKED_NOTE}\nContinue with: wright --continue");
    }
    Ok(if failed { exit::ERROR } else { exit::SUCCESS })
}

/// `id` by its shortest unique prefix (`wright_store::short_ids`).
fn short<'a>(shorts: &'a std::collections::HashMap<String, String>, id: &'a str) -> &'a str {
    shorts.get(id).map_or(id, String::as_str)
}

fn first_line(text: &str) -> String {
    let line = text.lines().next().unwrap_or_default();
    if line.chars().count() > 80 {
        format!("{}…", line.chars().take(80).collect::<String>())
    } else {
        line.to_owned()
    }
}
