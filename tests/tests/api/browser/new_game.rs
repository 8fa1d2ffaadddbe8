//! The lobby's "new game" form as a player fills it: every browser test that starts a game
//! from the lobby goes through these steps, and sets its own seats and options in between.

use super::game_page::game_id_of;
use super::Browser;

impl Browser {
    /// Opens the lobby as `player`, chooses `game_type` with `seats` seats, and waits until
    /// the form shows that type's options (`option` is one of them, as named in its config
    /// schema). Seat kinds, names and other options are the caller's to set next.
    pub async fn begin_new_game(&self, player: &str, game_type: &str, option: &str, seats: usize) {
        self.goto("/").await;
        self.wait_ready().await;
        self.fill("#player-name", player).await;
        self.select("#new-type", game_type).await;
        self.wait_until(
            &format!("the {game_type} options are shown"),
            &format!("return !!document.getElementById('config-{option}');"),
            vec![],
        )
        .await;
        self.select("#new-seat-count", &seats.to_string()).await;
    }

    /// Creates the game the form describes, and returns the share link of every seat the
    /// lobby offers one for, in seat order.
    pub async fn create_new_game(&self) -> Vec<String> {
        self.click("#create-game").await;
        self.wait_until(
            "the game is created",
            "return !!document.getElementById('open-created');",
            vec![],
        )
        .await;
        let links = self
            .js(
                "return [...document.querySelectorAll('#created input.share')].map((e) => e.value);",
                vec![],
            )
            .await;
        links
            .as_array()
            .expect("a list of links")
            .iter()
            .map(|l| l.as_str().expect("a link").to_string())
            .collect()
    }

    /// Opens the game just created, and returns its id.
    pub async fn open_created_game(&self) -> String {
        self.click("#open-created").await;
        self.wait_ready().await;
        game_id_of(self).await
    }
}
