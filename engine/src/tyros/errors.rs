//! Tyros's rejection codes. They are stable API: clients match on them, so a code is never
//! renamed or reused for another meaning (the list is pinned by `error_codes_are_stable`). The
//! shared codes `not_your_turn` and `game_over` come from [`crate::RuleError`].
//!
//! No message may depend on what the asking seat cannot see: a tile it does not hold is "not in
//! your hand" wherever it lies (TR-D-20).

pub const WRONG_PHASE: &str = "tyros.wrong_phase";
pub const DECISION_PENDING: &str = "tyros.decision_pending";
pub const TILE_NOT_IN_HAND: &str = "tyros.tile_not_in_hand";
pub const TILE_NOT_PLACEABLE: &str = "tyros.tile_not_placeable";
pub const EMPIRE_CHOICE_REQUIRED: &str = "tyros.empire_choice_required";
pub const EMPIRE_NOT_ADJACENT: &str = "tyros.empire_not_adjacent";
pub const ACTION_ALREADY_TAKEN: &str = "tyros.action_already_taken";
pub const NOT_YOUR_SHIP: &str = "tyros.not_your_ship";
pub const SHIP_NOT_ON_BOARD: &str = "tyros.ship_not_on_board";
pub const INVALID_PATH: &str = "tyros.invalid_path";
pub const INVALID_DESTINATION: &str = "tyros.invalid_destination";
pub const DESTINATION_FULL: &str = "tyros.destination_full";
pub const CANNOT_AFFORD: &str = "tyros.cannot_afford";
pub const COST_MISMATCH: &str = "tyros.cost_mismatch";
pub const NOT_AN_EMPIRE_FIELD: &str = "tyros.not_an_empire_field";
pub const CITY_SITE_TAKEN: &str = "tyros.city_site_taken";
pub const RIVAL_SHIP_PRESENT: &str = "tyros.rival_ship_present";
pub const NO_CITY_MARKERS: &str = "tyros.no_city_markers";
pub const NO_SHIP_IN_SUPPLY: &str = "tyros.no_ship_in_supply";
pub const NOT_A_SHIPYARD: &str = "tyros.not_a_shipyard";
pub const SHIPYARD_FULL: &str = "tyros.shipyard_full";
pub const NO_GALLEY_TOKEN: &str = "tyros.no_galley_token";
pub const VARIANT_OFF: &str = "tyros.variant_off";
pub const BANK_TRADE_USED: &str = "tyros.bank_trade_used";
pub const BAD_CARD_COUNT: &str = "tyros.bad_card_count";
pub const CARDS_NOT_IN_HAND: &str = "tyros.cards_not_in_hand";
pub const INVALID_OFFER: &str = "tyros.invalid_offer";
pub const TRADE_USED: &str = "tyros.trade_used";
pub const NO_OFFER: &str = "tyros.no_offer";
pub const ACTION_CARD_UNAVAILABLE: &str = "tyros.action_card_unavailable";
pub const OUTSIDE_CARD_WINDOW: &str = "tyros.outside_card_window";
pub const NO_WIND: &str = "tyros.no_wind";
pub const NO_EXPLORER: &str = "tyros.no_explorer";
pub const INVALID_RELOCATION: &str = "tyros.invalid_relocation";
pub const CANNOT_SINK: &str = "tyros.cannot_sink";
pub const PASS_NOT_ALLOWED: &str = "tyros.pass_not_allowed";
pub const CANNOT_END_TURN: &str = "tyros.cannot_end_turn";
pub const NO_DUE: &str = "tyros.no_due";
pub const INVALID_PAYMENT: &str = "tyros.invalid_payment";
pub const NO_FIGHT_DECISION: &str = "tyros.no_fight_decision";
pub const INVALID_FIGHT_CARDS: &str = "tyros.invalid_fight_cards";
pub const NO_KEEP_DUE: &str = "tyros.no_keep_due";
pub const TRADE_LEAVES_NO_ACTION: &str = "tyros.trade_leaves_no_action";

/// Every Tyros code, for the stability test and the API documentation.
pub const ALL: &[&str] = &[
    WRONG_PHASE,
    DECISION_PENDING,
    TILE_NOT_IN_HAND,
    TILE_NOT_PLACEABLE,
    EMPIRE_CHOICE_REQUIRED,
    EMPIRE_NOT_ADJACENT,
    ACTION_ALREADY_TAKEN,
    NOT_YOUR_SHIP,
    SHIP_NOT_ON_BOARD,
    INVALID_PATH,
    INVALID_DESTINATION,
    DESTINATION_FULL,
    CANNOT_AFFORD,
    COST_MISMATCH,
    NOT_AN_EMPIRE_FIELD,
    CITY_SITE_TAKEN,
    RIVAL_SHIP_PRESENT,
    NO_CITY_MARKERS,
    NO_SHIP_IN_SUPPLY,
    NOT_A_SHIPYARD,
    SHIPYARD_FULL,
    NO_GALLEY_TOKEN,
    VARIANT_OFF,
    BANK_TRADE_USED,
    BAD_CARD_COUNT,
    CARDS_NOT_IN_HAND,
    INVALID_OFFER,
    TRADE_USED,
    NO_OFFER,
    ACTION_CARD_UNAVAILABLE,
    OUTSIDE_CARD_WINDOW,
    NO_WIND,
    NO_EXPLORER,
    INVALID_RELOCATION,
    CANNOT_SINK,
    PASS_NOT_ALLOWED,
    CANNOT_END_TURN,
    NO_DUE,
    INVALID_PAYMENT,
    NO_FIGHT_DECISION,
    INVALID_FIGHT_CARDS,
    NO_KEEP_DUE,
    TRADE_LEAVES_NO_ACTION,
];
