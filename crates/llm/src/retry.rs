//! When to retry a failed model request and how long to wait first:
//! exponential backoff with full jitter, the server's `Retry-After` honoured
//! up to a cap, no retry once the attempts together have taken the total
//! limit (a stalled server costs minutes, not idle timeout × retries), and
//! none at all where waiting cannot help: a refused connection to this
//! machine (nothing listens there) or a host name that does not resolve.
//! The loop itself (and telling the user) belongs to the caller.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::error::LlmError;

/// How many times to retry and how long to wait in between.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Retries after the first attempt; 0 disables retrying.
    pub max_retries: u32,
    /// The backoff ceiling of the first retry; it doubles per attempt.
    pub base_delay: Duration,
    /// No backoff delay exceeds this.
    pub max_delay: Duration,
    /// A server's `Retry-After` is honoured up to this long.
    pub max_retry_after: Duration,
    /// No retry starts once this much time has passed since the first
    /// attempt began (all attempts and waits together).
    pub total_limit: Duration,
    /// Retries of one response after a stall ([`LlmError::Stalled`]),
    /// within `max_retries`: each stall costs a whole timeout, so a server
    /// that keeps going silent ends the run in minutes, not many of them.
    pub stall_retries: u32,
}

/// The default [`RetryPolicy::total_limit`]: five minutes.
pub const DEFAULT_TOTAL_LIMIT: Duration = Duration::from_secs(300);

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            max_retries: 4,
            base_delay: Duration::from_secs(1),
            max_delay: Duration::from_secs(30),
            max_retry_after: Duration::from_secs(60),
            total_limit: DEFAULT_TOTAL_LIMIT,
            stall_retries: 1,
        }
    }
}

impl RetryPolicy {
    /// The wait before retry number `attempt` (1 for the first retry) after
    /// `err`; `None` when `err` is not worth retrying or the retries are used up.
    pub fn delay_for(&self, attempt: u32, err: &LlmError) -> Option<Duration> {
        self.delay_with_jitter(attempt, err, jitter())
    }

    /// [`Self::delay_for`] for a request whose first attempt began
    /// `elapsed` ago: `None` as well when the wait would end past
    /// [`Self::total_limit`].
    pub fn delay_within(
        &self,
        attempt: u32,
        err: &LlmError,
        elapsed: Duration,
    ) -> Option<Duration> {
        self.delay_for(attempt, err)
            .filter(|delay| elapsed.saturating_add(*delay) < self.total_limit)
    }

    /// [`Self::delay_for`] with the jitter fraction (0.0..=1.0) supplied, so
    /// callers and tests can be deterministic.
    pub fn delay_with_jitter(
        &self,
        attempt: u32,
        err: &LlmError,
        fraction: f64,
    ) -> Option<Duration> {
        if attempt == 0
            || attempt > self.max_retries
            || !err.is_retryable()
            || is_hopeless_connection(err)
        {
            return None;
        }
        if let Some(after) = err.retry_after() {
            return Some(after.min(self.max_retry_after));
        }
        // Full jitter (uniform in [0, ceiling]) spreads out clients that
        // failed together; the floor keeps a retry from being instantaneous.
        let ceiling = self
            .base_delay
            .saturating_mul(2u32.saturating_pow(attempt - 1))
            .min(self.max_delay);
        let floor = (self.base_delay / 10).min(ceiling);
        let fraction = fraction.clamp(0.0, 1.0);
        Some(floor + (ceiling - floor).mul_f64(fraction))
    }
}

/// A connection failure that a retry cannot fix: refused by this machine
/// (loopback or `localhost`: no server listens on that port, and none will
/// start within the backoff) or a host name that does not resolve. Read
/// from the transport's message, which names the URL and the cause.
pub fn is_hopeless_connection(err: &LlmError) -> bool {
    let LlmError::Connection { message, .. } = err else {
        return false;
    };
    let text = message.to_ascii_lowercase();
    if text.contains("dns error") || text.contains("failed to lookup address") {
        return true;
    }
    let refused = text.contains("connection refused")
        || text.contains("os error 111")
        || text.contains("os error 61")
        || text.contains("os error 10061");
    refused
        && ["://127.", "://localhost", "://[::1]", "://0.0.0.0"]
            .iter()
            .any(|local| text.contains(local))
}

