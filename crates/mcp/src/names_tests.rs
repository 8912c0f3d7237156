use super::*;
use pretty_assertions::assert_eq;

fn r(server: &str, tool: &str) -> ToolRef {
    ToolRef {
        server: server.into(),
        tool: tool.into(),
    }
}

#[test]
fn plain_names_and_the_way_back() {
    let names = ToolNames::build([r("github", "create_issue"), r("fs", "read-file")]);
    assert_eq!(
        names.exposed("github", "create_issue"),
        Some("mcp__github__create_issue")
    );
    assert_eq!(
        names.resolve("mcp__fs__read-file"),
        Some(&r("fs", "read-file"))
    );
    assert_eq!(names.len(), 2);
    assert!(names.resolve("mcp__fs__nope").is_none());
}

#[test]
fn invalid_characters_become_underscores() {
    assert_eq!(base_name("s", "a.b/c d"), "mcp__s__a_b_c_d");
    assert_eq!(base_name("s", "héllo"), "mcp__s__h_llo");
}

#[test]
fn long_names_are_cut_to_64() {
    let tool = "x".repeat(100);
    let names = ToolNames::build([r("srv", &tool)]);
    let exposed = names.exposed("srv", &tool).unwrap();
    assert_eq!(exposed.len(), MAX_TOOL_NAME_LEN);
    assert!(exposed.starts_with("mcp__srv__xxx"));
}

#[test]
fn collisions_get_suffixes_in_sorted_order_whatever_the_input_order() {
    let a = [r("s", "a.b"), r("s", "a/b"), r("s", "a_b")];
    let mut b = a.clone();
    b.reverse();
    let first = ToolNames::build(a);
    let second = ToolNames::build(b);
    assert_eq!(first, second);
    // Sorted: "a.b" < "a/b" < "a_b"; the first takes the plain name.
    assert_eq!(first.exposed("s", "a.b"), Some("mcp__s__a_b"));
    assert_eq!(first.exposed("s", "a/b"), Some("mcp__s__a_b_2"));
    assert_eq!(first.exposed("s", "a_b"), Some("mcp__s__a_b_3"));
}

#[test]
fn suffixes_never_steal_a_plain_name() {
    // "a_b_2" is a real tool: its plain name must stay its own.
    let names = ToolNames::build([r("s", "a.b"), r("s", "a/b"), r("s", "a_b_2")]);
    assert_eq!(names.exposed("s", "a_b_2"), Some("mcp__s__a_b_2"));
    assert_eq!(names.exposed("s", "a.b"), Some("mcp__s__a_b"));
    assert_eq!(names.exposed("s", "a/b"), Some("mcp__s__a_b_3"));
}

#[test]
fn long_colliding_names_stay_within_the_limit() {
    let t1 = format!("{}.1", "y".repeat(80));
    let t2 = format!("{}.2", "y".repeat(80));
    let names = ToolNames::build([r("s", &t1), r("s", &t2)]);
    let n1 = names.exposed("s", &t1).unwrap();
    let n2 = names.exposed("s", &t2).unwrap();
    assert_ne!(n1, n2);
    assert!(n1.len() <= MAX_TOOL_NAME_LEN && n2.len() <= MAX_TOOL_NAME_LEN);
    assert!(n2.ends_with("_2"));
}

#[test]
fn same_tool_on_two_servers_does_not_collide() {
    let names = ToolNames::build([r("a", "echo"), r("b", "echo")]);
    assert_eq!(names.exposed("a", "echo"), Some("mcp__a__echo"));
    assert_eq!(names.exposed("b", "echo"), Some("mcp__b__echo"));
}
