//! What the database itself guarantees, checked end to end with SQL.

use diesel::prelude::*;
use diesel::sql_types::Uuid as SqlUuid;

use crate::helpers::spawn_app;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_database_refuses_to_update_or_delete_game_events() {
    let app = spawn_app().await;
    let game = app.create_game(2, 1).await;
    let before = crate::helpers::stored_event_count(&app, &game);
    let mut conn = app.db.conn();
    let id: uuid::Uuid = game.id.parse().unwrap();
    let update = diesel::sql_query("UPDATE game_events SET event = '{}' WHERE game_id = $1")
        .bind::<SqlUuid, _>(id)
        .execute(&mut conn);
    assert!(update.is_err(), "UPDATE must be refused");
    let delete = diesel::sql_query("DELETE FROM game_events WHERE game_id = $1")
        .bind::<SqlUuid, _>(id)
        .execute(&mut conn);
    assert!(delete.is_err(), "DELETE must be refused");
    assert_eq!(crate::helpers::stored_event_count(&app, &game), before);
}
