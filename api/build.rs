//! Rebuilds the crate when a file of the web client changes, so the embedded copy is current
//! (a new file in `web/static/` is noticed too, which the embedding macro alone would miss).

fn main() {
    println!("cargo:rerun-if-changed=../web/static");
}
