//! The test server's resources and prompts: a text resource, an image blob
//! and an opaque blob (listed two to a page, so clients must follow
//! cursors), the `greet` prompt with a required argument, the
//! argument-free `summary` prompt (text, an embedded resource and an image),
//! and prompts added at run time by the `add_prompt` tool.

use rmcp::model::{
    ContentBlock, EmbeddedResource, ErrorData, GetPromptResult, ListPromptsResult,
    ListResourcesResult, Prompt, PromptArgument, PromptMessage, ReadResourceResult, Resource,
    ResourceContents, Role,
};
use serde_json::{Map, Value};

use super::TINY_PNG;

/// The text of `test://readme`.
pub const README: &str = "# Test server\n\nHello from the readme.";

/// Resources per `resources/list` page.
const PAGE: usize = 2;

fn all_resources() -> Vec<Resource> {
    vec![
        Resource::new("test://readme", "readme")
            .with_title("Read me")
            .with_description("What this server is")
            .with_mime_type("text/markdown"),
        Resource::new("test://pixel.png", "pixel")
            .with_description("A 1x1 PNG")
            .with_mime_type("image/png"),
        Resource::new("test://data.bin", "data").with_mime_type("application/octet-stream"),
    ]
}

/// One page of resources; the cursor is the index of the page's first item.
pub fn list_resources(cursor: Option<&str>) -> Result<ListResourcesResult, ErrorData> {
    let all = all_resources();
    let start = match cursor {
        None => 0,
        Some(c) => c
            .parse::<usize>()
            .ok()
            .filter(|n| *n < all.len())
            .ok_or_else(|| ErrorData::invalid_params(format!("bad cursor {c:?}"), None))?,
    };
    let end = (start + PAGE).min(all.len());
    let mut page = ListResourcesResult::with_all_items(all[start..end].to_vec());
    if end < all.len() {
        page.next_cursor = Some(end.to_string());
    }
    Ok(page)
}

/// The contents of one resource.
pub fn read_resource(uri: &str) -> Result<ReadResourceResult, ErrorData> {
    let contents = match uri {
        "test://readme" => ResourceContents::text(README, uri).with_mime_type("text/markdown"),
        "test://pixel.png" => ResourceContents::blob(TINY_PNG, uri).with_mime_type("image/png"),
        // Four bytes: 00 01 02 03.
        "test://data.bin" => {
            ResourceContents::blob("AAECAw==", uri).with_mime_type("application/octet-stream")
        }
        _ => {
            return Err(ErrorData::resource_not_found(
                format!("no resource {uri}"),
                None,
            ));
        }
    };
    Ok(ReadResourceResult::new(vec![contents]))
}

/// The built-in prompts plus those added at run time.
pub fn list_prompts(added: &[String]) -> ListPromptsResult {
    let mut prompts = vec![
        Prompt::new(
            "greet",
            Some("Greets someone by name"),
            Some(vec![
                PromptArgument::new("name")
                    .with_description("Who to greet")
                    .with_required(true),
                PromptArgument::new("style").with_description("formal or casual"),
            ]),
        ),
        Prompt::new(
            "summary",
            Some("Summarizes the readme"),
            None::<Vec<PromptArgument>>,
        ),
    ];
    for name in added {
        prompts.push(Prompt::new(
            name.clone(),
            Some("Added at run time"),
            None::<Vec<PromptArgument>>,
        ));
    }
    ListPromptsResult::with_all_items(prompts)
}

/// One prompt's messages.
pub fn get_prompt(
    name: &str,
    args: &Map<String, Value>,
    added: &[String],
) -> Result<GetPromptResult, ErrorData> {
    let arg = |key: &str| args.get(key).and_then(Value::as_str).map(str::to_owned);
    let messages = match name {
        "greet" => {
            let who = arg("name")
                .ok_or_else(|| ErrorData::invalid_params("missing required argument name", None))?;
            let greeting = if arg("style").as_deref() == Some("formal") {
                format!("Good day, {who}.")
            } else {
                format!("Hello, {who}!")
            };
            vec![
                PromptMessage::new_text(Role::User, format!("Please greet {who}.")),
                PromptMessage::new_text(Role::Assistant, greeting),
            ]
        }
        "summary" => vec![
            PromptMessage::new_text(Role::User, "Summarize this:"),
            PromptMessage::new(
                Role::User,
                ContentBlock::Resource(EmbeddedResource::new(ResourceContents::text(
                    README,
                    "test://readme",
                ))),
            ),
            PromptMessage::new(Role::User, ContentBlock::image(TINY_PNG, "image/png")),
        ],
        other if added.iter().any(|a| a == other) => {
            vec![PromptMessage::new_text(
                Role::User,
                format!("{other} says hi"),
            )]
        }
        other => {
            return Err(ErrorData::invalid_params(
                format!("no prompt {other}"),
                None,
            ));
        }
    };
    Ok(GetPromptResult::new(messages).with_description(format!("the {name} prompt")))
}
