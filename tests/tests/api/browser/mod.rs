//! The web client in a real browser: headless Chromium driven through Debian's `chromedriver`
//! (WebDriver, via fantoccini), against the real application from [`spawn_app`].
//!
//! Each browser is its own Chromium with a fresh profile, so two of them are two people on two
//! machines (their own localStorage). Screenshots go to `target/browser-screenshots/`.
//! `.ci/run` installs `chromium` and `chromium-driver` when they are missing; without them
//! these tests fail and say so.
//!
//! Waiting for the page uses a bounded number of short polls (a deadline that turns a hang
//! into a failure with a message), never an assertion on elapsed time.
//!
//! [`spawn_app`]: crate::helpers::spawn_app

mod acquire;
mod pages;
mod tycoon;

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};

use crate::helpers::TestApp;

/// At most this many browser tests at once: each runs two or three Chromiums on a machine of
/// two cores.
static ONE_AT_A_TIME: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(1);

/// One poll of the page every this long while waiting for it.
const POLL: Duration = Duration::from_millis(40);
/// Polls before a wait fails (about 45 s: far beyond any normal step, even on a loaded machine).
const MAX_POLLS: usize = 1100;

/// A `chromedriver` process on a free port, killed on drop.
pub struct Chromedriver {
    child: Child,
    url: String,
}

impl Chromedriver {
    pub async fn start() -> Chromedriver {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let child = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| {
                panic!(
                    "chromedriver does not start ({e}): install Debian's `chromium` and \
                     `chromium-driver` (.ci/run does this when they are missing)"
                )
            });
        // From here on, dropping the driver (also in a panic) stops the process.
        let driver = Chromedriver {
            child,
            url: format!("http://127.0.0.1:{port}"),
        };
        let http = reqwest::Client::new();
        for _ in 0..MAX_POLLS {
            let ready = http.get(format!("{}/status", driver.url)).send().await;
            if let Ok(res) = ready {
                let status: Value = res.json().await.unwrap_or_default();
                if status["value"]["ready"] == true {
                    return driver;
                }
            }
            tokio::time::sleep(POLL).await;
        }
        panic!("chromedriver did not become ready");
    }
}

impl Drop for Chromedriver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One Chromium with a profile of its own, looking at the application.
pub struct Browser {
    pub client: Client,
    base: String,
    name: String,
    _profile: tempfile::TempDir,
}

/// Where screenshots are saved.
pub fn screenshot_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../target")));
    target.join("browser-screenshots")
}

impl Browser {
    /// A new browser of `width` × `height` CSS pixels.
    pub async fn open(
        driver: &Chromedriver,
        app: &TestApp,
        name: &str,
        size: (u32, u32),
    ) -> Browser {
        let profile = tempfile::tempdir().expect("a profile directory");
        let args = [
            "--headless".to_string(),
            "--no-sandbox".into(),
            "--disable-gpu".into(),
            "--disable-quic".into(),
            "--no-first-run".into(),
            "--disable-background-networking".into(),
            "--disable-component-update".into(),
            "--disable-sync".into(),
            "--disable-dev-shm-usage".into(),
            format!("--window-size={},{}", size.0, size.1),
            format!("--user-data-dir={}", profile.path().display()),
        ];
        let mut caps = serde_json::Map::new();
        caps.insert("browserName".into(), json!("chrome"));
        caps.insert(
            "goog:chromeOptions".into(),
            json!({ "binary": chromium_binary(), "args": args }),
        );
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        let client = ClientBuilder::new(connector)
            .capabilities(caps)
            .connect(&driver.url)
            .await
            .unwrap_or_else(|e| panic!("a Chromium session through chromedriver: {e}"));
        Browser {
            client,
            base: app.base.clone(),
            name: name.to_string(),
            _profile: profile,
        }
    }

    pub async fn goto(&self, path: &str) {
        let url = if path.starts_with("http") {
            path.to_string()
        } else {
            format!("{}{path}", self.base)
        };
        self.client.goto(&url).await.expect("navigate");
    }

    /// Runs `script` (a function body; `arguments[i]` are `args`) in the page.
    pub async fn js(&self, script: &str, args: Vec<Value>) -> Value {
        self.client
            .execute(script, args)
            .await
            .unwrap_or_else(|e| panic!("{}: script failed: {e}\n{script}", self.name))
    }

