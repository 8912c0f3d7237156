//! Runs the Grep or Glob tool once, in-process, and prints what the model
//! would see: `search grep PATTERN [DIR]` or `search glob PATTERN [DIR]`.
//! For the search benchmarks in `bench/`, which compare it with `rg`.

use wright_tools::{GlobTool, GrepTool, Tool, ToolContext};

#[tokio::main(flavor = "current_thread")]
async fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (tool, pattern, dir): (&dyn Tool, &str, &str) = match args.as_slice() {
        [t, p] if t == "grep" => (&GrepTool, p, "."),
        [t, p, d] if t == "grep" => (&GrepTool, p, d),
        [t, p] if t == "glob" => (&GlobTool, p, "."),
        [t, p, d] if t == "glob" => (&GlobTool, p, d),
        _ => {
            eprintln!("usage: search grep|glob PATTERN [DIR]");
            return std::process::ExitCode::from(2);
        }
    };
    let Ok(dir) = std::path::Path::new(dir).canonicalize() else {
        eprintln!("error: no such directory");
        return std::process::ExitCode::from(2);
    };
    let ctx = ToolContext::new(&dir, std::env::temp_dir().join("wright-search-spill"));
    match tool
        .run(serde_json::json!({ "pattern": pattern }), &ctx)
        .await
    {
        Ok(out) => {
            print!("{}", out.content);
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
