//! Unit and property tests of the SSE parser.

use super::*;
use proptest::prelude::*;

fn ev(event: Option<&str>, data: &str, id: Option<&str>) -> SseEvent {
    SseEvent {
        event: event.map(str::to_owned),
        data: data.to_owned(),
        id: id.map(str::to_owned),
    }
}

fn parse_whole(bytes: &[u8]) -> Vec<SseEvent> {
    let mut p = SseParser::new();
    let mut out = p.push(bytes);
    out.extend(p.finish());
    out
}

fn parse_chunks(bytes: &[u8], cuts: &[usize]) -> Vec<SseEvent> {
    let mut cuts: Vec<usize> = cuts.iter().map(|c| c % (bytes.len() + 1)).collect();
    cuts.sort_unstable();
    let mut p = SseParser::new();
    let mut out = Vec::new();
    let mut start = 0;
    for c in cuts {
        p.push_into(&bytes[start..c], &mut out);
        start = c;
    }
    p.push_into(&bytes[start..], &mut out);
    out.extend(p.finish());
    out
}

#[test]
fn basic_event() {
    let out = parse_whole(b"event: message_start\ndata: {\"a\":1}\n\n");
    assert_eq!(out, vec![ev(Some("message_start"), "{\"a\":1}", None)]);
}

#[test]
fn field_rules() {
    let input = b": a comment\ndata:no-space\ndata:  two spaces\ndata\nretry: 10\nfoo: bar\n\n";
    assert_eq!(
        parse_whole(input),
        vec![ev(None, "no-space\n two spaces\n", None)]
    );
}

#[test]
fn line_endings_crlf_and_cr() {
    let out = parse_whole(b"data: a\r\n\r\ndata: b\r\rdata: c\n\n");
    assert_eq!(
        out,
        vec![
            ev(None, "a", None),
            ev(None, "b", None),
            ev(None, "c", None)
        ]
    );
}

#[test]
fn cr_at_chunk_end_then_lf_is_one_line_end() {
    let mut p = SseParser::new();
    assert!(p.push(b"data: a\r").is_empty());
    // The LF completes the CRLF; it must not count as the blank line.
    assert!(p.push(b"\ndata: b\r").is_empty());
    assert_eq!(p.push(b"\n\r\n"), vec![ev(None, "a\nb", None)]);
}

#[test]
fn event_without_data_is_not_dispatched_and_resets_type() {
    let out = parse_whole(b"event: ping\n\ndata: x\n\n");
    assert_eq!(out, vec![ev(None, "x", None)]);
}

#[test]
fn empty_data_line_dispatches_empty_string() {
    assert_eq!(parse_whole(b"data:\n\n"), vec![ev(None, "", None)]);
}

#[test]
fn id_persists_and_nul_ids_are_ignored() {
    let out = parse_whole(b"id: 1\ndata: a\n\ndata: b\n\nid: x\0y\ndata: c\n\nid\ndata: d\n\n");
    assert_eq!(
        out,
        vec![
            ev(None, "a", Some("1")),
            ev(None, "b", Some("1")),
            ev(None, "c", Some("1")),
            ev(None, "d", Some("")),
        ]
    );
}

#[test]
fn leading_bom_is_stripped_once() {
    let mut input = "\u{feff}".as_bytes().to_vec();
    input.extend_from_slice(b"data: a\n\n");
    assert_eq!(parse_whole(&input), vec![ev(None, "a", None)]);
    // Split inside the BOM itself.
    assert_eq!(parse_chunks(&input, &[1, 2]), vec![ev(None, "a", None)]);
}

#[test]
fn multibyte_utf8_split_byte_by_byte() {
    let input = "data: héllo €uro 😀\n\n".as_bytes();
    let cuts: Vec<usize> = (0..input.len()).collect();
    assert_eq!(
        parse_chunks(input, &cuts),
        vec![ev(None, "héllo €uro 😀", None)]
    );
}

#[test]
fn invalid_utf8_is_replaced() {
    assert_eq!(
        parse_whole(b"data: a\xffb\n\n"),
        vec![ev(None, "a\u{fffd}b", None)]
    );
}

#[test]
fn finish_dispatches_complete_lines_and_drops_a_partial_line() {
    assert_eq!(parse_whole(b"data: whole\n"), vec![ev(None, "whole", None)]);
    assert_eq!(parse_whole(b"data: {\"cut"), vec![]);
    assert_eq!(
        parse_whole(b"data: a\ndata: {\"cut"),
        vec![ev(None, "a", None)]
    );
}

#[test]
fn parser_is_reusable_after_finish() {
    let mut p = SseParser::new();
    p.push(b"data: a");
    assert!(p.finish().is_empty());
    assert_eq!(p.push(b"data: b\n\n"), vec![ev(None, "b", None)]);
}

/// Fragments that combine into tricky streams: every line ending, field
/// names with and without colons, comments, multi-byte UTF-8.
const PIECES: &[&str] = &[
    "data",
    "event",
    "id",
    ":",
    ": ",
    " ",
    "\n",
    "\r",
    "\r\n",
    "x",
    "é",
    "€",
    "😀",
    "[DONE]",
    ": comment\n",
    "data: {\"k\":1}\n",
    "\n\n",
    "\u{feff}",
];

