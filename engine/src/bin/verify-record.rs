//! Verifies a game record offline, with no server and no database:
//!
//! ```sh
//! cargo run -p engine --bin verify-record -- record.json
//! ```
//!
//! Checks the revealed seed against the commitment, derives the chance key, replays every
//! action through the rules with the chance of its version and requires the recorded events.
//! Prints the final state's summary and `verified`, or the first failing move with its rule
//! ID; exits 0, 1 (the record fails) or 2 (no readable record).

use std::process::ExitCode;

use engine::record::{self, Record};

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: verify-record <record.json>");
        return ExitCode::from(2);
    };
    let record: Record = match std::fs::read(&path)
        .map_err(|e| e.to_string())
        .and_then(|bytes| serde_json::from_slice(&bytes).map_err(|e| e.to_string()))
    {
        Ok(record) => record,
        Err(e) => {
            eprintln!("{path}: not a game record: {e}");
            return ExitCode::from(2);
        }
    };
    match record::verify(&record) {
        Ok(verified) => {
            println!(
                "{} game {}: {} seats, {} moves, version {}",
                record.game_type,
                record.game_id,
                record.seat_count,
                record.moves.len(),
                verified.version
            );
            match &verified.outcome {
                Some(outcome) => println!(
                    "outcome: {}",
                    serde_json::to_string(outcome).expect("outcomes serialize")
                ),
                None => println!("outcome: none by the rules (see the record's table)"),
            }
            println!("verified");
            ExitCode::SUCCESS
        }
        Err(e) => {
            println!("{e}");
            println!("not verified");
            ExitCode::from(1)
        }
    }
}
