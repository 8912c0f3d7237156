//! What a model request has cost before it completed ([`SpentSoFar`]), and
//! how that cost reaches the totals: reported when the request ends the
//! turn (cancelled), counted silently when the response is retried.

use std::time::Instant;

use wright_protocol::Usage;

use crate::context::{TurnContext, count_usage, report_usage};

/// What a response has cost before it completed: the usage the provider
/// reported early, and the output streamed so far. A cancelled request is
/// still paid for, so a cancelled run reports it (the output by chars/4
/// where the provider has not counted it yet).
#[derive(Debug, Default)]
pub(crate) struct SpentSoFar {
    /// The provider's early report (Anthropic's `message_start`).
    pub(crate) reported: Usage,
    streamed_chars: u64,
}

impl SpentSoFar {
    /// Counts streamed text or reasoning.
    pub(crate) fn streamed(&mut self, delta: &str) {
        let chars = u64::try_from(delta.chars().count()).unwrap_or(u64::MAX);
        self.streamed_chars = self.streamed_chars.saturating_add(chars);
    }

    /// Reports the cut-off request's usage, if it spent anything known.
    pub(crate) fn report(&self, ctx: &TurnContext, model: &str, started: Instant) {
        if let Some(usage) = self.known() {
            report_usage(ctx, model, usage, started);
        }
    }

    /// Counts a broken attempt's usage into the totals without announcing a
    /// complete response: the retry's `Usage` event carries the sum.
    pub(crate) fn count(&self, ctx: &TurnContext, model: &str) {
        if let Some(usage) = self.known() {
            count_usage(ctx, model, usage);
        }
    }

    fn known(&self) -> Option<Usage> {
        let mut usage = self.reported;
        usage.output_tokens = usage.output_tokens.max(self.streamed_chars.div_ceil(4));
        (usage.total_input() > 0 || usage.output_tokens > 0).then_some(usage)
    }
}
