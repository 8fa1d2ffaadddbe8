//! Acquire's rejection codes. They are stable API: clients match on them, so a code is never
//! renamed or reused for another meaning (the list is pinned by `every_code_is_listed_once`).
//! The shared codes `not_your_turn` and `game_over` come from [`crate::RuleError`].

pub const TILE_NOT_IN_HAND: &str = "acquire.tile_not_in_hand";
pub const UNPLAYABLE_TILE: &str = "acquire.unplayable_tile";
pub const CHAIN_NAME_REQUIRED: &str = "acquire.chain_name_required";
pub const CHAIN_NAME_UNEXPECTED: &str = "acquire.chain_name_unexpected";
pub const CHAIN_ALREADY_ACTIVE: &str = "acquire.chain_already_active";
pub const TILE_ALREADY_PLACED: &str = "acquire.tile_already_placed";
pub const PLACEMENT_REQUIRED: &str = "acquire.placement_required";
pub const MERGER_PENDING: &str = "acquire.merger_pending";
pub const NO_MERGER_DECISION: &str = "acquire.no_merger_decision";
pub const NOT_LARGEST_CHAIN: &str = "acquire.not_largest_chain";
pub const INVALID_DEFUNCT_ORDER: &str = "acquire.invalid_defunct_order";
pub const NOT_ENOUGH_SHARES: &str = "acquire.not_enough_shares";
pub const ODD_TRADE: &str = "acquire.odd_trade";
pub const SURVIVOR_STOCK_EXHAUSTED: &str = "acquire.survivor_stock_exhausted";
pub const BUY_LIMIT_REACHED: &str = "acquire.buy_limit_reached";
pub const CHAIN_NOT_ACTIVE: &str = "acquire.chain_not_active";
pub const BANK_OUT_OF_SHARES: &str = "acquire.bank_out_of_shares";
pub const INSUFFICIENT_CASH: &str = "acquire.insufficient_cash";
pub const END_CONDITIONS_UNMET: &str = "acquire.end_conditions_unmet";
pub const ANNOUNCE_AFTER_BUYING: &str = "acquire.announce_after_buying";
pub const END_ALREADY_ANNOUNCED: &str = "acquire.end_already_announced";

/// Every Acquire code, for the stability test and the API documentation.
pub const ALL: &[&str] = &[
    TILE_NOT_IN_HAND,
    UNPLAYABLE_TILE,
    CHAIN_NAME_REQUIRED,
    CHAIN_NAME_UNEXPECTED,
    CHAIN_ALREADY_ACTIVE,
    TILE_ALREADY_PLACED,
    PLACEMENT_REQUIRED,
    MERGER_PENDING,
    NO_MERGER_DECISION,
    NOT_LARGEST_CHAIN,
    INVALID_DEFUNCT_ORDER,
    NOT_ENOUGH_SHARES,
    ODD_TRADE,
    SURVIVOR_STOCK_EXHAUSTED,
    BUY_LIMIT_REACHED,
    CHAIN_NOT_ACTIVE,
    BANK_OUT_OF_SHARES,
    INSUFFICIENT_CASH,
    END_CONDITIONS_UNMET,
    ANNOUNCE_AFTER_BUYING,
    END_ALREADY_ANNOUNCED,
];
