//! Acquire's options in players' words (see [`crate::options`]).

use crate::options::OptionText;

/// Every option of [`super::Config`].
pub const OPTIONS: &[OptionText] = &[
    OptionText::main(
        "end_rule",
        "When the game may end",
        "A player may announce the end when a chain reaches 41 tiles, or when the chains on \
         the board meet this condition.",
    )
    .choices(&[
        (
            "seed",
            "All seven chains are on the board, each safe (11 tiles)",
        ),
        ("standard", "Every chain on the board is safe (11 tiles)"),
    ]),
    OptionText::main(
        "defunct_order",
        "Mergers of several chains",
        "Which swallowed chain is paid out and sold off first.",
    )
    .choices(&[
        ("smallest_first", "The smallest first"),
        ("largest_first", "The largest first"),
    ])
    .more(),
    OptionText::main(
        "hidden_holdings",
        "Hidden money and shares",
        "Each player's cash and shares are face down until the end; every purchase, sale, \
         trade, founder's share and bonus is still told in the game's history.",
    )
    .more(),
];
