//! The committed OpenAPI document is the generated one.

#[test]
fn the_committed_openapi_json_equals_the_generated_document() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../openapi/openapi.json");
    let committed = std::fs::read_to_string(path).expect("openapi/openapi.json exists");
    let generated = api::openapi::document_json();
    assert!(
        committed == generated,
        "openapi/openapi.json is stale: run `cargo run -p api --bin openapi > openapi/openapi.json`"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_served_document_and_docs_page_are_available() {
    let app = crate::helpers::spawn_app().await;
    let (status, doc) = app.get_json("/openapi.json", None).await;
    assert_eq!(status, reqwest::StatusCode::OK);
    for path in [
        "/v1/game-types",
        "/v1/games",
        "/v1/games/{id}",
        "/v1/games/{id}/seats",
        "/v1/games/{id}/start",
        "/v1/games/{id}/legal-actions",
        "/v1/games/{id}/actions",
        "/v1/games/{id}/events",
        "/v1/games/{id}/states/{seq}",
    ] {
        assert!(doc["paths"][path].is_object(), "{path} undocumented");
    }
    assert!(doc["components"]["schemas"]["TycoonAction"].is_object());
    let res = app
        .req(reqwest::Method::GET, "/docs/", None)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), reqwest::StatusCode::OK);
    let (status, health) = app.get_json("/healthz", None).await;
    assert_eq!(
        (status, health["status"].as_str()),
        (reqwest::StatusCode::OK, Some("ok"))
    );
    let (status, _) = app.get_json("/readyz", None).await;
    assert_eq!(status, reqwest::StatusCode::OK);
    let metrics = app
        .req(reqwest::Method::GET, "/metrics", None)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        metrics.contains("http_requests_total{method=\"GET\",route=\"/readyz\",status=\"200\"} 1"),
        "{metrics}"
    );
    assert!(metrics.contains("db_pool_max_size"));
}

#[test]
fn every_operation_on_games_documents_the_503_with_retry_after() {
    let doc: serde_json::Value = serde_json::from_str(&api::openapi::document_json()).unwrap();
    let paths = doc["paths"].as_object().unwrap();
    let mut checked = 0;
    for (path, item) in paths.iter().filter(|(p, _)| p.starts_with("/v1/games")) {
        for (method, operation) in item.as_object().unwrap() {
            let unavailable = &operation["responses"]["503"];
            assert!(
                unavailable["headers"]["Retry-After"].is_object(),
                "{method} {path}: {unavailable}"
            );
            checked += 1;
        }
    }
    assert!(checked >= 9, "only {checked} operations under /v1/games");
}

fn document() -> serde_json::Value {
    serde_json::from_str(&api::openapi::document_json()).unwrap()
}

/// Every operation has a one-line summary and a description; the document names its contact
/// and licence (what generators and documentation tools show first).
#[test]
fn every_operation_has_a_one_line_summary_and_a_description() {
    let doc = document();
    assert!(doc["info"]["contact"]["name"].is_string());
    assert_eq!(doc["info"]["license"]["identifier"], "MIT");
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let summary = op["summary"].as_str().unwrap_or_default();
            assert!(
                !summary.is_empty() && !summary.contains('\n') && summary.len() <= 80,
                "{method} {path}: summary {summary:?}"
            );
            assert!(
                op["description"]
                    .as_str()
                    .is_some_and(|d| d.len() > summary.len()),
                "{method} {path} has no description"
            );
        }
    }
}

