//! The web client in a real browser: headless Chromium driven through Debian's `chromedriver`
//! (WebDriver, via fantoccini), against the real application from [`spawn_app`].
//!
//! Each browser is its own Chromium with a fresh profile, so two of them are two people on two
//! machines (their own localStorage). Screenshots go to `target/browser-screenshots/`.
//! `.ci/run` installs `chromium` and `chromium-driver` when they are missing; without them
//! these tests fail and say so.
//!
//! Waiting for the page uses a bounded number of short polls (a deadline that turns a hang
//! into a failure with a message), never an assertion on elapsed time.
//!
//! [`spawn_app`]: crate::helpers::spawn_app

mod acquire;
mod checks;
mod docs_screenshots;
mod driver;
mod endscreen;
mod game_page;
mod help;
mod hosted;
mod languages;
mod lifecycle;
mod live;
mod lobby;
mod lobby_people;
mod monopoly;
mod monopoly_forms;
mod new_game;
mod notifications;
mod pacing;
mod people;
mod players;
mod proxy;
mod records;
mod refusals;
mod replay;
mod server_time;
mod templates;
mod tournaments;
mod tycoon;
mod tyros;

pub use driver::{Browser, Chromedriver};
pub use game_page::{api_document, Table};

use std::time::Duration;

/// At most two browser tests at once: each runs two or three Chromiums, on a machine of two
/// cores. One at a time left a test thread waiting through the whole stretch of browser tests
/// (libtest runs them one after another by name), although they mostly wait on the page.
static BROWSER_SLOTS: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(2);

/// One poll of the page every this long while waiting for it.
pub const POLL: Duration = Duration::from_millis(40);
/// Polls before a wait fails (about 45 s: far beyond any normal step, even on a loaded machine).
pub const MAX_POLLS: usize = 1100;
