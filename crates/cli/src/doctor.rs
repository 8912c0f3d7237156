//! `wright doctor` and `wright config validate`: checks of the installation
//! that print what is wrong and what to do, as text or JSON. Keys are only
//! ever reported as set or unset.

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use wright_config::{ConfigLoader, Provider};

use crate::args::Args;
use crate::exit;
use crate::provider;

/// One line of the report.
struct Check {
    name: &'static str,
    ok: bool,
    detail: String,
}

/// Runs every check; exit code 0 when all pass, 1 otherwise.
pub async fn run(loader: &ConfigLoader, args: &Args, as_json: bool) -> u8 {
    let mut checks = config_checks(loader);
    match loader.load(&args.overrides()) {
        Ok(mut resolved) => {
            checks.extend(provider_checks(&resolved).await);
            checks.push(Check {
                name: "environment",
                ok: true,
                detail: crate::env_policy::doctor_detail(&resolved),
            });
            let (keys, _) = provider::keys_for(resolved.untrusted_project_source("base_url"));
            crate::effective::fill(&mut resolved, &keys);
            checks.extend(
                crate::effective::doctor_lines(&resolved)
                    .into_iter()
                    .map(|detail| Check {
                        name: "setting",
                        ok: true,
                        detail,
                    }),
            );
        }
        Err(e) => checks.push(Check {
            name: "provider",
            ok: false,
            detail: format!("not checked: the configuration does not load ({e})"),
        }),
    }
    checks.push(trust_check(loader, args));
    checks.push(sandbox_check());
    checks.push(tool_check());
    checks.extend(mcp_checks(loader, args).await);
    report(&checks, as_json)
}

/// One line per configured MCP server, each started (within its start-up
/// timeout) to report its real status; unapproved project servers are
/// named but not started.
async fn mcp_checks(loader: &ConfigLoader, args: &Args) -> Vec<Check> {
    let mut resolved = match loader.load(&args.overrides()) {
        Ok(resolved) => resolved,
        Err(e) => {
            return vec![Check {
                name: "mcp",
                ok: false,
                detail: format!("not checked: the configuration does not load ({e})"),
            }];
        }
    };
    crate::mcp_servers::release_approved(&mut resolved, &args.approving_rules());
    crate::mcp_cmd::doctor_lines(&resolved, &loader.project_root, &args.mcp_flags())
        .await
        .into_iter()
        .map(|(ok, detail)| Check {
            name: "mcp",
            ok,
            detail,
        })
        .collect()
}

/// Whether the project's own config may loosen safety; informational.
fn trust_check(loader: &ConfigLoader, args: &Args) -> Check {
    Check {
        name: "trust",
        ok: true,
        detail: crate::trust::doctor_detail(loader, args),
    }
}

/// `wright config validate`: every configuration layer on its own.
pub fn validate(loader: &ConfigLoader, args: &Args, as_json: bool) -> u8 {
    let mut checks = config_checks(loader);
    if let Err(e) = args.overrides().validate_flags() {
        checks.push(Check {
            name: "config",
            ok: false,
            detail: e.to_string(),
        });
    }
    checks.extend(rule_checks(loader, args));
    report(&checks, as_json)
}

/// Every permission rule parses, named with the layer it came from.
fn rule_checks(loader: &ConfigLoader, args: &Args) -> Vec<Check> {
    // Loaded as if trusted, so the rules an untrusted project's files
    // carry are checked too, though they do not apply yet.
    let all = wright_config::Overrides {
        trust_project: true,
        ..args.overrides()
    };
    let Ok(resolved) = loader.load(&all) else {
        return Vec::new();
    };
    let p = &resolved.settings.permissions;
    [("allow", &p.allow), ("ask", &p.ask), ("deny", &p.deny)]
        .into_iter()
        .flat_map(|(list, rules)| {
            let source = resolved
                .source(&format!("permissions.{list}"))
                .map_or_else(|| "flags".to_owned(), ToString::to_string);
            rules.iter().filter_map(move |rule| {
                rule.parse::<wright_permissions::Rule>()
                    .err()
                    .map(|e| Check {
                        name: "config",
                        ok: false,
                        detail: format!(
                            "permissions.{list} (from {source}): invalid rule `{rule}`: {e}"
                        ),
                    })
            })
        })
        .collect()
}

