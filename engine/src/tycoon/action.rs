//! What a seat may ask for. The JSON form (`{"type": "fly", "ticket": "S09", "to": "cairo"}`) is
//! stable API: variants and fields are only ever added.

use super::data::{City, LoanKind, Ticket};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TycoonAction))]
pub enum Action {
    /// Buy a face-up ticket (TY-TIX-1).
    BuyTicket { ticket: Ticket },
    /// Fly with a ticket from the hand to `to` (TY-FLY-1..5).
    Fly { ticket: Ticket, to: City },
    /// Build a hotel where the plane stands (TY-HOTEL-1).
    BuildHotel,
    /// Bring back one of one's closed hotels where the plane stands (TY-RENO-1).
    RenovateHotel,
    /// Build a factory where the plane stands (TY-FAC-1).
    BuildFactory,
    /// Return home free and borrow; ends the turn (TY-LOAN-1, L1).
    TakeLoan { loan: LoanKind },
    /// The loan action when no loan card is left: return home and end the turn (L2, P4).
    Pass,
    /// End the turn after the main action (TY-TURN-4).
    EndTurn,
    /// After payday 1 or 2: repay or extend one unextended card of this kind (TY-AFTER-1).
    SettleLoan {
        loan: LoanKind,
        decision: LoanDecision,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TycoonLoanDecision))]
pub enum LoanDecision {
    Repay,
    Extend,
}