    /// Polls `script` until it returns `true`.
    pub async fn wait_until(&self, what: &str, script: &str, args: Vec<Value>) {
        for _ in 0..MAX_POLLS {
            if self.js(script, args.clone()).await == Value::Bool(true) {
                return;
            }
            tokio::time::sleep(POLL).await;
        }
        self.screenshot("timeout").await;
        panic!("{}: gave up waiting until {what}", self.name);
    }

    /// Waits for the page's first render (`body[data-ready]`).
    pub async fn wait_ready(&self) {
        self.wait_until(
            "the page is rendered",
            "return document.body.dataset.ready === 'true';",
            vec![],
        )
        .await;
    }

    /// A real click (WebDriver scrolls the element into view and clicks its centre).
    pub async fn click(&self, css: &str) {
        let el = self
            .client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("{}: no {css}: {e}", self.name));
        el.click()
            .await
            .unwrap_or_else(|e| panic!("{}: clicking {css}: {e}", self.name));
    }

    /// Types `text` into the input `css`, replacing what is there.
    pub async fn fill(&self, css: &str, text: &str) {
        let el = self.client.find(Locator::Css(css)).await.expect(css);
        el.clear().await.expect("clear");
        el.send_keys(text).await.expect("type");
    }

    pub async fn select(&self, css: &str, value: &str) {
        let el = self.client.find(Locator::Css(css)).await.expect(css);
        el.select_by_value(value).await.expect("select");
    }

    /// The whole DOM as HTML, form values included.
    pub async fn dom(&self) -> String {
        let html = self
            .js(
                "return document.documentElement.outerHTML + '\\n' + \
                 [...document.querySelectorAll('input, select, textarea')].map((e) => e.value).join('\\n');",
                vec![],
            )
            .await;
        html.as_str().unwrap_or_default().to_string()
    }

    /// Saves a screenshot of the top of the page as
    /// `target/browser-screenshots/<browser>-<name>.png`.
    pub async fn screenshot(&self, name: &str) {
        let _ = self.client.execute("window.scrollTo(0, 0);", vec![]).await;
        let dir = screenshot_dir();
        std::fs::create_dir_all(&dir).expect("screenshot directory");
        if let Ok(png) = self.client.screenshot().await {
            let _ = std::fs::write(dir.join(format!("{}-{name}.png", self.name)), png);
        }
    }

    pub async fn close(self) {
        let _ = self.client.close().await;
    }
}

/// Debian's Chromium binary (chromedriver looks for Google Chrome's path otherwise).
fn chromium_binary() -> String {
    ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .into_iter()
        .find(|p| std::path::Path::new(p).exists())
        .unwrap_or("/usr/bin/chromium")
        .to_string()
}

/// What a game page shows now.
#[derive(Debug)]
pub struct PageState {
    pub your_turn: bool,
    /// The listed actions, as the page's controls carry them (JSON text).
    pub actions: Vec<String>,
}

