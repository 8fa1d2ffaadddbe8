//! Monopoly's options in players' words (see [`crate::options`]).

use crate::options::OptionText;

/// Every option of [`super::Config`].
pub const OPTIONS: &[OptionText] = &[
    OptionText::main(
        "round_limit",
        "Round limit",
        "End after this many rounds; the richest player (cash, properties and buildings) \
         wins. Leave it empty to play until one player is left.",
    ),
    OptionText::main(
        "start_money",
        "Starting money",
        "Money each player starts with, from M 1 to M 1,000,000.",
    ),
    OptionText::main(
        "auto_collect_rent",
        "Rent is paid automatically",
        "Rent is paid as soon as a player lands. Without it, the owner must claim the rent \
         before the next player rolls, or it is lost.",
    ),
    OptionText::main(
        "count_mortgaged_for_rail_util",
        "Mortgaged stations and works count",
        "Mortgaged stations and utilities still count towards the rent of the owner's other \
         stations and utilities.",
    )
    .more(),
    OptionText::main(
        "utility_rent_dice",
        "Dice for a utility's rent",
        "A player who lands on a utility pays a multiple of a dice roll: of a fresh roll \
         made for the rent (as the German rules print it), or of the roll that moved them \
         there.",
    )
    .choices(&[
        ("roll", "Roll again for the rent"),
        ("move", "The roll that moved them"),
    ])
    .more(),
    OptionText::main(
        "trade_offers",
        "Trade offers",
        "An offer stands on the properties as they were when it was made, and lapses when one \
         of them is mortgaged, built on or changes hands; or it is carried out on them as they \
         are when it is accepted.",
    )
    .choices(&[
        ("as_made", "Lapse when a property changes"),
        ("as_accepted", "Carried out as things are"),
    ])
    .more(),
    OptionText::main(
        "inherited_interest",
        "Interest on inherited mortgages",
        "A player who takes over a bankrupt player's mortgaged properties pays the 10 % \
         interest on them property by property, or as one sum.",
    )
    .choices(&[
        ("per_deed", "Property by property"),
        ("in_total", "As one sum"),
    ])
    .more(),
    OptionText::main(
        "building_auction_min_bid",
        "Opening bid for scarce buildings",
        "When the bank has fewer houses or hotels than players want, they are auctioned \
         starting at this bid.",
    )
    .more(),
    OptionText::main(
        "interest_rounding",
        "Rounding of mortgage interest",
        "How the 10 % interest on a mortgage is rounded to whole money.",
    )
    .choices(&[("up", "Up"), ("down", "Down")])
    .more(),
    OptionText::main(
        "deck",
        "Cards",
        "The Ereignis and Gemeinschaft cards played with.",
    )
    .choices(&[("hasbro-de-du", "Hasbro, German edition")])
    .more(),
    OptionText::main(
        "players",
        "Players",
        "The number of players; the seats chosen decide it.",
    )
    .hidden(),
];