/// A jitter fraction in [0, 1] from a process-wide xorshift generator seeded
/// by the clock: randomness quality does not matter here, only spread.
fn jitter() -> f64 {
    static STATE: AtomicU64 = AtomicU64::new(0);
    let step = |mut x: u64| {
        if x == 0 {
            x = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0x9E37_79B9_7F4A_7C15, |d| d.as_nanos() as u64)
                | 1;
        }
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let previous = STATE
        .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |x| Some(step(x)))
        .unwrap_or(0);
    let value = step(previous);
    (value >> 11) as f64 / (1u64 << 53) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn http(status: u16, retry_after: Option<Duration>) -> LlmError {
        LlmError::Http {
            provider: "anthropic",
            status,
            message: "x".into(),
            retry_after,
        }
    }

    #[test]
    fn retry_after_is_honoured_and_capped() {
        let p = RetryPolicy::default();
        let e = http(429, Some(Duration::from_secs(3)));
        assert_eq!(p.delay_for(1, &e), Some(Duration::from_secs(3)));
        let e = http(429, Some(Duration::from_secs(600)));
        assert_eq!(p.delay_for(2, &e), Some(Duration::from_secs(60)));
    }

    #[test]
    fn backoff_doubles_up_to_the_cap() {
        let p = RetryPolicy {
            max_retries: 10,
            ..RetryPolicy::default()
        };
        let e = http(529, None);
        let full = |n| p.delay_with_jitter(n, &e, 1.0);
        assert_eq!(full(1), Some(Duration::from_secs(1)));
        assert_eq!(full(2), Some(Duration::from_secs(2)));
        assert_eq!(full(3), Some(Duration::from_secs(4)));
        assert_eq!(full(6), Some(Duration::from_secs(30)));
        assert_eq!(full(10), Some(Duration::from_secs(30)));
        assert_eq!(
            p.delay_with_jitter(3, &e, 0.0),
            Some(Duration::from_millis(100))
        );
    }

    #[test]
    fn jittered_delays_stay_in_range() {
        let p = RetryPolicy::default();
        let e = LlmError::Truncated {
            provider: "openai-chat",
        };
        for _ in 0..1000 {
            let d = p.delay_for(3, &e).unwrap();
            assert!(d >= Duration::from_millis(100) && d <= Duration::from_secs(4));
        }
        let j = jitter();
        assert!((0.0..=1.0).contains(&j));
    }

    fn connection(message: &str) -> LlmError {
        LlmError::Connection {
            provider: "openai-chat",
            message: message.into(),
        }
    }

    #[test]
    fn refused_local_and_dns_failures_are_not_retried() {
        let p = RetryPolicy::default();
        let refused = "error sending request for url (http://127.0.0.1:9/v1/chat/completions): \
                       client error (Connect): tcp connect error: Connection refused (os error 111)";
        assert_eq!(p.delay_for(1, &connection(refused)), None);
        let localhost = "error sending request for url (http://localhost:11434/v1/chat/completions): \
                         tcp connect error: Connection refused (os error 111)";
        assert_eq!(p.delay_for(1, &connection(localhost)), None);
        let dns = "error sending request for url (http://nowhere.invalid/v1/x): client error \
                   (Connect): dns error: failed to lookup address information";
        assert_eq!(p.delay_for(1, &connection(dns)), None);
        // A remote host refusing may be restarting; a reset may pass.
        let remote = "error sending request for url (https://api.example.com/v1/x): \
                      tcp connect error: Connection refused (os error 111)";
        assert!(p.delay_for(1, &connection(remote)).is_some());
        assert!(
            p.delay_for(1, &connection("connection reset by peer"))
                .is_some()
        );
    }

    #[test]
    fn no_retry_starts_past_the_total_limit() {
        let p = RetryPolicy {
            total_limit: Duration::from_secs(300),
            ..RetryPolicy::default()
        };
        let e = http(429, Some(Duration::from_secs(10)));
        assert_eq!(
            p.delay_within(1, &e, Duration::from_secs(100)),
            Some(Duration::from_secs(10))
        );
        assert_eq!(p.delay_within(1, &e, Duration::from_secs(295)), None);
        assert_eq!(p.delay_within(2, &e, Duration::from_secs(400)), None);
    }

    #[test]
    fn exhausted_and_non_retryable_give_none() {
        let p = RetryPolicy::default();
        let e = http(500, None);
        assert!(p.delay_for(4, &e).is_some());
        assert_eq!(p.delay_for(5, &e), None);
        assert_eq!(p.delay_for(0, &e), None);
        assert_eq!(p.delay_for(1, &http(400, None)), None);
        assert_eq!(p.delay_for(1, &LlmError::Cancelled), None);
        let off = RetryPolicy {
            max_retries: 0,
            ..RetryPolicy::default()
        };
        assert_eq!(off.delay_for(1, &http(429, None)), None);
    }
}
