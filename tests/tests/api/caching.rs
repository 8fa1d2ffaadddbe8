//! Cache headers: strong entity tags and `Cache-Control` on what can be kept, `immutable`
//! where nothing can change any more, `304` on a matching `If-None-Match`.

use reqwest::{Method, StatusCode};

use crate::helpers::{spawn_app, TestApp};

/// `(status, ETag, Cache-Control, Vary)` of a GET.
async fn headers_of(
    app: &TestApp,
    path: &str,
    token: Option<&str>,
    if_none_match: Option<&str>,
) -> (StatusCode, String, String, String) {
    let mut req = app.req(Method::GET, path, token);
    if let Some(tag) = if_none_match {
        req = req.header("if-none-match", tag);
    }
    let res = req.send().await.unwrap();
    let h = |name: &str| {
        res.headers()
            .get_all(name)
            .iter()
            .map(|v| v.to_str().unwrap().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    (res.status(), h("etag"), h("cache-control"), h("vary"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_changes_only_with_a_release_is_kept_for_an_hour_and_revalidated() {
    let app = spawn_app().await;
    for path in ["/v1/game-types", "/openapi.json"] {
        let (status, etag, control, _) = headers_of(&app, path, None, None).await;
        assert_eq!(
            (status, control.as_str()),
            (StatusCode::OK, "public, max-age=3600")
        );
        assert!(
            etag.starts_with('"') && etag.ends_with('"'),
            "{path}: {etag}"
        );
        let (status, again, _, _) = headers_of(&app, path, None, Some(&etag)).await;
        assert_eq!((status, again), (StatusCode::NOT_MODIFIED, etag), "{path}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn states_are_immutable_per_viewer_and_a_finished_games_log_and_document_too() {
    let app = spawn_app().await;
    let game = app.create_game(2, 31).await;
    let state = format!("/v1/games/{}/states/3", game.id);
    let (status, spectator, control, vary) = headers_of(&app, &state, None, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(control, "public, max-age=31536000, immutable");
    assert!(vary.contains("Authorization"), "{vary}");
    let (_, seat, control, _) = headers_of(&app, &state, Some(&game.tokens[1]), None).await;
    assert_eq!(control, "private, max-age=31536000, immutable");
    assert_ne!(seat, spectator, "each viewer has its own tag");
    let (status, _, _, _) = headers_of(&app, &state, Some(&game.tokens[1]), Some(&seat)).await;
    assert_eq!(status, StatusCode::NOT_MODIFIED);

    // While the game runs, its pages and document are revalidated on every use.
    let page = format!("/v1/games/{}/events?after=0&limit=2", game.id);
    let doc = format!("/v1/games/{}", game.id);
    let (_, live_page, control, _) = headers_of(&app, &page, None, None).await;
    assert_eq!(control, "no-cache");
    let (status, _, _, _) = headers_of(&app, &page, None, Some(&live_page)).await;
    assert_eq!(status, StatusCode::NOT_MODIFIED);
    let (_, _, control, _) = headers_of(&app, &doc, None, None).await;
    assert_eq!(control, "no-cache");

    // Once it is finished, nothing changes any more; the pages show every secret now, so
    // their tags change.
    app.play_to_end(&game, 31, 3_000).await;
    let (status, open_page, control, _) = headers_of(&app, &page, None, Some(&live_page)).await;
    assert_eq!(
        status,
        StatusCode::OK,
        "a page is no longer what it was while redacted"
    );
    assert_ne!(open_page, live_page);
    assert_eq!(control, "public, max-age=31536000, immutable");
    let (_, _, control, _) = headers_of(&app, &doc, Some(&game.tokens[0]), None).await;
    assert_eq!(control, "private, max-age=31536000, immutable");
}

/// Issue 39: the legal actions and the NDJSON export carry an entity tag and `Cache-Control`
/// like the document and the event pages: revalidated while the game runs (304 on a matching
/// tag, a new tag once it moved), and a finished game's export is immutable.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legal_actions_and_the_ndjson_export_are_tagged_and_a_finished_export_immutable() {
    let app = spawn_app().await;
    let game = app.create_game(2, 33).await;
    let seat = app.document(&game, None).await["active_seats"][0]
        .as_u64()
        .unwrap() as usize;
    let token = game.tokens[seat].as_str();
    let legal = format!("/v1/games/{}/legal-actions", game.id);
    let export = format!("/v1/games/{}/events.ndjson", game.id);
    let (status, tag, control, vary) = headers_of(&app, &legal, Some(token), None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(tag.starts_with('"') && tag.len() > 2, "{tag}");
    assert_eq!(control, "no-cache");
    assert!(vary.contains("Authorization"), "{vary}");
    let (status, _, _, _) = headers_of(&app, &legal, Some(token), Some(&tag)).await;
    assert_eq!(status, StatusCode::NOT_MODIFIED);
    let (_, spectator, _, _) = headers_of(&app, &legal, None, None).await;
    assert_ne!(spectator, tag, "each viewer has its own tag");
    let (status, live, control, _) = headers_of(&app, &export, None, None).await;
    assert_eq!((status, control.as_str()), (StatusCode::OK, "no-cache"));
    let (status, _, _, _) = headers_of(&app, &export, None, Some(&live)).await;
    assert_eq!(status, StatusCode::NOT_MODIFIED);

    // A version past the game's is no version the answer can reach.
    let res = app
        .req(
            Method::GET,
            &format!("{legal}?after_version=999"),
            Some(token),
        )
        .send()
        .await
        .unwrap();
    crate::helpers::assert_problem(res, StatusCode::BAD_REQUEST, "invalid_query").await;

    app.play_to_end(&game, 33, 3_000).await;
    let (status, _, _, _) = headers_of(&app, &legal, Some(token), Some(&tag)).await;
    assert_eq!(status, StatusCode::OK, "the game moved on");
    let (status, open, control, _) = headers_of(&app, &export, None, Some(&live)).await;
    assert_eq!(status, StatusCode::OK);
    assert_ne!(open, live);
    assert_eq!(control, "public, max-age=31536000, immutable");
    let (status, _, _, _) = headers_of(&app, &export, None, Some(&open)).await;
    assert_eq!(status, StatusCode::NOT_MODIFIED);
}
