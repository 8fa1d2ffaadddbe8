//! Tycoon tests: one module per area of the spec, scenario tests built from events.
