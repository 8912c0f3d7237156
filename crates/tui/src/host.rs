//! The UI's contract with the program hosting it: what goes in (core
//! events, answers to the host's requests) and what comes out (ops for the
//! core, requests only the host can serve). The UI does no I/O beyond the
//! terminal; anything needing session state or files is a [`HostRequest`].

use wright_protocol::{Event, Op};

/// Something for the UI.
#[derive(Debug, Clone)]
pub enum Input {
    /// An event from the session.
    Core(Box<Event>),
    /// An answer to a [`HostRequest`].
    Reply(HostReply),
    /// The session ended (its event stream closed).
    Closed,
}

/// What the UI asks of its host.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// Send this op to the session.
    Op(Op),
    /// Serve this request (answered with an [`Input::Reply`]).
    Host(HostRequest),
}

/// Requests only the host can serve.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HostRequest {
    /// Extra `/help` lines (MCP prompts, custom commands).
    Help,
    /// The `/context` report.
    Context,
    /// The `/mcp` report.
    Mcp,
    /// Run the MCP prompt command `command` (`/mcp__server__prompt`) with
    /// `args`: the host expands it and starts the turn, or replies with an error.
    McpPrompt {
        /// The command as typed.
        command: String,
        /// The rest of the line.
        args: String,
    },
    /// Run the custom command `command` (`.wright/commands/NAME.md`) with
    /// `args`: the host expands it and starts the turn, or replies with an
    /// error when there is no such command.
    Custom {
        /// The command as typed.
        command: String,
        /// The rest of the line.
        args: String,
    },
    /// This project's sessions, for the `/resume` picker.
    Sessions,
    /// End this session and resume session `id`.
    Resume {
        /// The session id.
        id: String,
    },
    /// End this session and start a new one (`/clear`).
    Clear,
}

/// The host's answers.
#[derive(Debug, Clone, PartialEq)]
pub enum HostReply {
    /// Text to show (a report, help lines).
    Text(String),
    /// A request failed; shown as an error.
    Error(String),
    /// The host started a turn for a request (an MCP prompt).
    TurnStarted,
    /// The sessions for the `/resume` picker, newest first.
    Sessions(Vec<SessionEntry>),
    /// The UI is to close (the host restarts on another session).
    Leave,
    /// A new session replaced the old one (`/clear`, `/resume`).
    SessionSwitched {
        /// One line saying which session this is now.
        notice: String,
    },
}

/// One session in the `/resume` picker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionEntry {
    /// Its id.
    pub id: String,
    /// The first prompt (one line).
    pub first_prompt: String,
    /// How long ago it was last used, e.g. `3h ago`.
    pub age: String,
    /// How big it is, e.g. `12 turns` or `48 KB`.
    pub size: String,
}

/// What the UI knows at start-up.
#[derive(Debug, Clone, Default)]
pub struct Startup {
    /// The model (until the session says otherwise).
    pub model: String,
    /// The permission mode in force.
    pub mode: String,
    /// The model's context window in tokens (0: unknown).
    pub window: u64,
    /// The git branch of the project, if any.
    pub branch: Option<String>,
    /// Lines to show first (which session was resumed, warnings).
    pub notices: Vec<String>,
    /// What "always allow in this project" cannot promise here, said on
    /// that choice before it is picked: e.g. that later sessions ignore the
    /// saved rule until the project is trusted (`None`: nothing to add).
    pub always_caveat: Option<String>,
    /// How to ring when the UI waits for the person.
    pub notify: Notify,
}

/// How the UI rings when it waits for the person (an approval, a
/// question, a plan, the end of a turn that ran long), for someone whose
/// terminal is in another window.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Notify {
    /// The terminal bell (BEL).
    #[default]
    Bell,
    /// A desktop notification through OSC 9, with the reason.
    Osc9,
    /// Nothing.
    Off,
}
