//! The replay of a finished game: open a position by its link, step back to the first event
//! with the buttons and the keyboard, and find each position's view and explanation.

use serde_json::{json, Value};

use super::{Browser, Chromedriver, ONE_AT_A_TIME};
use crate::helpers::spawn_app;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_replay_steps_back_to_the_first_event_and_shows_each_position() {
    let _one = ONE_AT_A_TIME.acquire().await.unwrap();
    let app = spawn_app().await;
    let game = app.create_game(2, 11).await;
    app.play_to_end(&game, 11, 2000).await;
    let driver = Chromedriver::start().await;
    let page = Browser::open(&driver, &app, "replay", (1280, 1000)).await;

    let start = 6;
    page.goto(&format!("/games/{}?seq={start}", game.id)).await;
    page.wait_ready().await;
    let mut seq = start;
    while seq >= 1 {
        page.wait_until(
            &format!("the replay shows event {seq}"),
            "return document.body.dataset.replay === String(arguments[0]) &&
                    !!document.querySelector('#board svg') &&
                    location.search === '?seq=' + arguments[0];",
            vec![json!(seq)],
        )
        .await;
        // The panel shows the view as of `seq`: Ann's cash then, from the API.
        let (_, state) = app
            .get_json(&format!("/v1/games/{}/states/{seq}", game.id), None)
            .await;
        let shown = page
            .js(
                "const dl = document.querySelector('#players [data-seat=\"0\"] dl');
                 const cash = dl && [...dl.querySelectorAll('dt')].find((dt) => dt.textContent === 'Cash');
                 return [cash ? cash.nextElementSibling.textContent : null,
                         document.getElementById('replay-explanation').textContent,
                         document.querySelectorAll('#log li').length];",
                vec![],
            )
            .await;
        let cash = state["view"]["players"][0]["cash"].as_i64().unwrap();
        assert_eq!(shown[0], Value::String(format!("{cash}M")), "cash at {seq}");
        let explanation = shown[1].as_str().unwrap();
        assert!(
            explanation.starts_with(&format!("Event {seq} of ")) && explanation.len() > 20,
            "{explanation}"
        );
        assert_eq!(shown[2], json!(seq), "the log runs up to the event shown");
        if seq == start {
            page.screenshot("replay").await;
        }
        if seq == 1 {
            assert!(
                explanation.contains("The game starts with 2 players."),
                "{explanation}"
            );
            break;
        }
        // Back one event: by button, and every other time with the left arrow key.
        if seq % 2 == 0 {
            page.click("#replay-back").await;
        } else {
            page.js("document.activeElement?.blur();", vec![]).await;
            let body = page
                .client
                .find(fantoccini::Locator::Css("body"))
                .await
                .unwrap();
            body.send_keys(&fantoccini::key::Key::Left.to_string())
                .await
                .unwrap();
        }
        seq -= 1;
    }
    // From the first event to the last and back to the live game.
    page.click("#replay-last").await;
    let last = app.version(&game).await;
    page.wait_until(
        "the replay shows the last event",
        "return document.body.dataset.replay === String(arguments[0]);",
        vec![json!(last)],
    )
    .await;
    page.click("#replay-live").await;
    page.wait_until(
        "the live game is shown",
        "return document.body.dataset.replay === '' && !document.getElementById('outcome').hidden;",
        vec![],
    )
    .await;
    page.close().await;
}

/// No hosted game lists templates yet (Monopoly's bids and trades will), so the forms are
/// checked on a template with every kind of domain, rendered by the client's own module.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn template_forms_build_the_action_from_every_domain_kind_and_refuse_values_outside_it() {
    let _one = ONE_AT_A_TIME.acquire().await.unwrap();
    let app = spawn_app().await;
    let driver = Chromedriver::start().await;
    let page = Browser::open(&driver, &app, "templates", (1280, 1000)).await;
    page.goto("/").await;
    page.wait_ready().await;
    let template = json!({
        "type": "offer_trade",
        "fixed": {"to": 1},
        "params": {
            "cash": {"kind": "integer", "min": 0, "max": 50},
            "colour": {"kind": "one_of", "values": ["red", "blue"]},
            "deeds": {"kind": "subset", "values": ["a", "b", "c"], "min_items": 1, "max_items": 2},
            "cards": {"kind": "counts", "limits": {"red": 2, "joker": 1}, "min_total": 1, "max_total": 2}
        }
    });
    let rendered = page
        .js(
            "return (async () => {
               const base = document.querySelector('script[type=module]').src.replace(/lobby\\.js$/, '');
               const actions = await import(base + 'actions.js');
               window.acted = [];
               const forms = actions.templateForms([arguments[0]], async (a) => { window.acted.push(a); });
               document.querySelector('main').prepend(...forms);
               return forms.length;
             })();",
            vec![template],
        )
        .await;
    assert_eq!(rendered, 1);
    let form = "form[data-template=offer_trade]";
    let acted = || page.js("return window.acted;", vec![]);

    // Out of range: refused in words, nothing submitted.
    page.fill("#tpl-offer_trade-0-cash", "60").await;
    page.click(&format!("{form} button[type=submit]")).await;
    let error = page
        .js(
            &format!("return document.querySelector('{form} .error').textContent;"),
            vec![],
        )
        .await;
    let error = error.as_str().unwrap();
    assert!(
        error.contains("Cash must be a whole number from 0 to 50."),
        "{error}"
    );
    assert_eq!(acted().await, json!([]));

    page.fill("#tpl-offer_trade-0-cash", "20").await;
    page.select("#tpl-offer_trade-0-colour", "1").await;
    page.click("#tpl-offer_trade-0-deeds input[value='0']")
        .await;
    page.click("#tpl-offer_trade-0-deeds input[value='2']")
        .await;
    page.fill("#tpl-offer_trade-0-cards input[aria-label=Red]", "1")
        .await;
    page.fill("#tpl-offer_trade-0-cards input[aria-label=Joker]", "1")
        .await;
    page.click(&format!("{form} button[type=submit]")).await;
    assert_eq!(
        acted().await,
        json!([{"type": "offer_trade", "to": 1, "cash": 20, "colour": "blue",
                "deeds": ["a", "c"], "cards": {"red": 1, "joker": 1}}])
    );

    // Three deeds are one too many.
    page.click("#tpl-offer_trade-0-deeds input[value='1']")
        .await;
    page.click(&format!("{form} button[type=submit]")).await;
    let error = page
        .js(
            &format!("return document.querySelector('{form} .error').textContent;"),
            vec![],
        )
        .await;
    assert_eq!(
        error, "Choose 1 to 2 for Deeds.",
        "only the wrong field is named"
    );
    assert_eq!(acted().await.as_array().unwrap().len(), 1);
    page.close().await;
}
