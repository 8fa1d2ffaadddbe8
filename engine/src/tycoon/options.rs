//! Tycoon's options in players' words (see [`crate::options`]).

use crate::options::OptionText;

/// Every option of [`super::Config`].
pub const OPTIONS: &[OptionText] = &[
    OptionText::main(
        "step_mode",
        "Flying by steps",
        "How far a scheduled ticket used by steps takes a plane: exactly the steps printed on \
         it, or at most that many.",
    )
    .choices(&[
        ("exact", "Exactly the printed steps"),
        ("up_to", "Up to the printed steps"),
    ]),
    OptionText::main(
        "unlimited_loans",
        "Unlimited loans",
        "The bank never runs out of loan cards. Without it, a player with no loan card left \
         and nothing to build must pass.",
    )
    .more(),
    OptionText::main(
        "tie_break",
        "Tied majorities",
        "Who wins a tie for a city's majority at payday.",
    )
    .choices(&[
        ("first_built", "Whoever built a hotel there first"),
        (
            "earliest_on_track",
            "Whoever has the oldest hotel still standing there",
        ),
    ])
    .more(),
];
