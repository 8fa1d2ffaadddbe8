//! Action templates as forms, checked on a template with every kind of domain.

use serde_json::json;

use super::{Browser, Chromedriver, BROWSER_SLOTS};
use crate::helpers::spawn_app;

/// No hosted game lists templates yet (Monopoly's bids and trades will), so the forms are
/// checked on a template with every kind of domain, rendered by the client's own module.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn template_forms_build_the_action_from_every_domain_kind_and_refuse_values_outside_it() {
    let _one = BROWSER_SLOTS.acquire().await.unwrap();
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
