//! Pieces shared by the wire writers, which serialize requests straight
//! from the shared history (no copy of the conversation, no
//! `serde_json::Value` tree).

use serde::{Serialize, Serializer};

/// An image as a `data:` URL, written into the JSON string directly rather
/// than formatted into a copy of the (often large) base64 data first.
pub(crate) struct DataUrl<'a> {
    /// MIME type such as `image/png`.
    pub(crate) media_type: &'a str,
    /// Base64 data.
    pub(crate) data: &'a str,
}

impl Serialize for DataUrl<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&format_args!(
            "data:{};base64,{}",
            self.media_type, self.data
        ))
    }
}

/// An iterator serialized as a sequence, once.
pub(crate) struct Seq<I>(std::cell::Cell<Option<I>>);

impl<I> Seq<I> {
    /// Wraps `items`.
    pub(crate) fn new(items: I) -> Self {
        Self(std::cell::Cell::new(Some(items)))
    }
}

impl<I: Iterator<Item = T>, T: Serialize> Serialize for Seq<I> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0.take() {
            Some(items) => s.collect_seq(items),
            None => s.collect_seq(std::iter::empty::<T>()),
        }
    }
}
