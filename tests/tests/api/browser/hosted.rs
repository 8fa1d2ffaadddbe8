//! What the Monopoly and Tyros tests share: a move made through a template form.

use serde_json::Value;

use super::game_page::{seat_document, template_values, wait_for_api_version};
use super::Browser;
use crate::helpers::TestApp;

/// Makes a move with the first template (of `kind`, when given) that the seat of `token` is
/// offered and the test can fill, in that seat's `browser`, by typing into its form. `false`
/// when there is none.
pub async fn template_move(
    app: &TestApp,
    game_id: &str,
    browser: &Browser,
    token: &str,
    kind: Option<&str>,
) -> bool {
    let doc = seat_document(app, game_id, token).await;
    let version = doc["version"].as_i64().unwrap();
    let templates = doc["action_templates"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let Some((n, template, values)) = templates.iter().enumerate().find_map(|(n, t)| {
        let wanted = kind.is_none_or(|k| t["type"] == k);
        wanted
            .then(|| template_values(t))
            .flatten()
            .map(|v| (n, t, v))
    }) else {
        return false;
    };
    browser.wait_for_version(version).await;
    browser.submit_template(n, template, &values).await;
    wait_for_api_version(app, game_id, version).await;
    true
}

/// The seat the game waits for first, and whether it is offered templates but no listed
/// action (a payment, a choice of cards to keep): then only a form moves the game on.
pub fn waiting_on_templates(seat_doc: &Value) -> bool {
    seat_doc["legal_actions"]
        .as_array()
        .is_some_and(|a| a.is_empty())
        && seat_doc["action_templates"]
            .as_array()
            .is_some_and(|t| !t.is_empty())
}