impl Browser {
    pub async fn game_state(&self) -> PageState {
        let got = self
            .js(
                "const d = document.body.dataset;
                 return { yourTurn: d.yourTurn === 'true' && !d.busy,
                          actions: [...document.querySelectorAll('#action-list [data-action]')]
                                     .map((e) => e.dataset.action) };",
                vec![],
            )
            .await;
        PageState {
            your_turn: got["yourTurn"] == true,
            actions: got["actions"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|s| s.as_str().map(String::from))
                        .collect()
                })
                .unwrap_or_default(),
        }
    }

    /// Waits until the page shows `version`; returns what it shows then.
    pub async fn wait_for_version(&self, version: i64) -> PageState {
        self.wait_until(
            &format!("the page shows version {version}"),
            "return Number(document.body.dataset.version) >= arguments[0] && !document.body.dataset.busy;",
            vec![json!(version)],
        )
        .await;
        self.game_state().await
    }

    /// Activates the element `css`: a click, or with `keyboard` focus and the Enter key.
    pub async fn activate(&self, css: &str, keyboard: bool) {
        if !keyboard {
            return self.click(css).await;
        }
        let el = self.client.find(Locator::Css(css)).await.expect(css);
        let focused = self
            .js(
                "const e = document.querySelector(arguments[0]); e.focus(); return document.activeElement === e;",
                vec![json!(css)],
            )
            .await;
        assert_eq!(focused, true, "{}: {css} cannot take the focus", self.name);
        el.send_keys(&fantoccini::key::Key::Enter.to_string())
            .await
            .unwrap_or_else(|e| panic!("{}: Enter on {css}: {e}", self.name));
    }

    /// Performs `action` (JSON text as the page lists it): on the board element that offers
    /// it when there is one (a city, a tile, a ticket, a share), else with its button in the
    /// action list (or its entry in a select and "Do it"); answers a chooser if one opens.
    /// With `keyboard` every control is focused and activated with Enter instead of a click.
    pub async fn perform(&self, action: &str, keyboard: bool) {
        let marked = self
            .js(
                "document.querySelectorAll('[data-test-target]').forEach((e) => e.removeAttribute('data-test-target'));
                 const key = arguments[0];
                 const onBoard = [...document.querySelectorAll('#board [data-actions]')]
                   .find((e) => JSON.parse(e.dataset.actions).some((a) => JSON.stringify(a) === key));
                 if (onBoard) { onBoard.setAttribute('data-test-target', 'board'); return 'board'; }
                 const listed = [...document.querySelectorAll('#action-list [data-action]')]
                   .find((e) => e.dataset.action === key);
                 if (!listed) return 'missing';
                 if (listed.tagName === 'OPTION') {
                   listed.closest('.action-group').setAttribute('data-test-target', 'select');
                   return 'select:' + listed.value;
                 }
                 listed.setAttribute('data-test-target', 'button');
                 return 'button';",
                vec![json!(action)],
            )
            .await;
        let how = marked.as_str().unwrap_or("missing").to_string();
        match how.as_str() {
            "board" | "button" => self.activate("[data-test-target]", keyboard).await,
            "missing" => panic!("{}: no control for {action}", self.name),
            select => {
                let value = select.trim_start_matches("select:");
                self.select("[data-test-target] select", value).await;
                self.activate("[data-test-target] button.action", keyboard)
                    .await;
            }
        }
        let chooser = self
            .js(
                "return !!document.querySelector('dialog.chooser[open]');",
                vec![],
            )
            .await;
        if chooser == true {
            let marked = self
                .js(
                    "const b = [...document.querySelectorAll('dialog.chooser[open] [data-action]')]
                       .find((e) => e.dataset.action === arguments[0]);
                     if (b) b.setAttribute('data-test-target', 'choice');
                     return !!b;",
                    vec![json!(action)],
                )
                .await;
            assert_eq!(
                marked, true,
                "{}: the chooser does not offer {action}",
                self.name
            );
            self.activate("dialog.chooser [data-test-target=choice]", keyboard)
                .await;
        }
    }

    /// The final scores the page shows, by seat.
    pub async fn shown_scores(&self) -> Vec<i64> {
        self.wait_until(
            "the final scores are shown",
            "return !document.getElementById('outcome').hidden;",
            vec![],
        )
        .await;
        let scores = self
            .js(
                "return [...document.querySelectorAll('#scores tr[data-seat]')]
                   .map((r) => [Number(r.dataset.seat), Number(r.dataset.score), r.textContent]);",
                vec![],
            )
            .await;
        let mut rows: Vec<(i64, i64)> = scores
            .as_array()
            .unwrap()
            .iter()
            .map(|r| (r[0].as_i64().unwrap(), r[1].as_i64().unwrap()))
            .collect();
        rows.sort();
        rows.into_iter().map(|(_, score)| score).collect()
    }
}

/// The game's spectator document, from the API.
pub async fn api_document(app: &TestApp, game_id: &str) -> Value {
    let (status, doc) = app.get_json(&format!("/v1/games/{game_id}"), None).await;
    assert_eq!(status, reqwest::StatusCode::OK, "{doc}");
    doc
}

/// The id of the game a page shows (`/games/{id}`).
pub async fn game_id_of(browser: &Browser) -> String {
    let url = browser.client.current_url().await.expect("url");
    url.path()
        .strip_prefix("/games/")
        .expect("a game page")
        .to_string()
}