fn config_checks(loader: &ConfigLoader) -> Vec<Check> {
    loader
        .validate()
        .into_iter()
        .flat_map(|layer| {
            let first = Check {
                name: "config",
                ok: layer.error.is_none(),
                detail: match (&layer.error, layer.exists) {
                    (Some(e), _) => e.to_string(),
                    (None, true) => format!("{}: ok", layer.layer),
                    (None, false) => format!("{}: not present", layer.layer),
                },
            };
            // Every problem of every file, each on its own line.
            let more = layer.more.into_iter().map(|e| Check {
                name: "config",
                ok: false,
                detail: e.to_string(),
            });
            std::iter::once(first).chain(more)
        })
        .collect()
}

async fn provider_checks(resolved: &wright_config::Resolved) -> Vec<Check> {
    let settings = &resolved.settings;
    // The same rule as a session: an untrusted project's server never
    // gets the user's key, not even for a reachability check.
    let (keys, withheld) = provider::keys_for(resolved.untrusted_project_source("base_url"));
    let choice = match provider::choose(settings, &keys).await {
        Ok(choice) => choice,
        Err(e) => {
            return vec![Check {
                name: "provider",
                ok: false,
                detail: e.to_string(),
            }];
        }
    };
    let http = match wright_llm::http_client_for(&choice.base_url) {
        Ok(http) => http,
        Err(e) => {
            return vec![Check {
                name: "provider",
                ok: false,
                detail: e.to_string(),
            }];
        }
    };
    let mut checks: Vec<Check> = withheld
        .map(|w| Check {
            name: "key",
            ok: true,
            detail: w.trim_start_matches("warning: ").to_owned(),
        })
        .into_iter()
        .collect();
    checks.extend([
        Check {
            name: "provider",
            ok: true,
            detail: format!(
                "{} at {}, model {}",
                choice.provider.as_str(),
                choice.base_url,
                choice.model
            ),
        },
        Check {
            name: "key",
            ok: true,
            detail: match &choice.key {
                Some(_) => format!("{} is set", choice.key_var),
                None => format!("{} is not set (not needed for this server)", choice.key_var),
            },
        },
    ]);
    checks.push(reachability(&http, &choice).await);
    checks
}

/// A cheap authenticated request: the server's model list.
async fn reachability(http: &reqwest::Client, choice: &provider::Choice) -> Check {
    let base = choice.base_url.trim_end_matches('/');
    let mut request = match choice.provider {
        Provider::Anthropic => http
            .get(format!("{base}/v1/models"))
            .header("anthropic-version", "2023-06-01"),
        Provider::OpenaiChat | Provider::OpenaiResponses => http.get(format!("{base}/models")),
    };
    if let Some(key) = &choice.key {
        request = match choice.provider {
            Provider::Anthropic => request.header("x-api-key", key),
            Provider::OpenaiChat | Provider::OpenaiResponses => request.bearer_auth(key),
        };
    }
    let started = Instant::now();
    let (ok, detail) = match request.timeout(Duration::from_secs(5)).send().await {
        Ok(response) => {
            let status = response.status();
            let ms = started.elapsed().as_millis();
            match status.as_u16() {
                200..=299 => (true, format!("answered {status} in {ms} ms")),
                401 | 403 => (
                    false,
                    format!(
                        "answered {status}: the key was rejected; check {}",
                        choice.key_var
                    ),
                ),
                404 => (
                    true,
                    format!("reachable ({status} for the model list, which some servers lack)"),
                ),
                _ => (false, format!("answered {status} in {ms} ms")),
            }
        }
        Err(e) => {
            let what = if e.is_timeout() {
                "timed out after 5 s".to_owned()
            } else if e.is_connect() {
                "connection failed".to_owned()
            } else {
                "request failed".to_owned()
            };
            (false, format!("{base}: {what}"))
        }
    };
    Check {
        name: "reachable",
        ok,
        detail,
    }
}

