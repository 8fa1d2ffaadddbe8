//! Monopoly's rejection codes. They are stable API: clients match on them, so a code is never
//! renamed or reused for another meaning (the list is pinned by `published_codes_are_stable`).
//! Seats that may not act at all get the shared `not_your_turn` and `game_over`.

pub(crate) use crate::refusal::{Refusal, Refused};
use crate::RuleError;

pub const BANKRUPT: &str = "monopoly.bankrupt";
pub const AUCTION_RUNNING: &str = "monopoly.auction_running";
pub const SHORTAGE_WINDOW_OPEN: &str = "monopoly.shortage_window_open";
pub const INHERITANCE_PENDING: &str = "monopoly.inheritance_pending";
pub const DEBT_PENDING: &str = "monopoly.debt_pending";
pub const ROLL_NOT_OWED: &str = "monopoly.roll_not_owed";
pub const DECISION_PENDING: &str = "monopoly.decision_pending";
pub const TURN_NOT_FINISHED: &str = "monopoly.turn_not_finished";
pub const NO_PURCHASE_OFFERED: &str = "monopoly.no_purchase_offered";
pub const NO_CARD_CHOICE: &str = "monopoly.no_card_choice";
pub const INSUFFICIENT_CASH: &str = "monopoly.insufficient_cash";
pub const NOT_IN_JAIL: &str = "monopoly.not_in_jail";
pub const JAIL_EXIT_AFTER_ROLL: &str = "monopoly.jail_exit_after_roll";
pub const NO_SUCH_CARD: &str = "monopoly.no_such_card";
pub const NO_SUCH_RENT: &str = "monopoly.no_such_rent";
pub const NOT_RENT_OWNER: &str = "monopoly.not_rent_owner";
pub const NOT_OWNER: &str = "monopoly.not_owner";
pub const NOT_A_STREET: &str = "monopoly.not_a_street";
pub const GROUP_INCOMPLETE: &str = "monopoly.group_incomplete";
pub const GROUP_MORTGAGED: &str = "monopoly.group_mortgaged";
pub const UNEVEN: &str = "monopoly.uneven";
pub const STREET_FULL: &str = "monopoly.street_full";
pub const BANK_OUT_OF_BUILDINGS: &str = "monopoly.bank_out_of_buildings";
pub const SHORTAGE_REQUEST_MIXED: &str = "monopoly.shortage_request_mixed";
pub const EMPTY_REQUEST: &str = "monopoly.empty_request";
pub const NO_BUILDINGS: &str = "monopoly.no_buildings";
pub const ALREADY_MORTGAGED: &str = "monopoly.already_mortgaged";
pub const NOT_MORTGAGED: &str = "monopoly.not_mortgaged";
pub const GROUP_HAS_BUILDINGS: &str = "monopoly.group_has_buildings";
pub const TRADE_WITH_SELF: &str = "monopoly.trade_with_self";
pub const OFFER_ALREADY_OPEN: &str = "monopoly.offer_already_open";
pub const BAD_TRADE_ITEM: &str = "monopoly.bad_trade_item";
pub const BAD_LIFT_CHOICE: &str = "monopoly.bad_lift_choice";
pub const NEGATIVE_AMOUNT: &str = "monopoly.negative_amount";
pub const NO_SUCH_OFFER: &str = "monopoly.no_such_offer";
pub const NOT_OFFER_PARTY: &str = "monopoly.not_offer_party";
pub const NO_AUCTION: &str = "monopoly.no_auction";
pub const NOT_BIDDER: &str = "monopoly.not_bidder";
pub const BID_TOO_LOW: &str = "monopoly.bid_too_low";
pub const HIGH_BIDDER_WAITS: &str = "monopoly.high_bidder_waits";
pub const NOT_DECLARING: &str = "monopoly.not_declaring";
pub const WRONG_BUILDING_KIND: &str = "monopoly.wrong_building_kind";
pub const NO_DEBT: &str = "monopoly.no_debt";
pub const BANKRUPTCY_NOT_ALLOWED: &str = "monopoly.bankruptcy_not_allowed";
pub const NO_INHERITANCE: &str = "monopoly.no_inheritance";
pub const EMPTY_OFFER: &str = "monopoly.empty_offer";

/// Every Monopoly code, for the stability test and the API documentation.
pub const ALL: &[&str] = &[
    BANKRUPT,
    AUCTION_RUNNING,
    SHORTAGE_WINDOW_OPEN,
    INHERITANCE_PENDING,
    DEBT_PENDING,
    ROLL_NOT_OWED,
    DECISION_PENDING,
    TURN_NOT_FINISHED,
    NO_PURCHASE_OFFERED,
    NO_CARD_CHOICE,
    INSUFFICIENT_CASH,
    NOT_IN_JAIL,
    JAIL_EXIT_AFTER_ROLL,
    NO_SUCH_CARD,
    NO_SUCH_RENT,
    NOT_RENT_OWNER,
    NOT_OWNER,
    NOT_A_STREET,
    GROUP_INCOMPLETE,
    GROUP_MORTGAGED,
    UNEVEN,
    STREET_FULL,
    BANK_OUT_OF_BUILDINGS,
    SHORTAGE_REQUEST_MIXED,
    EMPTY_REQUEST,
    NO_BUILDINGS,
    ALREADY_MORTGAGED,
    NOT_MORTGAGED,
    GROUP_HAS_BUILDINGS,
    TRADE_WITH_SELF,
    OFFER_ALREADY_OPEN,
    BAD_TRADE_ITEM,
    BAD_LIFT_CHOICE,
    NEGATIVE_AMOUNT,
    NO_SUCH_OFFER,
    NOT_OFFER_PARTY,
    NO_AUCTION,
    NOT_BIDDER,
    BID_TOO_LOW,
    HIGH_BIDDER_WAITS,
    NOT_DECLARING,
    WRONG_BUILDING_KIND,
    NO_DEBT,
    BANKRUPTCY_NOT_ALLOWED,
    NO_INHERITANCE,
    EMPTY_OFFER,
];

/// A refusal with `code` under rule `rule`.
pub fn refuse(code: &'static str, rule: &'static str, message: impl Into<String>) -> RuleError {
    RuleError::new(code, rule, message)
}

/// A refusal with `code` under rule `rule` whose message is built only for a [`RuleError`]
/// (see [`Refusal`]).
pub(crate) fn refusal<E: Refusal>(
    code: &'static str,
    rule: &'static str,
    message: impl FnOnce() -> String,
) -> E {
    E::refuse(|| RuleError::new(code, rule, message()))
}

pub(crate) fn insufficient_cash<E: Refusal>(
    rule: &'static str,
    what: &str,
    price: i64,
    cash: i64,
) -> E {
    refusal(INSUFFICIENT_CASH, rule, || {
        format!("{what} costs M {price} but only M {cash} is on hand")
    })
}
