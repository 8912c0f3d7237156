//! `@path` in a prompt attaches that file's content (a directory's
//! listing) after the prompt, as Claude Code does, so the model does not
//! spend a round trip reading what the person pointed at. The file is
//! read by the `Read` tool (a directory listed by `LS`) with the session's
//! limits, so the kernel-checked open, the size cap with its note and the
//! spill file apply; a mention the permission rules would not let the
//! model read without asking (a secret file, a `Read` deny rule, a path
//! outside the workspace) is not attached, and the person is told why.
//! Words that name nothing (`@decorator`, an e-mail address) are left be.

use tokio_util::sync::CancellationToken;
use wright_protocol::{ContentBlock, Message, Touches};

use crate::context::TurnContext;

/// At most this many mentions are attached per prompt.
const MAX_ATTACHED: usize = 10;

/// The `@path` words of `text`, in order, each once (MCP's `@server:uri`
/// mentions are another module's).
pub(crate) fn mentioned_paths(text: &str) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        let Some(rest) = word.strip_prefix('@') else {
            continue;
        };
        let path = rest.trim_end_matches([',', ';', ')', ']', '!', '?', '"', '\'', ':']);
        // A sentence's full stop, but not `@.env` or `@dir/.`.
        let path = match path.strip_suffix('.') {
            Some(p) if !p.is_empty() && !p.ends_with('/') && !p.ends_with('.') => p,
            _ => path,
        };
        if path.is_empty() || path.contains(':') || found.iter().any(|f| f == path) {
            continue;
        }
        found.push(path.to_owned());
    }
    found
}

/// Appends the content of each file the prompt's first text mentions.
pub(crate) async fn attach(ctx: &TurnContext, prompt: &mut Message, cancel: &CancellationToken) {
    let Some(ContentBlock::Text { text }) = prompt.content.first() else {
        return;
    };
    let mentions = mentioned_paths(text);
    if mentions.is_empty() {
        return;
    }
    let tool_ctx = crate::dispatch::tool_context(ctx, cancel);
    let mut attached = 0;
    for path in mentions {
        let Ok(resolved) = wright_tools::paths::resolve(&tool_ctx, &path) else {
            continue;
        };
        let Ok(meta) = std::fs::metadata(&resolved.real) else {
            continue;
        };
        if attached == MAX_ATTACHED {
            ctx.emitter.warning(format!(
                "Only the first {MAX_ATTACHED} @-mentioned files are attached; @{path} and later ones are not."
            ));
            break;
        }
        let (tool, args) = if meta.is_dir() {
            ("LS", serde_json::json!({ "path": path }))
        } else {
            ("Read", serde_json::json!({ "file_path": path }))
        };
        let touches = Touches::read(path.clone());
        if let Err(why) = ctx
            .gate
            .allows_without_asking(tool, &touches, &ctx.options.cwd)
        {
            ctx.emitter
                .warning(format!("@{path} is not attached: {why}"));
            continue;
        }
        let Some(reader) = ctx.tools.lookup(tool) else {
            continue;
        };
        match reader.run(args, &tool_ctx).await {
            Ok(output) => {
                attached += 1;
                let what = if meta.is_dir() { "Listing" } else { "Contents" };
                prompt.content.push(ContentBlock::Text {
                    text: format!(
                        "{what} of {path} (attached: the user mentioned @{path}):\n{}",
                        output.content
                    ),
                });
                prompt
                    .content
                    .extend(output.images.into_iter().map(|i| ContentBlock::Image {
                        media_type: i.media_type,
                        data: i.data,
                    }));
                let summary = output.display.summary;
                ctx.emitter.notice(if summary.is_empty() {
                    format!("Attached {path}")
                } else {
                    format!("Attached {path} ({summary})")
                });
            }
            Err(e) => ctx.emitter.warning(format!("@{path} is not attached: {e}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mentions_are_at_words_without_a_colon_and_trailing_punctuation() {
        assert_eq!(
            mentioned_paths("explain @notes.txt, then @src/lib.rs. And @src/ too; @.env @a/.."),
            ["notes.txt", "src/lib.rs", "src/", ".env", "a/.."]
        );
        assert!(mentioned_paths("mail me@example.com or @docs:file:///x").is_empty());
        assert_eq!(mentioned_paths("@a @a (@b)"), ["a"]);
        assert!(mentioned_paths("@ alone").is_empty());
    }
}
