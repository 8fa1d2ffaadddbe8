//! Fair dice from any RNG. Each die takes the first 32-bit draw below the largest multiple of 6
//! (rejection sampling), so every face is exactly equally likely and a test can script a roll by
//! feeding the draws `face - 1`.

use crate::chance::Chance;

/// One die, 1 to 6.
pub fn die(chance: &mut dyn Chance) -> u8 {
    crate::chance::die(chance, 6)
}

/// Both dice (MO-COMP-7).
pub fn roll(chance: &mut dyn Chance) -> [u8; 2] {
    [die(chance), die(chance)]
}
