//! An event stream (`text/event-stream`: `GET /v1/games/{id}/stream`,
//! `GET /v1/players/me/stream`) read message by message, as the stream tests read it.

use serde_json::Value;

use crate::PATIENCE;

/// One parsed message.
#[derive(Debug, Clone, PartialEq)]
pub struct Message {
    /// Its `event:` line.
    pub event: String,
    /// Its `id:` line; -1 when it has none.
    pub id: i64,
    /// Its `data:` line as JSON; null when it has none.
    pub data: Value,
}

/// Reads an event stream's response message by message.
pub struct Reader {
    res: reqwest::Response,
    buffer: String,
}

impl Reader {
    /// Reads `res`, a stream the caller has opened (and checked the status of).
    pub fn new(res: reqwest::Response) -> Reader {
        Reader {
            res,
            buffer: String::new(),
        }
    }

    /// The next message (heartbeat comments skipped).
    ///
    /// # Panics
    /// When the stream ends, fails, or stays silent for [`PATIENCE`]: a guard against a hang,
    /// not a timing assertion.
    pub async fn next(&mut self) -> Message {
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let block: String = self.buffer.drain(..end + 2).collect();
                if let Some(message) = parse(&block) {
                    return message;
                }
                continue;
            }
            let chunk = tokio::time::timeout(PATIENCE, self.res.chunk())
                .await
                .expect("the stream stays silent")
                .expect("the stream fails")
                .expect("the stream ended");
            self.buffer
                .push_str(std::str::from_utf8(&chunk).expect("a stream is UTF-8"));
        }
    }

    /// Reads until the server ends the stream, skipping what comes before the end.
    ///
    /// # Panics
    /// When the stream fails, or stays open for [`PATIENCE`]: a guard against a hang, not a
    /// timing assertion.
    pub async fn ended(&mut self) {
        let end = async {
            while let Some(_skipped) = self.res.chunk().await.expect("the stream fails") {}
        };
        tokio::time::timeout(PATIENCE, end)
            .await
            .expect("the stream stays open");
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

/// The message of one block (its lines up to a blank line); `None` for a block without an
/// event, such as a heartbeat comment.
fn parse(block: &str) -> Option<Message> {
    let mut message = Message {
        event: String::new(),
        id: -1,
        data: Value::Null,
    };
    for line in block.lines() {
        if let Some(v) = line.strip_prefix("event: ") {
            message.event = v.to_string();
        } else if let Some(v) = line.strip_prefix("id: ") {
            message.id = v.parse().expect("a numeric id");
        } else if let Some(v) = line.strip_prefix("data: ") {
            message.data = serde_json::from_str(v).expect("JSON data");
        }
    }
    (!message.event.is_empty()).then_some(message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_reads_as_its_event_id_and_data() {
        let block = "event: turn\nid: 7\ndata: {\"version\":3}\n\n";
        assert_eq!(
            parse(block),
            Some(Message {
                event: "turn".into(),
                id: 7,
                data: serde_json::json!({ "version": 3 }),
            })
        );
    }

    #[test]
    fn a_heartbeat_is_no_message() {
        assert_eq!(parse(": heartbeat\n\n"), None);
    }
}
