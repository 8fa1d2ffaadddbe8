//! The game page as a player uses it: what it offers, performing an action by clicking (or
//! by keyboard), the final scores, and a [`Table`] that plays a whole game seat by seat.

use fantoccini::Locator;
use serde_json::{json, Value};

use super::Browser;
use crate::helpers::TestApp;

/// What a game page shows now.
#[derive(Debug)]
pub struct PageState {
    pub your_turn: bool,
    /// The actions the page's controls offer (JSON text): a button or an option each, or one
    /// control standing for several (a tile that founds any of several chains, a form for a
    /// merger's shares).
    pub actions: Vec<String>,
}

impl Browser {
    pub async fn game_state(&self) -> PageState {
        let got = self
            .js(
                "const d = document.body.dataset;
                 const one = [...document.querySelectorAll('#action-list [data-action]')].map((e) => e.dataset.action);
                 const grouped = [...document.querySelectorAll('#action-list [data-actions]')]
                   .flatMap((e) => JSON.parse(e.dataset.actions).map((a) => JSON.stringify(a)));
                 return { yourTurn: d.yourTurn === 'true' && !d.busy && d.paused !== 'true',
                          actions: one.concat(grouped) };",
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
            "return Number(document.body.dataset.version) >= arguments[0] && !document.body.dataset.busy
                    && document.body.dataset.paused !== 'true';",
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
    /// it when there is one (a city, a tile, a ticket, a share), else with its control in the
    /// dock: its button (or its entry in a select and "Do it"), a button standing for several
    /// actions, or a form standing for several, whose inputs are named after the action's
    /// fields and are typed into; answers a chooser if one opens. With `keyboard` every
    /// control is focused and activated with Enter instead of a click.
    pub async fn perform(&self, action: &str, keyboard: bool) {
        // Pieces glide to where they moved; a click aims once they stand still.
        self.wait_until(
            "the pieces stand still",
            "return document.getAnimations().every((a) => a.playState !== 'running'
                     || !(a.effect && a.effect.target && a.effect.target.closest && a.effect.target.closest('[data-piece]')));",
            vec![],
        )
        .await;
        let marked = self
            .js(
                "document.querySelectorAll('[data-test-target]').forEach((e) => e.removeAttribute('data-test-target'));
                 const key = arguments[0];
                 const offers = (e) => JSON.parse(e.dataset.actions).some((a) => JSON.stringify(a) === key);
                 const onBoard = [...document.querySelectorAll('#board [data-actions], #board-panels [data-actions]')].find(offers);
                 if (onBoard) {
                   // Pan the board's frame so that the target is whole, as a player would.
                   onBoard.scrollIntoView({ block: 'center', inline: 'center' });
                   onBoard.setAttribute('data-test-target', 'board');
                   return 'board';
                 }
                 const listed = [...document.querySelectorAll('#action-list [data-action]')]
                   .find((e) => e.dataset.action === key);
                 if (listed && listed.tagName === 'OPTION') {
                   listed.closest('.action-group').setAttribute('data-test-target', 'select');
                   return 'select:' + listed.value;
                 }
                 if (listed) { listed.setAttribute('data-test-target', 'button'); return 'button'; }
                 const grouped = [...document.querySelectorAll('#action-list [data-actions]')].find(offers);
                 if (!grouped) return 'missing';
                 grouped.setAttribute('data-test-target', 'grouped');
                 return grouped.tagName === 'FORM' ? 'form' : 'button';",
                vec![json!(action)],
            )
            .await;
        let how = marked.as_str().unwrap_or("missing").to_string();
        match how.as_str() {
            "board" | "button" => self.activate("[data-test-target]", keyboard).await,
            "form" => {
                let fields: serde_json::Map<String, Value> =
                    serde_json::from_str(action).expect("an action object");
                for (field, value) in fields.iter().filter(|(k, _)| *k != "type") {
                    let input = format!("[data-test-target] input[name='{field}']");
                    self.fill(&input, &value.to_string()).await;
                }
                self.activate("[data-test-target] button[type=submit]", keyboard)
                    .await;
            }
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

/// A game played by clicking, one browser per seat, or a bot of the server's for a seat.
pub struct Table<'a> {
    app: &'a TestApp,
    pub game_id: String,
    /// Per seat: its browser and the seat token that browser holds; `None` for a bot's seat.
    seats: Vec<Option<(&'a Browser, String)>>,
    /// Moves made so far in the browsers (bot moves not counted), and turns ended.
    pub moves: usize,
    pub turns: usize,
    /// Every this many moves, the move is made with the keyboard instead of clicks (0: never).
    pub keyboard_every: usize,
}

impl<'a> Table<'a> {
    /// `browsers[seat]` plays `seat`, with the token it keeps in its local storage.
    pub async fn new(app: &'a TestApp, game_id: &str, browsers: &[&'a Browser]) -> Table<'a> {
        let seats: Vec<Option<&Browser>> = browsers.iter().map(|b| Some(*b)).collect();
        Table::with_bots(app, game_id, &seats).await
    }

    /// Like [`Table::new`]; a `None` seat is played by one of the server's bots.
    pub async fn with_bots(
        app: &'a TestApp,
        game_id: &str,
        browsers: &[Option<&'a Browser>],
    ) -> Table<'a> {
        let mut seats = Vec::new();
        for (seat, browser) in browsers.iter().enumerate() {
            let Some(browser) = browser else {
                seats.push(None);
                continue;
            };
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
            seats.push(Some((*browser, token)));
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

    /// The token the browser of `seat` holds; `None` for a bot's seat.
    pub fn token(&self, seat: usize) -> Option<&str> {
        self.seats[seat].as_ref().map(|(_, t)| t.as_str())
    }

    /// The seat tokens the browsers hold, by seat (a table without bots).
    pub fn tokens(&self) -> Vec<String> {
        self.seats
            .iter()
            .map(|s| s.as_ref().expect("a seat played in a browser").1.clone())
            .collect()
    }

    /// Makes one move in the browser of the seat the game waits for: `choose` gives the index
    /// of an action the page offers (which must be exactly the seat's legal actions), given
    /// them and the number of turns ended so far. While the game waits for a bot (bots move
    /// only when waited for), it waits for the bot's move instead, so that a page never
    /// races a bot. `false` once the game is over.
    pub async fn step(&mut self, choose: impl Fn(&[Value], usize) -> usize) -> bool {
        let doc = api_document(self.app, &self.game_id).await;
        if doc["status"] == "finished" {
            return false;
        }
        assert!(self.moves < 1500, "the game did not end within 1500 moves");
        let version = doc["version"].as_i64().unwrap();
        let active: Vec<usize> = doc["active_seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_u64().unwrap() as usize)
            .collect();
        if active.iter().any(|&s| self.seats[s].is_none()) {
            wait_for_api_version(self.app, &self.game_id, version).await;
            return true;
        }
        let seat = *active.first().expect("a seat to act");
        let (browser, token) = self.seats[seat].as_ref().unwrap();
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

/// Waits until the game's version passes `version` (the click was taken, the bot moved), by
/// the API's long poll: it answers as soon as the version passes, or 304 after a few seconds.
pub async fn wait_for_api_version(app: &TestApp, game_id: &str, version: i64) {
    for _ in 0..15 {
        let (status, doc) = app
            .get_json(
                &format!("/v1/games/{game_id}?wait=3&after_version={version}"),
                None,
            )
            .await;
        if status == reqwest::StatusCode::OK && doc["version"].as_i64().unwrap() > version {
            return;
        }
        assert_eq!(status, reqwest::StatusCode::NOT_MODIFIED, "{doc}");
    }
    panic!("the game stayed at version {version} (a click not taken, or a bot not moving)");
}

/// The game document as `token`'s seat sees it, from the API.
pub async fn seat_document(app: &TestApp, game_id: &str, token: &str) -> Value {
    let (status, doc) = app
        .get_json(&format!("/v1/games/{game_id}"), Some(token))
        .await;
    assert_eq!(status, reqwest::StatusCode::OK, "{doc}");
    doc
}

/// Values for a template's free fields that it must accept: an integer field at its minimum,
/// a counts field filled key by key up to its minimum total, a subset of its first allowed
/// values as few as it allows. `None` when a field has another kind of domain (a choice the
/// test does not make).
pub fn template_values(template: &Value) -> Option<serde_json::Map<String, Value>> {
    let mut values = serde_json::Map::new();
    for (field, domain) in template["params"].as_object()? {
        let value = match domain["kind"].as_str()? {
            "integer" => domain["min"].clone(),
            "counts" => {
                let mut left = domain["min_total"].as_u64()?;
                let mut counts = serde_json::Map::new();
                for (key, limit) in domain["limits"].as_object()? {
                    let n = left.min(limit.as_u64()?);
                    if n > 0 {
                        counts.insert(key.clone(), json!(n));
                    }
                    left -= n;
                }
                (left == 0).then_some(Value::Object(counts))?
            }
            "subset" => {
                let min = domain["min_items"].as_u64()? as usize;
                Value::Array(
                    domain["values"]
                        .as_array()?
                        .iter()
                        .take(min)
                        .cloned()
                        .collect(),
                )
            }
            _ => return None,
        };
        values.insert(field.clone(), value);
    }
    Some(values)
}

/// `orange_card` as the page labels it: `Orange card`.
fn humanize(name: &str) -> String {
    let words = name.replace('_', " ");
    let mut chars = words.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

impl Browser {
    /// Fills the page's form of the `n`-th template the seat is offered (`template`, as the
    /// API lists it) with `values` by typing into its fields, and submits it with its button;
    /// a form folded under its title is unfolded first. A composer stands for several
    /// templates (`data-template-indices`); its fields are named after its first.
    pub async fn submit_template(
        &self,
        n: usize,
        template: &Value,
        values: &serde_json::Map<String, Value>,
    ) {
        let kind = template["type"].as_str().expect("a template type");
        // A form folded under its title (another move is on offer too) is unfolded first.
        let folded = self
            .js(
                "document.querySelectorAll('[data-test-target]').forEach((e) => e.removeAttribute('data-test-target'));
                 const form = document.querySelector(`form.template[data-template-indices~='${arguments[0]}']`);
                 const box = form && form.closest('details');
                 const first = form ? Number(form.dataset.templateIndex) : arguments[0];
                 if (!box || box.open) return [false, first];
                 box.querySelector('summary').setAttribute('data-test-target', 'unfold');
                 return [true, first];",
                vec![json!(n)],
            )
            .await;
        if folded[0] == true {
            self.click("[data-test-target=unfold]").await;
        }
        let first = folded[1].as_u64().expect("the form's first template");
        for (field, value) in values {
            let id = format!("#tpl-{kind}-{first}-{field}");
            match template["params"][field]["kind"].as_str() {
                Some("integer") => self.fill(&id, &value.to_string()).await,
                Some("counts") => {
                    // Every key's input is set: zero where `values` has none.
                    for key in template["params"][field]["limits"]
                        .as_object()
                        .unwrap()
                        .keys()
                    {
                        let count = value.get(key).cloned().unwrap_or(json!(0));
                        let input = format!("{id} input[aria-label='{}']", humanize(key));
                        self.fill(&input, &count.to_string()).await;
                    }
                }
                Some("subset") => {
                    // The boxes are in the domain's order; tick exactly the chosen ones.
                    let all = template["params"][field]["values"].as_array().unwrap();
                    let chosen: Vec<usize> = (0..all.len())
                        .filter(|&i| value.as_array().unwrap().contains(&all[i]))
                        .collect();
                    self.js(
                        "document.querySelectorAll(`${arguments[0]} input[type=checkbox]`)
                           .forEach((b) => { b.checked = arguments[1].includes(Number(b.value)); });",
                        vec![json!(id), json!(chosen)],
                    )
                    .await;
                }
                other => panic!("{}: no way to fill a {other:?} field", self.name),
            }
        }
        let marked = self
            .js(
                "document.querySelectorAll('[data-test-target]').forEach((e) => e.removeAttribute('data-test-target'));
                 const button = document.querySelector(`form.template[data-template-indices~='${arguments[0]}'] button[type=submit]`);
                 if (button) button.setAttribute('data-test-target', 'submit');
                 return !!button;",
                vec![json!(n)],
            )
            .await;
        assert_eq!(
            marked, true,
            "{}: no form for the {kind} template",
            self.name
        );
        self.click("[data-test-target=submit]").await;
    }
}
