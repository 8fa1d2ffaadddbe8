//! An event stream read message by message, as the push-stream and player-stream tests read
//! it (`GET /v1/games/{id}/stream`, `GET /v1/players/me/stream`).

use std::time::Duration;

use reqwest::{Method, Response, StatusCode};
use serde_json::Value;

use crate::helpers::TestApp;

/// One parsed SSE message.
#[derive(Debug)]
pub struct Message {
    pub event: String,
    pub id: i64,
    pub data: Value,
}

/// Reads an event stream message by message.
pub struct Reader {
    res: Response,
    buffer: String,
}

impl Reader {
    pub async fn open(app: &TestApp, path: &str, token: Option<&str>, last: Option<i64>) -> Reader {
        let mut req = app.req(Method::GET, path, token);
        if let Some(last) = last {
            req = req.header("last-event-id", last.to_string());
        }
        let res = req.send().await.unwrap();
        assert_eq!(res.status(), StatusCode::OK);
        assert_eq!(res.headers()["content-type"], "text/event-stream");
        Reader {
            res,
            buffer: String::new(),
        }
    }

    /// The next message (heartbeat comments skipped). A guard, not a timing assertion: a
    /// stream that stays silent for a minute is broken.
    pub async fn next(&mut self) -> Message {
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let block: String = self.buffer.drain(..end + 2).collect();
                let mut message = Message {
                    event: String::new(),
                    id: -1,
                    data: Value::Null,
                };
                for line in block.lines() {
                    if let Some(v) = line.strip_prefix("event: ") {
                        message.event = v.to_string();
                    } else if let Some(v) = line.strip_prefix("id: ") {
                        message.id = v.parse().unwrap();
                    } else if let Some(v) = line.strip_prefix("data: ") {
                        message.data = serde_json::from_str(v).unwrap();
                    }
                }
                if !message.event.is_empty() {
                    return message;
                }
                continue;
            }
            let chunk = tokio::time::timeout(Duration::from_secs(60), self.res.chunk())
                .await
                .expect("the stream stays silent")
                .unwrap()
                .expect("the stream ended");
            self.buffer.push_str(std::str::from_utf8(&chunk).unwrap());
        }
    }

    /// Messages up to and including the next `version` message.
    pub async fn batch(&mut self) -> Vec<Message> {
        let mut out = Vec::new();
        loop {
            let m = self.next().await;
            let done = m.event == "version";
            out.push(m);
            if done {
                return out;
            }
        }
    }
}
