//! Tyros's options in players' words (see [`crate::options`]).

use crate::options::OptionText;

/// Every option of [`super::Config`].
pub const OPTIONS: &[OptionText] = &[
    OptionText::main(
        "pirates",
        "Pirates",
        "A pirate appears each round. Ships pay a card to enter or pass its field; two ships on \
         its field sink it for points.",
    ),
    OptionText::main(
        "action_cards",
        "Action cards",
        "Each player gets three one-off cards: favourable wind, blockade breaker and explorer.",
    ),
    OptionText::main(
        "galleys",
        "War galleys",
        "Ships can be turned into galleys that fight and sink other players' ships.",
    ),
    OptionText::main(
        "bank_trade_once_per_round",
        "One bank trade per round",
        "Each player may trade with the bank at most once a round.",
    )
    .more(),
    OptionText::main(
        "failed_pile_search",
        "A bank search that finds nothing",
        "When a player pays 3 cards to pick a colour from the draw pile and none of that colour \
         is there, the 3 cards are discarded all the same; or the player keeps them (older \
         tables' rule, under which a round can be held up for ever).",
    )
    .choices(&[
        ("discard", "The cards are discarded"),
        ("keep_cards", "The player keeps the cards"),
    ])
    .more(),
    OptionText::main(
        "player_trade_free",
        "Free trade between players",
        "Trading with another player does not use up the turn: once a turn, before or after \
         the action, the player may make one trade.",
    )
    .more(),
    OptionText::main(
        "bonus_city_in_all_empires",
        "Bonus for a city in every empire",
        "Points for the first player with a city in all four empires.",
    )
    .more(),
    OptionText::main(
        "tiles_per_round",
        "Tiles played per round",
        "Landscape tiles each player places per round, by number of players. Fewer tiles make \
         a longer game; more tiles a shorter one.",
    )
    .more(),
    OptionText::main(
        "cards_dealt",
        "Cards dealt per round",
        "Trade cards each player draws at the start of a round, by number of players.",
    )
    .more(),
    OptionText::main(
        "cards_kept",
        "Cards kept at round end",
        "Trade cards a player may keep from one round to the next.",
    )
    .more(),
    OptionText::main(
        "tiles_in_hand",
        "Tiles in hand",
        "Landscape tiles each player holds.",
    )
    .more(),
    OptionText::main(
        "ships_per_player",
        "Ships per player",
        "Ships each player has, two of them starting in Tyros. Leave it empty for the usual \
         number: 10, or with pirates 6 for three players and 5 for four.",
    )
    .more(),
    OptionText::main(
        "cities_per_player",
        "Cities per player",
        "City markers each player has.",
    )
    .more(),
    OptionText::main(
        "jokers_wild",
        "Jokers are wild",
        "A joker stands for any colour. Without it, a joker pays only where any card will do.",
    )
    .more(),
    OptionText::main(
        "cant_place_tile",
        "A tile that cannot be placed",
        "What a player does who has no tile that fits next to an empire.",
    )
    .choices(&[
        ("pass_and_draw", "Pass and draw a new tile"),
        ("pass", "Pass and keep the tiles"),
    ])
    .more(),
    OptionText::main(
        "tyros_shipyard",
        "Building ships in Tyros",
        "When a player may build a ship in Tyros instead of in one of their cities.",
    )
    .choices(&[
        ("only_while_no_city", "Only while the player has no city"),
        ("always", "Always"),
        ("never", "Never"),
    ])
    .more(),
    OptionText::main(
        "reshuffle_rule",
        "Reusing discarded cards",
        "How the discarded trade cards go back into the draw pile.",
    )
    .choices(&[
        ("shuffle", "Shuffled in"),
        ("flip_under", "Turned over under the pile, unshuffled"),
    ])
    .more(),
    OptionText::main(
        "explorer_from_round",
        "Explorer card from round",
        "The first round in which the explorer action card may be played.",
    )
    .more(),
    OptionText::main(
        "score_city",
        "Points per city field",
        "Points for a field held by a city, for the largest empire down to the smallest.",
    )
    .more(),
    OptionText::main(
        "score_ship",
        "Points per ship field",
        "Points for a field held by ships alone, for the largest empire down to the smallest.",
    )
    .more(),
    OptionText::main(
        "trade_card_split",
        "Trade cards",
        "How many trade cards of each colour, and jokers, are in the game.",
    )
    .more(),
    OptionText::main(
        "setup",
        "Founding the empires",
        "Where the four empires start.",
    )
    .choices(&[
        ("random", "Drawn at random"),
        ("fixed", "A fixed layout (fields 2, 12, 22 and 30)"),
    ])
    .more(),
    OptionText::main(
        "desert_cell",
        "Desert position",
        "Where the desert lies on the map; the fields are numbered around it.",
    )
    .choices(&[
        ("row5_col2", "Row 5, column 2"),
        ("row1_col3", "Row 1, column 3"),
        ("row2_col3", "Row 2, column 3"),
        ("row3_col3", "Row 3, column 3"),
    ])
    .more(),
    OptionText::main(
        "sea_cell",
        "Open sea position",
        "Where the open sea lies on the map.",
    )
    .choices(&[
        ("row4_col6", "Row 4, column 6"),
        ("row5_col6", "Row 5, column 6"),
    ])
    .more(),
];
