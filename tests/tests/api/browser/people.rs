//! Playing with chosen people in the browser (issue 37): Ann, at a desk, challenges Bob, on a
//! phone, from his profile; Bob's page hears it from his stream, he declines with a reason
//! (Ann's page says why, live), then accepts her second challenge and both pages open the
//! game (Bob's settings turned to take challenges from nobody and back on the way). At the
//! table their chat reaches the other page, as text (a `<b>` stays two characters); a
//! signed-in watcher talks with the other watchers only; too many messages at once are refused
//! kindly; a muted sender's messages leave the page. Ann resigns; Bob asks for a rematch from
//! the end screen, Ann's page offers it, she accepts, and both pages open the new game; then
//! Bob challenges Ann from the leaderboard, on his phone, and withdraws it. axe-core and the
//! phone's width are checked on each new piece.

use reqwest::Method;
use serde_json::{json, Value};

use super::{api_document, Browser, Chromedriver, BROWSER_SLOTS};
use crate::helpers::{json_of, spawn_app, TestApp};

impl Browser {
    /// Signs this browser in as a player with the key's link (`/me#token=…`) and waits until
    /// its page follows the player's stream.
    async fn sign_in_with_link(&self, token: &str) {
        self.goto(&format!("/me#token={token}")).await;
        self.wait_ready().await;
        self.wait_until(
            "the player's stream is live",
            "return document.body.dataset.stream === 'live' && !!document.getElementById('challenge-list');",
            vec![],
        )
        .await;
    }

    /// Waits until the challenge list has a row `role` (`sent`, `received`) in `status`
    /// containing `words`; returns its challenge id.
    async fn wait_for_challenge(&self, role: &str, status: &str, words: &str) -> String {
        let script = "const li = [...document.querySelectorAll(`#challenge-list li[data-role='${arguments[0]}'][data-status='${arguments[1]}']`)]
                        .find((li) => li.textContent.includes(arguments[2]));
                      return li ? li.dataset.challenge : null;";
        self.wait_until(
            &format!("a {role} challenge {status}: {words}"),
            &format!("return (() => {{ {script} }})() !== null;"),
            vec![json!(role), json!(status), json!(words)],
        )
        .await;
        let id = self
            .js(script, vec![json!(role), json!(status), json!(words)])
            .await;
        id.as_str().unwrap().to_string()
    }

    /// Waits until this browser shows a game page other than `not` with its chat ready;
    /// returns the game's id.
    async fn wait_for_game_page(&self, not: &str) -> String {
        self.wait_until(
            "a game page opens with its chat",
            "return location.pathname.startsWith('/games/') && location.pathname !== `/games/${arguments[0]}`
                    && !!document.body.dataset.version && !!document.getElementById('chat-messages');",
            vec![json!(not)],
        )
        .await;
        super::game_page::game_id_of(self).await
    }

    /// Sends a chat message through the page's form and waits until the form is free again.
    async fn say(&self, text: &str) {
        self.fill("#chat-input", text).await;
        self.click("#chat-send").await;
        self.wait_until(
            "the message is sent or refused",
            "return !document.getElementById('chat-send').disabled
                    && (document.getElementById('chat-input').value === '' || !!document.querySelector('.chat-note.slow'));",
            vec![],
        )
        .await;
    }

    /// Saves a screenshot of the element `css` only, as `<browser>-<name>.png` beside the
    /// others ([`Browser::screenshot`] shows the top of the page, where the chat is not).
    async fn screenshot_of(&self, css: &str, name: &str) {
        let dir = super::driver::screenshot_dir();
        std::fs::create_dir_all(&dir).expect("screenshot directory");
        let el = self
            .client
            .find(fantoccini::Locator::Css(css))
            .await
            .expect(css);
        if let Ok(png) = el.screenshot().await {
            let _ = std::fs::write(dir.join(format!("{}-{name}.png", self.name)), png);
        }
    }

    /// The chat's lines as the page shows them: `[name, text]`.
    async fn chat_lines(&self) -> Value {
        self.js(
            "return [...document.querySelectorAll('#chat-messages li[data-seq]')].map((li) =>
               [li.querySelector('.chat-name').textContent, li.querySelector('.chat-text').textContent]);",
            vec![],
        )
        .await
    }
}

