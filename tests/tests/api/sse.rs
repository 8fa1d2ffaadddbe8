//! Opening an event stream for the push-stream and player-stream tests
//! (`GET /v1/games/{id}/stream`, `GET /v1/players/me/stream`); reading it message by message is
//! `testkit::sse`, shared with the api crate's process tests.

use reqwest::{Method, StatusCode};

pub use testkit::sse::{Message, Reader};

use crate::helpers::TestApp;

/// Opens `path` with `token`, resuming after `last` when given (`Last-Event-ID`), and checks
/// that it answers as an event stream.
pub async fn open(app: &TestApp, path: &str, token: Option<&str>, last: Option<i64>) -> Reader {
    let mut req = app.req(Method::GET, path, token);
    if let Some(last) = last {
        req = req.header("last-event-id", last.to_string());
    }
    let res = req.send().await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["content-type"], "text/event-stream");
    Reader::new(res)
}
