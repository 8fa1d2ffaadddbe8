//! A small TCP proxy between the browser and the server that can fail the way networks do:
//! cut every open connection at once, hold new stream requests back, close every stream
//! request as soon as it is seen, or be down altogether (every connection closed at once, as
//! when the server or the network is gone). It reads each HTTP/1.1 request head on its way to the server
//! (to tell stream requests apart and record their `Last-Event-ID`); answers pass unread.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::tcp::OwnedReadHalf;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

/// What the proxy does with a request for a game's push stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Streams {
    /// Forward it.
    Pass,
    /// Keep it waiting (the browser sees a request still under way) until the mode changes.
    Hold,
    /// Close its connection without an answer.
    Close,
}

/// One request seen on its way to the server.
#[derive(Debug, Clone)]
pub struct Seen {
    /// The request target (`/v1/games/…/stream`).
    pub target: String,
    /// Its `Last-Event-ID` header, if any.
    pub last_event_id: Option<String>,
}

impl Seen {
    pub fn is_stream(&self) -> bool {
        self.target
            .split('?')
            .next()
            .unwrap_or("")
            .ends_with("/stream")
    }
}

struct Shared {
    upstream: SocketAddr,
    /// Bumped to end every connection open at that moment.
    cuts: watch::Sender<u64>,
    streams: watch::Sender<Streams>,
    /// While set, every new connection is closed before a byte is read.
    down: watch::Sender<bool>,
    seen: Mutex<Vec<Seen>>,
}

/// The proxy, listening on a port of its own until dropped.
pub struct Proxy {
    pub base: String,
    shared: Arc<Shared>,
    accept: tokio::task::JoinHandle<()>,
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.accept.abort();
        self.cut();
    }
}

impl Proxy {
    /// A proxy in front of the server at `upstream` (`http://host:port`).
    pub async fn start(upstream: &str) -> Proxy {
        let upstream: SocketAddr = upstream
            .trim_start_matches("http://")
            .parse()
            .expect("the server's address");
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
        let base = format!("http://{}", listener.local_addr().unwrap());
        let shared = Arc::new(Shared {
            upstream,
            cuts: watch::channel(0).0,
            streams: watch::channel(Streams::Pass).0,
            down: watch::channel(false).0,
            seen: Mutex::new(Vec::new()),
        });
        let for_accept = shared.clone();
        let accept = tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                if *for_accept.down.borrow() {
                    drop(client);
                    continue;
                }
                let shared = for_accept.clone();
                let mut cut = shared.cuts.subscribe();
                tokio::spawn(async move {
                    // Dropping both sockets (at a cut, or when either side ends) closes them.
                    tokio::select! {
                        _ = cut.changed() => {}
                        _ = relay(client, &shared) => {}
                    }
                });
            }
        });
        Proxy {
            base,
            shared,
            accept,
        }
    }

    /// Ends every connection open now; the browser must open new ones.
    pub fn cut(&self) {
        self.shared.cuts.send_modify(|n| *n += 1);
    }

    pub fn set_streams(&self, mode: Streams) {
        self.shared.streams.send_replace(mode);
    }

    /// Takes everything down (every open connection cut, every new one closed at once) or
    /// brings it back.
    pub fn set_down(&self, down: bool) {
        self.shared.down.send_replace(down);
        if down {
            self.cut();
        }
    }

    /// The requests seen so far, in order.
    pub fn seen(&self) -> Vec<Seen> {
        self.shared.seen.lock().unwrap().clone()
    }

    /// The stream requests seen so far, in order.
    pub fn stream_requests(&self) -> Vec<Seen> {
        self.seen().into_iter().filter(Seen::is_stream).collect()
    }
}

/// Forwards one client connection: answers as they come, requests one head at a time.
async fn relay(client: TcpStream, shared: &Shared) -> std::io::Result<()> {
    let server = TcpStream::connect(shared.upstream).await?;
    let (mut from_client, mut to_client) = client.into_split();
    let (mut from_server, mut to_server) = server.into_split();
    let answers = tokio::io::copy(&mut from_server, &mut to_client);
    let requests = async {
        let mut buffer = Vec::new();
        loop {
            let Some((head, body_len)) = read_head(&mut from_client, &mut buffer).await? else {
                return Ok::<_, std::io::Error>(());
            };
            let seen = describe(&head);
            let stream = seen.is_stream();
            shared.seen.lock().unwrap().push(seen);
            if stream {
                let mut mode = shared.streams.subscribe();
                let mode = *mode
                    .wait_for(|m| *m != Streams::Hold)
                    .await
                    .map_err(std::io::Error::other)?;
                if mode == Streams::Close {
                    return Ok(());
                }
            }
            to_server.write_all(&head).await?;
            // The body (`Content-Length`; the page sends no chunked requests).
            let mut left = body_len;
            while left > 0 {
                if buffer.is_empty() && from_client.read_buf(&mut buffer).await? == 0 {
                    return Ok(());
                }
                let n = left.min(buffer.len());
                to_server.write_all(&buffer[..n]).await?;
                buffer.drain(..n);
                left -= n;
            }
        }
    };
    tokio::select! {
        r = answers => r.map(|_| ()),
        r = requests => r,
    }
}

/// Reads up to the end of the next request head; returns it and its body length, or `None`
/// when the client closed the connection between requests.
async fn read_head(
    from: &mut OwnedReadHalf,
    buffer: &mut Vec<u8>,
) -> std::io::Result<Option<(Vec<u8>, usize)>> {
    loop {
        if let Some(end) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
            let head: Vec<u8> = buffer.drain(..end + 4).collect();
            let text = String::from_utf8_lossy(&head);
            let body_len = header(&text, "content-length")
                .and_then(|v| v.parse().ok())
                .unwrap_or(0);
            return Ok(Some((head, body_len)));
        }
        if from.read_buf(buffer).await? == 0 {
            return Ok(None);
        }
    }
}

fn header<'a>(head: &'a str, name: &str) -> Option<&'a str> {
    head.lines().skip(1).find_map(|line| {
        let (key, value) = line.split_once(':')?;
        key.trim()
            .eq_ignore_ascii_case(name)
            .then_some(value.trim())
    })
}

fn describe(head: &[u8]) -> Seen {
    let text = String::from_utf8_lossy(head);
    let target = text
        .lines()
        .next()
        .and_then(|line| line.split(' ').nth(1))
        .unwrap_or("")
        .to_string();
    Seen {
        target,
        last_event_id: header(&text, "last-event-id").map(String::from),
    }
}
