//! The mock server over real loopback sockets.

use std::io::{Read, Write};
use std::net::TcpStream;

use serde_json::json;
use wright_test_support::{MockResponse, MockServer, ScriptMode};

use super::client::{post, send_raw};

#[test]
fn answers_a_raw_request_with_the_scripted_sse_body() {
    let body = "event: ping\ndata: {\"type\":\"ping\"}\n\n";
    let server = MockServer::start(vec![MockResponse::sse(body)]).unwrap();
    assert!(server.url().starts_with("http://127.0.0.1:"));
    let r = post(&server.url(), "/v1/messages", "{}");
    assert_eq!(r.status, 200);
    assert_eq!(
        r.header("content-type"),
        Some("text/event-stream; charset=utf-8")
    );
    assert_eq!(r.header("connection"), Some("close"));
    assert_eq!(r.header("transfer-encoding"), Some("chunked"));
    let (bytes, _, complete) = r.dechunk();
    assert!(complete);
    assert_eq!(bytes, body.as_bytes());
}

#[test]
fn records_method_path_headers_and_body() {
    let server = MockServer::start(vec![MockResponse::json(200, json!({"ok": true}))]).unwrap();
    let r = post(
        &server.url(),
        "/v1/chat/completions",
        r#"{"model":"m","stream":true}"#,
    );
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-length"), Some("11"));
    assert_eq!(r.body_text(), r#"{"ok":true}"#);
    let reqs = server.requests();
    assert_eq!(reqs.len(), 1);
    let req = &reqs[0];
    assert_eq!(req.method, "POST");
    assert_eq!(req.path, "/v1/chat/completions");
    assert!(
        req.headers
            .iter()
            .any(|(n, v)| n == "x-api-key" && v == "test-key")
    );
    assert_eq!(req.header("Content-Type"), Some("application/json"));
    assert_eq!(req.json()["model"], "m");
    assert_eq!(req.json()["stream"], true);
}

#[test]
fn accepts_chunked_request_bodies() {
    let server = MockServer::start(vec![MockResponse::json(200, json!({}))]).unwrap();
    let req = b"POST /v1/messages HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"a\":\r\n3\r\n12}\r\n0\r\n\r\n";
    let r = send_raw(&server.url(), req);
    assert_eq!(r.status, 200);
    assert_eq!(server.requests()[0].json(), json!({"a": 12}));
}

#[test]
fn serves_the_script_in_order_then_500s() {
    let server = MockServer::start(vec![
        MockResponse::json(200, json!({"n": 1})),
        MockResponse::json(429, json!({"n": 2})).with_header("Retry-After", "3"),
    ])
    .unwrap();
    let a = post(&server.url(), "/a", "1");
    let b = post(&server.url(), "/b", "2");
    let c = post(&server.url(), "/c", "3");
    let d = post(&server.url(), "/d", "4");
    assert_eq!((a.status, a.body_text()), (200, r#"{"n":1}"#.into()));
    assert_eq!((b.status, b.header("retry-after")), (429, Some("3")));
    for exhausted in [c, d] {
        assert_eq!(exhausted.status, 500);
        let v: serde_json::Value = serde_json::from_slice(&exhausted.body()).unwrap();
        assert_eq!(
            v,
            json!({"type":"error","error":{"type":"api_error","message":"mock script exhausted"}})
        );
    }
    let paths: Vec<_> = server.requests().into_iter().map(|r| r.path).collect();
    assert_eq!(paths, ["/a", "/b", "/c", "/d"]);
}

#[test]
fn looping_script_repeats() {
    let server = MockServer::start_looping(vec![
        MockResponse::json(200, json!(1)),
        MockResponse::json(201, json!(2)),
    ])
    .unwrap();
    let statuses: Vec<u16> = (0..5)
        .map(|_| post(&server.url(), "/", "").status)
        .collect();
    assert_eq!(statuses, [200, 201, 200, 201, 200]);
    assert_eq!(server.request_count(), 5);
}

#[test]
fn empty_looping_script_is_exhausted() {
    let server = MockServer::start_with(0, Vec::new(), ScriptMode::Loop).unwrap();
    assert_eq!(post(&server.url(), "/", "").status, 500);
}

#[test]
fn chunked_sizes_split_the_body_and_keep_every_byte() {
    let body = "data: {\"text\":\"héllo ✓ wörld\"}\n\n".repeat(3);
    let server =
        MockServer::start(vec![MockResponse::sse(body.clone()).chunked(&[1, 5, 2])]).unwrap();
    let r = post(&server.url(), "/", "");
    let (bytes, sizes, complete) = r.dechunk();
    assert!(complete);
    assert_eq!(bytes, body.as_bytes());
    let expected: Vec<usize> = [1, 5, 2]
        .iter()
        .cycle()
        .scan(body.len(), |left, &s| {
            (*left > 0).then(|| {
                let n = s.min(*left);
                *left -= n;
                n
            })
        })
        .collect();
    assert_eq!(sizes, expected);
}

#[test]
fn chunked_pieces_work_with_content_length_too() {
    let server = MockServer::start(vec![
        MockResponse::json(200, json!({"k": "ü"})).chunked(&[1]),
    ])
    .unwrap();
    let r = post(&server.url(), "/", "");
    assert_eq!(r.body_text(), r#"{"k":"ü"}"#);
}

#[test]
fn drop_after_closes_mid_body() {
    let body = "event: a\ndata: {}\n\n".repeat(10);
    let server = MockServer::start(vec![
        MockResponse::sse(body.clone()).chunked(&[7]).drop_after(30),
        MockResponse::json(200, json!({"long": "x".repeat(100)})).drop_after(10),
        MockResponse::sse(body.clone())
            .close_delimited()
            .drop_after(25),
    ])
    .unwrap();

    let sse = post(&server.url(), "/", "");
    let (bytes, _, complete) = sse.dechunk();
    assert!(
        !complete,
        "a dropped chunked stream has no terminating chunk"
    );
    assert_eq!(bytes, &body.as_bytes()[..30]);

    let js = post(&server.url(), "/", "");
    let declared: usize = js.header("content-length").unwrap().parse().unwrap();
    assert_eq!(js.raw_body.len(), 10);
    assert!(declared > 10);

    let close = post(&server.url(), "/", "");
    assert_eq!(close.header("transfer-encoding"), None);
    assert_eq!(close.header("content-length"), None);
    assert_eq!(close.raw_body, &body.as_bytes()[..25]);
}

#[test]
fn close_delimited_sends_the_whole_body_then_closes() {
    let server =
        MockServer::start(vec![MockResponse::sse("data: 1\n\n").close_delimited()]).unwrap();
    let r = post(&server.url(), "/", "");
    assert_eq!(r.raw_body, b"data: 1\n\n");
}

#[test]
fn hang_up_closes_without_a_response_but_records_the_request() {
    let server = MockServer::start(vec![
        MockResponse::hang_up(),
        MockResponse::json(200, json!({})),
    ])
    .unwrap();
    let r = post(&server.url(), "/v1/messages", r#"{"x":1}"#);
    assert_eq!(r.status, 0);
    assert!(r.raw_body.is_empty());
    assert_eq!(post(&server.url(), "/", "").status, 200);
    assert_eq!(server.requests()[0].json(), json!({"x": 1}));
}

#[test]
fn a_silent_client_does_not_block_other_requests_or_drop() {
    let server = MockServer::start(vec![MockResponse::json(200, json!({}))]).unwrap();
    let silent = TcpStream::connect(server.addr()).unwrap();
    assert_eq!(post(&server.url(), "/", "").status, 200);
    drop(server);
    drop(silent);
}

#[test]
fn answers_expect_continue() {
    let server = MockServer::start(vec![MockResponse::json(200, json!({}))]).unwrap();
    let mut s = TcpStream::connect(server.addr()).unwrap();
    s.write_all(b"POST / HTTP/1.1\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n")
        .unwrap();
    let mut interim = [0u8; 25];
    s.read_exact(&mut interim).unwrap();
    assert_eq!(&interim, b"HTTP/1.1 100 Continue\r\n\r\n");
    s.write_all(b"{}").unwrap();
    let mut rest = String::new();
    s.read_to_string(&mut rest).unwrap();
    assert!(rest.starts_with("HTTP/1.1 200 OK\r\n"));
    assert_eq!(server.requests()[0].body, b"{}");
}

#[test]
fn malformed_request_gets_400_and_is_not_recorded() {
    let server = MockServer::start(vec![MockResponse::json(200, json!({}))]).unwrap();
    let r = send_raw(&server.url(), b"POST / HTTP/1.1\r\nno colon here\r\n\r\n");
    assert_eq!(r.status, 400);
    assert_eq!(server.request_count(), 0);
}

#[test]
fn openai_base_url_appends_v1() {
    let server = MockServer::start(Vec::new()).unwrap();
    assert_eq!(server.openai_base_url(), format!("{}/v1", server.url()));
}
