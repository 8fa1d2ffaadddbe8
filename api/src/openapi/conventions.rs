//! What every operation shares, added in one place: the problem+json body of every error
//! response, 429 with its rate-limit headers everywhere, 503 on every operation that needs
//! the database, an explicit (possibly empty) security requirement, the server, and the list
//! of stable problem codes.

use serde_json::{json, Map, Value};

use crate::codes::{API_CODES, ENGINE_CODES};
use crate::error::PROBLEM_JSON;

fn header(description: &str) -> Value {
    json!({"description": description, "schema": {"type": "integer", "minimum": 0}})
}

/// The rate-limit headers (IETF draft `RateLimit` header fields, one field per value).
fn rate_limit_headers() -> Map<String, Value> {
    let mut headers = Map::new();
    headers.insert(
        "RateLimit-Limit".into(),
        header("Requests the client's budget holds when full"),
    );
    headers.insert(
        "RateLimit-Remaining".into(),
        header("Requests left in the budget now"),
    );
    headers.insert(
        "RateLimit-Reset".into(),
        header("Seconds until the budget is full again"),
    );
    headers
}

/// Applies every convention of the module documentation to `doc`.
pub fn apply(doc: &mut Value) {
    doc["servers"] = json!([{"url": "/", "description": "The server this document is served by"}]);
    let problem = json!({PROBLEM_JSON: {"schema": {"$ref": "#/components/schemas/Problem"}}});
    let mut limited = rate_limit_headers();
    limited.insert(
        "Retry-After".into(),
        header("Seconds until the request may succeed"),
    );
    let too_many = json!({
        "description": "Rate limited (`rate_limited`): retry after `Retry-After` seconds",
        "headers": limited,
    });
    let unavailable = json!({
        "description": "Database unavailable (`unavailable`); retry after `Retry-After` seconds",
        "headers": {"Retry-After": header("Seconds to wait before retrying")},
    });
    let Some(paths) = doc["paths"].as_object_mut() else {
        return;
    };
    for (path, item) in paths.iter_mut() {
        let Some(item) = item.as_object_mut() else {
            continue;
        };
        for (_, operation) in item.iter_mut() {
            let Some(operation) = operation.as_object_mut() else {
                continue;
            };
            operation.entry("security").or_insert_with(|| json!([{}]));
            let responses = operation
                .entry("responses")
                .or_insert_with(|| json!({}))
                .as_object_mut()
                .expect("responses is an object");
            responses.entry("429").or_insert_with(|| too_many.clone());
            let needs_database = ["/v1/games", "/v1/players", "/v1/seeks", "/v1/leaderboards"]
                .iter()
                .any(|p| path.starts_with(p));
            if needs_database || path == "/readyz" {
                responses
                    .entry("503")
                    .or_insert_with(|| unavailable.clone());
            }
            for (status, response) in responses.iter_mut() {
                if status.starts_with('4') || status.starts_with('5') {
                    let response = response.as_object_mut().expect("a response is an object");
                    response.entry("content").or_insert_with(|| problem.clone());
                }
            }
        }
    }
    let mut codes = String::from(
        "Stable machine-readable code. Codes never change meaning once published; clients \
         should treat an unknown code like its HTTP status. The API's own codes:\n",
    );
    for (code, meaning) in API_CODES {
        codes.push_str(&format!("- `{code}`: {meaning}\n"));
    }
    codes.push_str("\nRule violations (422) carry the game's code: ");
    codes.push_str(
        &ENGINE_CODES
            .iter()
            .map(|c| format!("`{c}`"))
            .collect::<Vec<_>>()
            .join(", "),
    );
    for game in engine::registry::all() {
        let list: Vec<String> = game
            .info()
            .error_codes
            .iter()
            .map(|c| format!("`{c}`"))
            .collect();
        codes.push_str(&format!("; {}: {}", game.name(), list.join(", ")));
    }
    codes.push('.');
    doc["components"]["schemas"]["Problem"]["properties"]["code"]["description"] =
        Value::String(codes);
}