/// `POST` with a player's token; the answer must be a success.
async fn post(app: &TestApp, path: &str, token: &str, body: Value) -> Value {
    let (status, body) = json_of(
        app.req(Method::POST, path, Some(token))
            .json(&body)
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert!(status.is_success(), "{path}: {status} {body}");
    body
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_is_declined_then_accepted_the_table_chats_and_a_rematch_opens_the_next_game() {
    let _one = BROWSER_SLOTS.acquire().await.unwrap();
    let app = spawn_app().await;
    let ann_player = app.create_player("Ann").await;
    let bob_player = app.create_player("Bob").await;
    let driver = Chromedriver::start().await;
    let ann = Browser::open(&driver, &app, "ann", (1280, 900)).await;
    let bob = Browser::open(&driver, &app, "bob", (390, 844)).await;
    ann.sign_in_with_link(&ann_player.token).await;
    bob.sign_in_with_link(&bob_player.token).await;

    // Ann challenges Bob from his profile: Tycoon, two players, no clock.
    ann.goto(&format!("/players/{}", bob_player.id)).await;
    ann.wait_ready().await;
    ann.click("#challenge > summary").await;
    ann.select("#challenge-type", "tycoon").await;
    ann.select("#challenge-seats", "2").await;
    ann.select("#challenge-clock", "none").await;
    ann.assert_accessible("a profile with the challenge form")
        .await;
    ann.click("#challenge-send").await;
    let first = ann.wait_for_challenge("sent", "pending", "Bob").await;

    // Bob's page hears it from his stream; he declines, saying why; Ann's page says so.
    let received = bob.wait_for_challenge("received", "pending", "Ann").await;
    assert_eq!(received, first);
    bob.assert_fits_width("a challenge received, on a phone")
        .await;
    bob.assert_accessible("your games with a challenge received")
        .await;
    bob.screenshot("challenge-received").await;
    bob.click(&format!(
        "li[data-challenge='{first}'] details.decline > summary"
    ))
    .await;
    bob.select(&format!("#decline-reason-{first}"), "later")
        .await;
    bob.assert_fits_width("the decline form, on a phone").await;
    bob.click(&format!("li[data-challenge='{first}'] .decline-challenge"))
        .await;
    ann.wait_for_challenge("sent", "declined", "Not now, maybe later")
        .await;
    let (_, declined) = app
        .get_json(&format!("/v1/challenges/{first}"), Some(&ann_player.token))
        .await;
    assert_eq!(declined["status"], "declined", "{declined}");
    assert_eq!(declined["decline_reason"], "later", "{declined}");
    ann.assert_accessible("your games with a declined challenge")
        .await;

    // Whom Bob takes challenges from: nobody for a moment, then everyone again.
    bob.click("#challenge-settings > summary").await;
    bob.wait_until(
        "the settings are read",
        "return document.querySelector('#blocked-players li') !== null;",
        vec![],
    )
    .await;
    bob.assert_fits_width("the challenge settings, on a phone")
        .await;
    bob.assert_accessible_within(Some("#challenges"), "the challenge settings")
        .await;
    for (click, expected) in [("nobody", "nobody"), ("everyone", "everyone")] {
        bob.click("#challenges-from-everyone").await;
        let mut now = Value::Null;
        for _ in 0..super::MAX_POLLS {
            now = app
                .get_json("/v1/players/me/settings", Some(&bob_player.token))
                .await
                .1;
            if now["challenges_from"] == expected {
                break;
            }
            tokio::time::sleep(super::POLL).await;
        }
        assert_eq!(now["challenges_from"], expected, "{click}: {now}");
    }

    // A second challenge, accepted: both pages open the game by themselves.
    ann.goto(&format!("/players/{}", bob_player.id)).await;
    ann.wait_ready().await;
    ann.click("#challenge > summary").await;
    // Rated this time, so that both are on the leaderboard afterwards.
    ann.click("#challenge-rated").await;
    ann.click("#challenge-send").await;
    let second = ann.wait_for_challenge("sent", "pending", "Bob").await;
    assert_ne!(second, first);
    bob.wait_for_challenge("received", "pending", "Ann").await;
    bob.click(&format!("li[data-challenge='{second}'] .accept-challenge"))
        .await;
    let game = bob.wait_for_game_page("").await;
    assert_eq!(ann.wait_for_game_page("").await, game);
    let (_, accepted) = app
        .get_json(&format!("/v1/challenges/{second}"), Some(&ann_player.token))
        .await;
    assert_eq!(accepted["game_id"], json!(game), "{accepted}");
    let doc = api_document(&app, &game).await;
    assert_eq!(doc["seats"][0]["name"], "Ann", "{doc}");
    assert_eq!(doc["seats"][1]["name"], "Bob", "{doc}");

    // Table talk between the seats, shown as text on both pages.
    ann.wait_until(
        "Ann's chat is the players'",
        "return document.getElementById('chat-channel').textContent.includes('Between the players');",
        vec![],
    )
    .await;
    ann.say("Good luck, <b>Bob</b>!").await;
    let markup = json!(["Ann", "Good luck, <b>Bob</b>!"]);
    bob.wait_until(
        "Ann's message reaches Bob's page",
        "return [...document.querySelectorAll('#chat-messages .chat-text')].some((t) => t.textContent === arguments[0]);",
        vec![markup[1].clone()],
    )
    .await;
    let bold = bob
        .js(
            "return document.querySelectorAll('#chat-area b').length;",
            vec![],
        )
        .await;
    assert_eq!(bold, json!(0), "the message's <b> is text, not markup");
    bob.say("Thanks, you too").await;
    ann.wait_until(
        "Bob's answer reaches Ann's page",
        "return [...document.querySelectorAll('#chat-messages .chat-text')].some((t) => t.textContent === 'Thanks, you too');",
        vec![],
    )
    .await;
    assert_eq!(
        ann.chat_lines().await,
        json!([markup, ["Bob", "Thanks, you too"]])
    );
    bob.assert_fits_width("the game page with its chat, on a phone")
        .await;
    bob.assert_accessible_within(Some("#chat-area"), "the chat on a phone")
        .await;
    ann.assert_accessible_within(Some("#chat-area"), "the chat")
        .await;
    bob.screenshot_of("#chat-area", "chat").await;

    // A signed-in player without a seat talks among the watchers: another watcher's message
    // (sent through the API) reaches that page on the stream, and none of the players'.
    let cy_player = app.create_player("Cy").await;
    let di_player = app.create_player("Di").await;
    let cy = Browser::open(&driver, &app, "cy", (1024, 768)).await;
    cy.sign_in_with_link(&cy_player.token).await;
    cy.goto(&format!("/games/{game}")).await;
    cy.wait_until(
        "Cy's chat is the watchers'",
        "return !!document.body.dataset.version && document.getElementById('chat-channel').textContent.includes('Among the watchers')
                && document.querySelector('#chat-messages li.empty') !== null && document.body.dataset.updates === 'stream';",
        vec![],
    )
    .await;
    cy.say("Hello from the rail").await;
    let rail = post(
        &app,
        &format!("/v1/games/{game}/chat"),
        &di_player.token,
        json!({"text": "Hi Cy"}),
    )
    .await;
    assert_eq!(rail["channel"], "spectators", "{rail}");
    cy.wait_until(
        "Di's message reaches Cy's page",
        "return [...document.querySelectorAll('#chat-messages .chat-text')].some((t) => t.textContent === 'Hi Cy');",
        vec![],
    )
    .await;
    assert_eq!(
        cy.chat_lines().await,
        json!([["Cy", "Hello from the rail"], ["Di", "Hi Cy"]])
    );
    cy.close().await;

    // Too many messages at once: the page says to wait, and keeps the message.
    for i in 0..6 {
        ann.say(&format!("message {i}")).await;
        let slow = ann
            .js(
                "return !!document.querySelector('.chat-note.slow');",
                vec![],
            )
            .await;
        if slow == json!(true) {
            break;
        }
    }
    let note = ann
        .js(
            "return [document.querySelector('.chat-note.slow')?.textContent ?? '', document.getElementById('chat-input').value];",
            vec![],
        )
        .await;
    assert!(
        note[0].as_str().unwrap().contains("please wait"),
        "the rate limit is told kindly: {note}"
    );
    assert!(note[1].as_str().unwrap().starts_with("message "), "{note}");

    // Bob mutes Ann: her messages leave his page; he shows them again.
    bob.click(&format!(
        "#chat-messages li[data-player='{}'] .chat-mute",
        ann_player.id
    ))
    .await;
    bob.wait_until(
        "Ann's messages leave Bob's page",
        "return !document.querySelector(`#chat-messages li[data-player='${arguments[0]}']`) && !!document.getElementById('chat-unmute');",
        vec![json!(ann_player.id)],
    )
    .await;
    let (_, mutes) = app
        .get_json("/v1/players/me/mutes", Some(&bob_player.token))
        .await;
    assert_eq!(mutes["players"][0]["name"], "Ann", "{mutes}");
    bob.click("#chat-unmute").await;
    bob.wait_until(
        "Ann's messages are back",
        "return !!document.querySelector(`#chat-messages li[data-player='${arguments[0]}']`);",
        vec![json!(ann_player.id)],
    )
    .await;

    // Ann resigns: the game is over. Bob asks for a rematch from the end screen.
    post(
        &app,
        &format!("/v1/games/{game}/seats/0/resign"),
        &ann_player.token,
        json!({}),
    )
    .await;
    bob.wait_until(
        "Bob's end screen offers a rematch",
        "return document.body.dataset.status === 'finished' && !!document.querySelector('#rematch-box #rematch');",
        vec![],
    )
    .await;
    ann.wait_until(
        "Ann's end screen offers a rematch",
        "return document.body.dataset.status === 'finished' && !!document.querySelector('#rematch-box #rematch');",
        vec![],
    )
    .await;
    bob.assert_fits_width("the end screen with the rematch, on a phone")
        .await;
    bob.click("#rematch-box #rematch").await;
    bob.wait_until(
        "Bob waits for Ann",
        "return !!document.getElementById('rematch-waiting') && document.getElementById('rematch-waiting').textContent.includes('Ann');",
        vec![],
    )
    .await;
    // Ann's page hears of it from her stream and offers to accept it.
    ann.wait_until(
        "Ann's page offers Bob's rematch",
        "return !!document.getElementById('accept-rematch') && document.getElementById('rematch-question').textContent.includes('Bob');",
        vec![],
    )
    .await;
    ann.assert_accessible_within(Some("#outcome"), "the end screen offering a rematch")
        .await;
    bob.assert_accessible_within(Some("#outcome"), "the end screen waiting for the rematch")
        .await;
    ann.screenshot("rematch-offered").await;
    ann.click("#accept-rematch").await;
    let next = ann.wait_for_game_page(&game).await;
    assert_eq!(bob.wait_for_game_page(&game).await, next);
    let (_, rematch) = app
        .get_json(&format!("/v1/games/{game}/rematch"), None)
        .await;
    assert_eq!(rematch["game_id"], json!(next), "{rematch}");
    let doc = api_document(&app, &next).await;
    assert_eq!(doc["seats"][0]["name"], "Bob", "seats moved one on: {doc}");
    assert_eq!(doc["seats"][1]["name"], "Ann", "{doc}");
    // Each page plays its own seat with its player's key.
    let seats = json!([
        ann.js("return document.body.dataset.seat;", vec![]).await,
        bob.js("return document.body.dataset.seat;", vec![]).await
    ]);
    assert_eq!(seats, json!(["1", "0"]));

    // The old game's page, read again later, links to its rematch instead of leaving.
    ann.goto(&format!("/games/{game}")).await;
    ann.wait_until(
        "the old game links to its rematch",
        "return location.pathname === `/games/${arguments[0]}`
                && document.querySelector('#rematch-box #open-rematch')?.getAttribute('href') === `/games/${arguments[1]}`;",
        vec![json!(game), json!(next)],
    )
    .await;

    // The rated game put both on the leaderboard: Bob challenges Ann from her row, on his
    // phone, in the dialog; his list has it.
    bob.goto("/leaderboards/tycoon").await;
    bob.wait_ready().await;
    let row = format!("tr[data-player='{}'] .challenge-player", ann_player.id);
    bob.wait_until(
        "Ann's row has a challenge button, Bob's none",
        "return !!document.querySelector(arguments[0]) && !document.querySelector(`tr[data-player='${arguments[1]}'] .challenge-player`);",
        vec![json!(row), json!(bob_player.id)],
    )
    .await;
    bob.assert_fits_width("the leaderboard with challenge buttons, on a phone")
        .await;
    bob.click(&row).await;
    bob.wait_until(
        "the challenge dialog opens",
        "return !!document.querySelector('dialog[open] #challenge-form');",
        vec![],
    )
    .await;
    bob.assert_fits_width("the challenge dialog, on a phone")
        .await;
    bob.assert_accessible("the leaderboard's challenge dialog")
        .await;
    bob.screenshot("challenge-dialog").await;
    bob.click("#challenge-send").await;
    let last = bob.wait_for_challenge("sent", "pending", "Ann").await;
    let (_, sent) = app
        .get_json(
            "/v1/challenges?role=sent&status=pending",
            Some(&bob_player.token),
        )
        .await;
    assert_eq!(sent["challenges"][0]["seats"][1]["name"], "Ann", "{sent}");

    // He thinks better of it and withdraws it.
    bob.click(&format!("li[data-challenge='{last}'] .cancel-challenge"))
        .await;
    bob.wait_for_challenge("sent", "cancelled", "withdrawn")
        .await;
    let (_, withdrawn) = app
        .get_json(&format!("/v1/challenges/{last}"), Some(&ann_player.token))
        .await;
    assert_eq!(withdrawn["status"], "cancelled", "{withdrawn}");

    ann.close().await;
    bob.close().await;
}