/// What confines shell commands, as the helper really applied it (it runs
/// `true` through the helper once). Not a failure where the kernel lacks
/// support: the permission layer still applies, and the run says so.
fn sandbox_check() -> Check {
    let detail = match wright_sandbox::probe() {
        wright_sandbox::Support::Unavailable(why) => crate::safety::unavailable_detail(&why),
        wright_sandbox::Support::Available => match wright_sandbox::own_helper() {
            Err(e) => format!("cannot locate the wright binary for the helper: {e}"),
            Ok(helper) => {
                let cwd = std::env::current_dir().unwrap_or_default();
                let policy = wright_sandbox::SandboxPolicy::workspace_write(vec![cwd]);
                match wright_sandbox::applied_by_helper(helper, &policy) {
                    Ok(applied) => {
                        format!(
                            "{} (helper {})",
                            describe_sandbox(&applied),
                            helper.display()
                        )
                    }
                    Err(why) => format!("the helper {} refused: {why}", helper.display()),
                }
            }
        },
    };
    Check {
        name: "sandbox",
        ok: true,
        detail,
    }
}

/// One line naming each mechanism and what it covers.
fn describe_sandbox(applied: &wright_sandbox::Applied) -> String {
    let mut parts = Vec::new();
    if applied.landlock {
        parts.push("Landlock (writes only in the workspace and temp dirs)".to_owned());
    }
    if applied.seccomp {
        parts.push(
            "seccomp (no terminal injection, device nodes, io_uring; sockets only with network on)"
                .to_owned(),
        );
    }
    #[cfg(target_os = "linux")]
    match &applied.namespaces {
        Some(ns) => {
            let mut covered = vec!["user + PID namespaces (every descendant dies with wright)"];
            if ns.read_only_root {
                covered.push("read-only file tree outside the roots (metadata too)");
            }
            if ns.fresh_proc {
                covered.push("fresh /proc (no ancestor's environment)");
            }
            parts.push(covered.join(", "));
            parts.push(format!(
                "{} policy paths read-only, {} secret files hidden",
                ns.protected.len(),
                ns.hidden
            ));
            if !ns.skipped.is_empty() {
                parts.push(format!("NOT applied: {}", ns.skipped.join("; ")));
            }
        }
        None => parts.push(
            "NO namespaces (the kernel refuses unprivileged user namespaces): .wright/, .git/hooks \
             and .git/config are not protected from commands, metadata outside the workspace is \
             not confined, and detached processes can outlive wright"
                .to_owned(),
        ),
    }
    format!("active: {}", parts.join("; "))
}

fn tool_check() -> Check {
    let names = wright_tools::ToolRegistry::builtin().names().join(", ");
    let bash = crate::which::which("bash");
    Check {
        name: "tools",
        ok: bash.is_some(),
        detail: match bash {
            Some(path) => format!("{names}; bash at {path}"),
            None => format!("{names}; bash NOT found on PATH: the Bash tool cannot run"),
        },
    }
}

fn report(checks: &[Check], as_json: bool) -> u8 {
    let ok = checks.iter().all(|c| c.ok);
    if as_json {
        let items: Vec<Value> = checks
            .iter()
            .map(|c| json!({"name": c.name, "ok": c.ok, "detail": c.detail}))
            .collect();
        println!(
            "{}",
            json!({"version": env!("CARGO_PKG_VERSION"), "ok": ok, "checks": items})
        );
    } else {
        println!("wright {}", env!("CARGO_PKG_VERSION"));
        for c in checks {
            let mark = if c.ok { "ok  " } else { "FAIL" };
            println!("{mark} {:<10} {}", c.name, c.detail);
        }
    }
    if ok { exit::SUCCESS } else { exit::ERROR }
}