/// Anonymous access is the document's default ("anonymous, or a seat token"); only the
/// operations that need a seat or a player say so. Generators then give anonymous calls a
/// plain client (openapi-python-client asks for an authenticated one wherever an operation
/// lists any requirement, even an empty one).
#[test]
fn only_operations_that_need_a_seat_or_a_player_declare_a_security_requirement() {
    let doc = document();
    assert_eq!(doc["security"], serde_json::json!([{}, {"seat_token": []}]));
    let mut needing = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let Some(s) = op.get("security") else {
                continue;
            };
            let by_player = [
                "/v1/players/me",
                "/v1/seeks",
                "/v1/challenges",
                "/v1/tournaments",
            ]
            .iter()
            .any(|p| path.starts_with(p))
                || path.ends_with("/rematch");
            let scheme = if by_player {
                "player_token"
            } else {
                "seat_token"
            };
            assert_eq!(*s, serde_json::json!([{ scheme: [] }]), "{method} {path}");
            needing.push(format!("{method} {path}"));
        }
    }
    needing.sort();
    assert_eq!(
        needing,
        [
            "delete /v1/challenges/{id}",
            "delete /v1/players/me/blocks/{player_id}",
            "delete /v1/players/me/mutes/{player_id}",
            "delete /v1/seeks/{id}",
            "delete /v1/tournaments/{id}/players/me",
            "get /v1/challenges",
            "get /v1/challenges/{id}",
            "get /v1/players/me",
            "get /v1/players/me/blocks",
            "get /v1/players/me/games",
            "get /v1/players/me/mutes",
            "get /v1/players/me/settings",
            "get /v1/players/me/stream",
            "post /v1/challenges",
            "post /v1/challenges/{id}/accept",
            "post /v1/challenges/{id}/decline",
            "post /v1/games/{id}/abort",
            "post /v1/games/{id}/actions",
            "post /v1/games/{id}/actions/dry-run",
            "post /v1/games/{id}/rematch",
            "post /v1/games/{id}/seats/{seat}/reclaim",
            "post /v1/games/{id}/seats/{seat}/resign",
            "post /v1/games/{id}/start",
            "post /v1/players/me/blocks",
            "post /v1/players/me/mutes",
            "post /v1/players/me/token",
            "post /v1/seeks",
            "post /v1/tournaments",
            "post /v1/tournaments/{id}/players",
            "post /v1/tournaments/{id}/start",
            "put /v1/players/me/settings",
        ]
    );
}

/// The event log's JSON answer is one type (`EventPage`); the NDJSON export is an operation of
/// its own, so a typed client never gets a union of a page and a line.
#[test]
fn the_event_page_and_the_ndjson_export_are_separate_operations() {
    let doc = document();
    let page = &doc["paths"]["/v1/games/{id}/events"]["get"]["responses"]["200"]["content"];
    assert_eq!(page.as_object().unwrap().len(), 1, "{page}");
    assert_eq!(
        page["application/json"]["schema"]["$ref"],
        "#/components/schemas/EventPage"
    );
    let export =
        &doc["paths"]["/v1/games/{id}/events.ndjson"]["get"]["responses"]["200"]["content"];
    assert_eq!(
        export["application/x-ndjson"]["schema"]["$ref"],
        "#/components/schemas/LoggedEvent"
    );
    // Stream messages: told apart by `event`, their data typed per game.
    let sse = &doc["components"]["schemas"]["ServerSentEvent"];
    assert_eq!(sse["discriminator"]["propertyName"], "event", "{sse}");
    let logged = &doc["components"]["schemas"]["LoggedEvent"];
    assert_eq!(logged["discriminator"]["propertyName"], "type", "{logged}");
}

