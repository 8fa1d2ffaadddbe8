//! Fair dice from any RNG. Each die takes the first 32-bit draw below the largest multiple of 6
//! (rejection sampling), so every face is exactly equally likely and a test can script a roll by
//! feeding the draws `face - 1`.

use rand::RngCore;

/// The largest multiple of 6 that fits in a `u32` draw.
const LIMIT: u32 = u32::MAX - u32::MAX % 6;

/// One die, 1 to 6.
pub fn die(rng: &mut dyn RngCore) -> u8 {
    loop {
        let x = rng.next_u32();
        if x < LIMIT {
            return (x % 6) as u8 + 1;
        }
    }
}

/// Both dice (MO-COMP-7).
pub fn roll(rng: &mut dyn RngCore) -> [u8; 2] {
    [die(rng), die(rng)]
}
