//! Tycoon's rejection codes. They are stable API: clients match on them, so a code is never
//! renamed or reused for another meaning (the list is pinned by `every_code_is_listed_once`).

use crate::RuleError;

pub const TICKET_NOT_DISPLAYED: &str = "tycoon.ticket_not_displayed";
pub const TICKET_NOT_IN_HAND: &str = "tycoon.ticket_not_in_hand";
pub const INSUFFICIENT_CASH: &str = "tycoon.insufficient_cash";
pub const UNREACHABLE_CITY: &str = "tycoon.unreachable_city";
pub const DIRECT_FLIGHT_REQUIRED: &str = "tycoon.direct_flight_required";
pub const FLIGHT_AFTER_BUILD: &str = "tycoon.flight_after_build";
pub const NOT_IN_CITY: &str = "tycoon.not_in_city";
pub const LANDING_FIELDS_FULL: &str = "tycoon.landing_fields_full";
pub const NO_HOTELS_IN_SUPPLY: &str = "tycoon.no_hotels_in_supply";
pub const CITY_FULL: &str = "tycoon.city_full";
pub const NO_CLOSED_HOTEL: &str = "tycoon.no_closed_hotel";
pub const FACTORY_FIELDS_FULL: &str = "tycoon.factory_fields_full";
pub const NO_FACTORIES_LEFT: &str = "tycoon.no_factories_left";
pub const MAIN_ACTION_TAKEN: &str = "tycoon.main_action_taken";
pub const MAIN_ACTION_REQUIRED: &str = "tycoon.main_action_required";
pub const LOAN_TURN_NOT_PURE: &str = "tycoon.loan_turn_not_pure";
pub const NO_LOAN_CARDS: &str = "tycoon.no_loan_cards";
pub const LOAN_CARDS_REMAIN: &str = "tycoon.loan_cards_remain";
pub const LOAN_SETTLEMENT_PENDING: &str = "tycoon.loan_settlement_pending";
pub const NOT_LOAN_SETTLEMENT: &str = "tycoon.not_loan_settlement";
pub const NO_SUCH_LOAN: &str = "tycoon.no_such_loan";

/// Every Tycoon code, for the stability test and the API documentation.
pub const ALL: &[&str] = &[
    TICKET_NOT_DISPLAYED,
    TICKET_NOT_IN_HAND,
    INSUFFICIENT_CASH,
    UNREACHABLE_CITY,
    DIRECT_FLIGHT_REQUIRED,
    FLIGHT_AFTER_BUILD,
    NOT_IN_CITY,
    LANDING_FIELDS_FULL,
    NO_HOTELS_IN_SUPPLY,
    CITY_FULL,
    NO_CLOSED_HOTEL,
    FACTORY_FIELDS_FULL,
    NO_FACTORIES_LEFT,
    MAIN_ACTION_TAKEN,
    MAIN_ACTION_REQUIRED,
    LOAN_TURN_NOT_PURE,
    NO_LOAN_CARDS,
    LOAN_CARDS_REMAIN,
    LOAN_SETTLEMENT_PENDING,
    NOT_LOAN_SETTLEMENT,
    NO_SUCH_LOAN,
];

pub fn insufficient_cash(rule: &'static str, what: &str, price: i32, cash: i32) -> RuleError {
    RuleError::new(
        INSUFFICIENT_CASH,
        rule,
        format!("{what} costs {price} M but only {cash} M is on hand (B8)"),
    )
}
