//! The mock server: a loopback listener on a background thread that answers
//! each connection's single request from the script and records it.
//!
//! Each connection gets its own short-lived thread, so a client that stalls
//! (or a `hang_up` answer) never blocks the others. Dropping the server
//! stops the accept loop by waking it with a connection of its own.

use std::io;
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::http::{read_request, write_response};
use crate::request::RecordedRequest;
use crate::response::MockResponse;

/// A bound on how long a connection thread waits for a silent client, so a
/// forgotten connection cannot keep a thread alive for the whole test run.
const CLIENT_IDLE_LIMIT: Duration = Duration::from_secs(120);

/// What happens when the script runs out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScriptMode {
    /// Each response is used once; afterwards every request gets a 500.
    Once,
    /// The script starts over, forever (benchmarks repeating a scenario).
    Loop,
}

#[derive(Default)]
struct State {
    requests: Vec<RecordedRequest>,
    next: usize,
}

/// Picks a request's answer by what it asks, for clients that send several
/// requests at once (a parent and its subagents): arrival order is then no
/// script. It runs on the connection's own thread, so it may block (a
/// barrier proving that two requests are in flight together).
pub type Router = dyn Fn(&RecordedRequest) -> MockResponse + Send + Sync;

struct Shared {
    script: Vec<MockResponse>,
    route: Option<Box<Router>>,
    mode: ScriptMode,
    state: Mutex<State>,
    stopping: AtomicBool,
}

impl Shared {
    fn state(&self) -> MutexGuard<'_, State> {
        // A panicking connection thread must not take the recordings with it.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Records `request` and picks its answer under one lock, so the order
    /// of `requests()` is exactly the order answers were handed out.
    fn answer(&self, request: RecordedRequest) -> MockResponse {
        if let Some(route) = &self.route {
            // Recorded first, answered outside the lock: the router may wait.
            self.state().requests.push(request.clone());
            return route(&request);
        }
        let mut state = self.state();
        state.requests.push(request);
        let n = state.next;
        state.next += 1;
        let pick = match self.mode {
            ScriptMode::Once => self.script.get(n),
            ScriptMode::Loop if self.script.is_empty() => None,
            ScriptMode::Loop => self.script.get(n % self.script.len()),
        };
        pick.cloned().unwrap_or_else(MockResponse::exhausted)
    }
}

/// A scripted HTTP/1.1 server on `127.0.0.1`, serving from background
/// threads. Request N gets response N of the script, whatever its path.
pub struct MockServer {
    addr: SocketAddr,
    shared: Arc<Shared>,
    acceptor: Option<JoinHandle<()>>,
}

impl MockServer {
    /// Binds `127.0.0.1:0` and serves `script` in order: request N gets
    /// response N. After the script is used up every request gets a 500
    /// with `{"type":"error","error":{"type":"api_error","message":"mock script exhausted"}}`.
    pub fn start(script: Vec<MockResponse>) -> io::Result<MockServer> {
        Self::start_with(0, script, ScriptMode::Once)
    }

    /// Like [`MockServer::start`], but the script repeats forever.
    pub fn start_looping(script: Vec<MockResponse>) -> io::Result<MockServer> {
        Self::start_with(0, script, ScriptMode::Loop)
    }

    /// Binds `127.0.0.1:port` (0 for any free port) with the given mode.
    pub fn start_with(
        port: u16,
        script: Vec<MockResponse>,
        mode: ScriptMode,
    ) -> io::Result<MockServer> {
        Self::serve(port, script, None, mode)
    }

    /// Binds `127.0.0.1:0` and answers every request with `route(request)`,
    /// recording it as [`MockServer::start`] does.
    pub fn start_routed(
        route: impl Fn(&RecordedRequest) -> MockResponse + Send + Sync + 'static,
    ) -> io::Result<MockServer> {
        Self::serve(0, Vec::new(), Some(Box::new(route)), ScriptMode::Once)
    }

    fn serve(
        port: u16,
        script: Vec<MockResponse>,
        route: Option<Box<Router>>,
        mode: ScriptMode,
    ) -> io::Result<MockServer> {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, port))?;
        let addr = listener.local_addr()?;
        let shared = Arc::new(Shared {
            script,
            route,
            mode,
            state: Mutex::new(State::default()),
            stopping: AtomicBool::new(false),
        });
        let accept_shared = Arc::clone(&shared);
        let acceptor = std::thread::Builder::new()
            .name("wright-mock-accept".into())
            .spawn(move || accept_loop(&listener, &accept_shared))?;
        Ok(MockServer {
            addr,
            shared,
            acceptor: Some(acceptor),
        })
    }

    /// The base URL, `http://127.0.0.1:PORT` (no trailing slash). Anthropic
    /// clients use it as is; OpenAI clients want [`MockServer::openai_base_url`].
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// `{url}/v1`, the shape of `OPENAI_BASE_URL`.
    pub fn openai_base_url(&self) -> String {
        format!("{}/v1", self.url())
    }

    /// The bound address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Every request received so far, in arrival order.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.shared.state().requests.clone()
    }

    /// How many requests have been received so far.
    pub fn request_count(&self) -> usize {
        self.shared.state().requests.len()
    }

    /// Blocks the calling thread while the server serves (until the process
    /// is killed); for the `wright-mock` binary.
    pub fn join(mut self) {
        if let Some(handle) = self.acceptor.take() {
            let _ = handle.join();
        }
    }
}

impl std::fmt::Debug for MockServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MockServer")
            .field("addr", &self.addr)
            .field("script_len", &self.shared.script.len())
            .field("mode", &self.shared.mode)
            .finish()
    }
}

impl Drop for MockServer {
    fn drop(&mut self) {
        self.shared.stopping.store(true, Ordering::SeqCst);
        let Some(handle) = self.acceptor.take() else {
            return;
        };
        // The accept loop is blocked in accept(); a connection wakes it to
        // see the flag. If even that fails, detach rather than hang.
        if TcpStream::connect(self.addr).is_ok() {
            let _ = handle.join();
        }
    }
}

fn accept_loop(listener: &TcpListener, shared: &Arc<Shared>) {
    for conn in listener.incoming() {
        if shared.stopping.load(Ordering::SeqCst) {
            break;
        }
        let Ok(stream) = conn else { continue };
        let conn_shared = Arc::clone(shared);
        let spawned = std::thread::Builder::new()
            .name("wright-mock-conn".into())
            .spawn(move || serve_connection(&stream, &conn_shared));
        // Out of threads: that one client sees a closed connection.
        drop(spawned);
    }
}

fn serve_connection(stream: &TcpStream, shared: &Shared) {
    let _ = stream.set_nodelay(true);
    let _ = stream.set_read_timeout(Some(CLIENT_IDLE_LIMIT));
    match read_request(stream) {
        Ok(Some(request)) => {
            let response = shared.answer(request);
            let _ = write_response(stream, &response);
        }
        Ok(None) => {}
        Err(_) => {
            let _ = write_response(
                stream,
                &MockResponse::api_error(400, "invalid_request_error", "mock: malformed request"),
            );
        }
    }
}