/// Every `description` (and `title`, `summary`) string anywhere in `value`, with its JSON
/// pointer.
fn descriptions(value: &serde_json::Value, at: &str, out: &mut Vec<(String, String)>) {
    match value {
        serde_json::Value::Object(map) => {
            for (key, v) in map {
                let here = format!("{at}/{key}");
                match v {
                    serde_json::Value::String(s)
                        if matches!(key.as_str(), "description" | "title" | "summary") =>
                    {
                        out.push((here, s.clone()));
                    }
                    _ => descriptions(v, &here, out),
                }
            }
        }
        serde_json::Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                descriptions(v, &format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// What of Rust's doc syntax `text` shows a client, if any: a path (`crate::`, `super::`,
/// `Self::`, `Foo::bar`), an intra-doc link (`` [`Foo`] ``), or Rust's `None` / `Some(..)`
/// where the JSON has `null` or the value.
fn rust_syntax_in(text: &str) -> Option<String> {
    for marker in [
        "crate::", "super::", "Self::", "[`", "None`", "`None", "`Some(", "Some(`",
    ] {
        if text.contains(marker) {
            return Some(marker.to_string());
        }
    }
    // A `::` path between two identifier characters (`Event::Paid`, `std::str`).
    let chars: Vec<char> = text.chars().collect();
    for i in 1..chars.len().saturating_sub(2) {
        if chars[i] == ':' && chars[i + 1] == ':' {
            let ident = |c: char| c.is_alphanumeric() || c == '_';
            if ident(chars[i - 1]) && ident(chars[i + 2]) {
                return Some("a `::` path".to_string());
            }
        }
    }
    // A link reference definition (`[Foo]: path`), as rustdoc's `[`Foo`]: super::Foo`.
    if text.lines().any(|l| {
        let l = l.trim_start();
        l.starts_with('[') && l.contains("]: ")
    }) {
        return Some("a link reference definition".to_string());
    }
    None
}

#[test]
fn the_rust_syntax_check_finds_what_rustdoc_leaves_in_a_description() {
    for leak in [
        "see [`crate::template`]",
        "as for [`Action::Move`].",
        "`tile` is `None` when empty",
        "(`winner: None`)",
        "`Some(3)`",
        "with [`TieBreak::FirstBuilt`]",
        "the [`Event::Paid`] event",
        "by Board::deeds order",
        "for [`Foo`].",
        "x\n\n[`TieBreak::FirstBuilt`]: super::TieBreak::FirstBuilt",
    ] {
        assert!(rust_syntax_in(leak).is_some(), "{leak}");
    }
    for plain in [
        "`tile` is `null` when empty",
        "Not modified (If-None-Match matches)",
        "Some seat must decide",
        "`{\"type\": \"bid\"}` stands for `[loan10, loan16]`",
        "at 12:30:00 (`HH:MM`)",
    ] {
        assert_eq!(rust_syntax_in(plain), None, "{plain}");
    }
}

/// Descriptions come from doc comments (engine, db, api); what a client reads must be API
/// documentation in JSON's terms, not rustdoc: no Rust paths, no intra-doc links, `null` and
/// not `None`.
#[test]
fn no_description_in_the_document_shows_rust_syntax() {
    let mut all = Vec::new();
    descriptions(&document(), "", &mut all);
    assert!(all.len() > 500, "only {} descriptions found", all.len());
    let leaks: Vec<String> = all
        .iter()
        .filter_map(|(at, text)| rust_syntax_in(text).map(|m| format!("{at}: {m} in {text:?}")))
        .collect();
    assert!(
        leaks.is_empty(),
        "Rust syntax in descriptions:\n{}",
        leaks.join("\n")
    );
}

/// `GameTypeName` is the hosted game types' names, in the registry's (catalogue) order.
#[test]
fn the_game_type_name_enum_is_the_registry_of_game_types() {
    let doc = document();
    let names: Vec<&str> = engine::registry::all().iter().map(|g| g.name()).collect();
    assert_eq!(
        doc["components"]["schemas"]["GameTypeName"]["enum"],
        serde_json::json!(names)
    );
    assert_eq!(names, ["tycoon", "acquire", "monopoly", "tyros"]);
}

/// Every property or parameter named `type` that holds a game type references `GameTypeName`,
/// or, in a per-game schema (`TycoonGameDocument`, ...), is that game's name as a `const`
/// discriminator. A plain string is refused; the only other `type`s are the tags of actions,
/// events and templates (a `const` that names no game type) and the problem's URI.
#[test]
fn every_game_type_property_and_parameter_references_the_game_type_name_enum() {
    let doc = document();
    let enum_ref = serde_json::json!("#/components/schemas/GameTypeName");
    let mut referencing = Vec::new();
    let mut wrong = Vec::new();
    let mut check = |at: String, schema: &serde_json::Value| {
        if schema["$ref"] == enum_ref {
            referencing.push(at);
        } else if schema["const"].is_string() {
            // A per-game discriminator (a name of `names`), or an action's or event's tag.
        } else {
            wrong.push(format!("{at}: {schema}"));
        }
    };
    fn walk(
        value: &serde_json::Value,
        at: &str,
        check: &mut dyn FnMut(String, &serde_json::Value),
    ) {
        match value {
            serde_json::Value::Object(map) => {
                // A schema's properties (not a property map whose property is `properties`).
                let property_map = at.ends_with("/properties");
                if let Some(t) = map.get("properties").and_then(|p| p.get("type")) {
                    if !property_map && at != "/components/schemas/Problem" {
                        check(format!("{at}/properties/type"), t);
                    }
                }
                for (key, v) in map {
                    walk(v, &format!("{at}/{key}"), check);
                }
            }
            serde_json::Value::Array(items) => {
                for (i, v) in items.iter().enumerate() {
                    walk(v, &format!("{at}/{i}"), check);
                }
            }
            _ => {}
        }
    }
    walk(
        &doc["components"]["schemas"],
        "/components/schemas",
        &mut check,
    );
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            for p in op["parameters"].as_array().into_iter().flatten() {
                if p["name"] == "type" {
                    check(format!("{method} {path} ({})", p["in"]), &p["schema"]);
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "game types as plain strings:\n{}",
        wrong.join("\n")
    );
    referencing.sort();
    for expected in [
        "/components/schemas/CreatedGame/properties/type",
        "/components/schemas/GameSummary/properties/type",
        "/components/schemas/StreamVersion/properties/type",
        "/components/schemas/PlayerNoticeTurn/properties/type",
        "/components/schemas/Leaderboard/properties/type",
        "get /v1/games (\"query\")",
        "get /v1/leaderboards/{type} (\"path\")",
    ] {
        assert!(
            referencing.iter().any(|r| r == expected),
            "{expected} does not reference GameTypeName: {referencing:?}"
        );
    }
}