/// A game played by clicking, one browser per seat.
pub struct Table<'a> {
    app: &'a TestApp,
    pub game_id: String,
    /// Per seat: its browser and the seat token that browser holds.
    seats: Vec<(&'a Browser, String)>,
    /// Moves made so far, and turns ended.
    pub moves: usize,
    pub turns: usize,
    /// Every this many moves, the move is made with the keyboard instead of clicks (0: never).
    pub keyboard_every: usize,
}

impl<'a> Table<'a> {
    /// `browsers[seat]` plays `seat`, with the token it keeps in its local storage.
    pub async fn new(app: &'a TestApp, game_id: &str, browsers: &[&'a Browser]) -> Table<'a> {
        let mut seats = Vec::new();
        for (seat, browser) in browsers.iter().enumerate() {
            let token = browser
                .js(
                    "const all = JSON.parse(localStorage.getItem('boardgames.seats.v1') ?? '{}');
                     return (all[arguments[0]] ?? []).find((s) => s.seat === arguments[1])?.token ?? null;",
                    vec![json!(game_id), json!(seat)],
                )
                .await;
            let token = token
                .as_str()
                .unwrap_or_else(|| panic!("browser {seat} holds no token for seat {seat}"))
                .to_string();
            seats.push((*browser, token));
        }
        Table {
            app,
            game_id: game_id.to_string(),
            seats,
            moves: 0,
            turns: 0,
            keyboard_every: 0,
        }
    }

    /// The seat tokens the browsers hold, by seat.
    pub fn tokens(&self) -> Vec<String> {
        self.seats.iter().map(|(_, t)| t.clone()).collect()
    }

    /// Makes one move in the browser of the seat the game waits for: `choose` gives the index
    /// of an action the page offers (which must be exactly the seat's legal actions), given
    /// them and the number of turns ended so far. `false` once the game is over.
    pub async fn step(&mut self, choose: impl Fn(&[Value], usize) -> usize) -> bool {
        let doc = api_document(self.app, &self.game_id).await;
        if doc["status"] == "finished" {
            return false;
        }
        assert!(self.moves < 1500, "the game did not end within 1500 moves");
        let version = doc["version"].as_i64().unwrap();
        let seat = doc["active_seats"][0].as_u64().expect("a seat to act") as usize;
        let (browser, token) = &self.seats[seat];
        let page = browser.wait_for_version(version).await;
        assert!(
            page.your_turn,
            "seat {seat} is to act at version {version}, but its page does not say so"
        );
        let (status, legal) = self
            .app
            .get_json(
                &format!("/v1/games/{}/legal-actions", self.game_id),
                Some(token),
            )
            .await;
        assert_eq!(status, reqwest::StatusCode::OK, "{legal}");
        let offered: Vec<Value> = page
            .actions
            .iter()
            .map(|a| serde_json::from_str(a).unwrap())
            .collect();
        let mut expected = legal["actions"].as_array().unwrap().clone();
        let (mut got, mut want): (Vec<String>, Vec<String>) = (
            offered.iter().map(Value::to_string).collect(),
            expected.drain(..).map(|v| v.to_string()).collect(),
        );
        got.sort();
        want.sort();
        assert_eq!(
            got, want,
            "the page offers other actions than the API lists"
        );
        let chosen = choose(&offered, self.turns);
        if offered[chosen]["type"] == "end_turn" {
            self.turns += 1;
        }
        let keyboard = self.keyboard_every > 0 && self.moves % self.keyboard_every == 1;
        browser.perform(&page.actions[chosen], keyboard).await;
        wait_for_api_version(self.app, &self.game_id, version).await;
        self.moves += 1;
        true
    }
}

/// Waits until the game's version passes `version` (the click was taken).
pub async fn wait_for_api_version(app: &TestApp, game_id: &str, version: i64) {
    for _ in 0..MAX_POLLS {
        if api_document(app, game_id).await["version"]
            .as_i64()
            .unwrap()
            > version
        {
            return;
        }
        tokio::time::sleep(POLL).await;
    }
    panic!("the game stayed at version {version} after a click");
}