#[derive(Debug, Clone)]
struct GenEvent {
    event: Option<String>,
    id: Option<String>,
    comment: bool,
    data: Vec<String>,
}

fn gen_event() -> impl Strategy<Value = GenEvent> {
    (
        proptest::option::of("[a-z_]{1,10}"),
        proptest::option::of("[0-9a-f]{1,8}"),
        any::<bool>(),
        proptest::collection::vec("[a-zé€😀 :{}\"]{0,12}", 1..4),
    )
        .prop_map(|(event, id, comment, data)| GenEvent {
            event,
            id,
            comment,
            data,
        })
}

/// Renders events with line endings drawn from `endings`, returning the
/// bytes and the events a correct parser must produce.
fn render(events: &[GenEvent], endings: &[u8]) -> (Vec<u8>, Vec<SseEvent>) {
    let mut bytes = Vec::new();
    let mut expected = Vec::new();
    let mut last_id: Option<String> = None;
    let mut n = 0usize;
    let mut prev_cr = false;
    let mut line = |bytes: &mut Vec<u8>, text: &str| {
        bytes.extend_from_slice(text.as_bytes());
        let mut choice = endings[n % endings.len()] % 3;
        n += 1;
        // A lone LF right after a CR would merge with it into one CRLF.
        if prev_cr && text.is_empty() && choice == 0 {
            choice = 1;
        }
        let ending: &[u8] = match choice {
            0 => b"\n",
            1 => b"\r\n",
            _ => b"\r",
        };
        prev_cr = choice == 2;
        bytes.extend_from_slice(ending);
    };
    for e in events {
        if e.comment {
            line(&mut bytes, ": keep-alive");
        }
        if let Some(name) = &e.event {
            line(&mut bytes, &format!("event: {name}"));
        }
        if let Some(id) = &e.id {
            line(&mut bytes, &format!("id: {id}"));
            last_id = Some(id.clone());
        }
        for d in &e.data {
            line(&mut bytes, &format!("data: {d}"));
        }
        line(&mut bytes, "");
        expected.push(SseEvent {
            event: e.event.clone(),
            data: e.data.join("\n"),
            id: last_id.clone(),
        });
    }
    (bytes, expected)
}

proptest! {
    #[test]
    fn any_split_of_random_pieces_matches_whole(
        pieces in proptest::collection::vec(0..PIECES.len(), 0..60),
        cuts in proptest::collection::vec(any::<usize>(), 0..12),
    ) {
        let bytes: Vec<u8> = pieces.iter().flat_map(|&i| PIECES[i].bytes()).collect();
        prop_assert_eq!(parse_chunks(&bytes, &cuts), parse_whole(&bytes));
    }

    #[test]
    fn generated_streams_parse_to_their_events_under_any_split(
        events in proptest::collection::vec(gen_event(), 0..8),
        endings in proptest::collection::vec(any::<u8>(), 1..16),
        cuts in proptest::collection::vec(any::<usize>(), 0..12),
    ) {
        let (bytes, expected) = render(&events, &endings);
        prop_assert_eq!(&parse_whole(&bytes), &expected);
        prop_assert_eq!(&parse_chunks(&bytes, &cuts), &expected);
    }
}

#[test]
fn endless_line_overflows_without_growing_past_the_cap() {
    let mut p = SseParser::new();
    let mut out = p.push(b"data: first\n\ndata: ");
    assert_eq!(out, vec![ev(None, "first", None)]);
    let piece = vec![b'a'; 1024 * 1024];
    for _ in 0..16 {
        p.push_into(&piece, &mut out);
    }
    assert!(p.overflowed());
    assert!(p.line.capacity() <= MAX_EVENT_BYTES);
    // Everything after the overflow is ignored, even whole events.
    p.push_into(b"\n\ndata: later\n\n", &mut out);
    assert_eq!(out.len(), 1);
    assert!(p.finish().is_empty());
    assert!(!p.overflowed());
}

#[test]
fn event_of_many_lines_overflows_at_the_cap() {
    let mut p = SseParser::new();
    let line = format!("data: {}\n", "b".repeat(1024 * 1024));
    let mut out = Vec::new();
    for _ in 0..17 {
        p.push_into(line.as_bytes(), &mut out);
    }
    assert!(p.overflowed());
    assert!(out.is_empty());
    assert!(p.data.capacity() <= MAX_EVENT_BYTES);
}

#[test]
fn a_line_just_under_the_cap_is_fine() {
    let mut p = SseParser::new();
    let mut bytes = b"data: ".to_vec();
    bytes.resize(MAX_EVENT_BYTES - 1, b'c');
    let mut out = Vec::new();
    for piece in bytes.chunks(1 << 20) {
        p.push_into(piece, &mut out);
    }
    p.push_into(b"\n\n", &mut out);
    assert!(!p.overflowed());
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].data.len(), MAX_EVENT_BYTES - 1 - 6);
}
