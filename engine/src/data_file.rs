//! A game's data file (`engine/rules/<game>-*.json`), compiled into the crate and parsed on
//! first use. Every game reads its board this way: rule code asks `board()` for a number
//! instead of repeating it, so a corrected board is a data change only.

use std::sync::OnceLock;

/// A data file compiled into the crate ([`data_file!`] includes it) and parsed on first use.
pub(crate) struct DataFile<T> {
    /// The file's name in `engine/rules/`, for the message when it does not parse.
    name: &'static str,
    json: &'static str,
    parse: fn(&str) -> Result<T, String>,
    parsed: OnceLock<T>,
}

impl<T> DataFile<T> {
    /// The file `name` with the text `json`, read by `parse` (which also cross-checks it).
    pub(crate) const fn new(
        name: &'static str,
        json: &'static str,
        parse: fn(&str) -> Result<T, String>,
    ) -> DataFile<T> {
        DataFile {
            name,
            json,
            parse,
            parsed: OnceLock::new(),
        }
    }

    /// The parsed file; parsed on the first call, by whichever thread comes first.
    ///
    /// # Panics
    /// When the compiled-in file does not parse: a broken build, caught by every test.
    pub(crate) fn get(&self) -> &T {
        self.parsed.get_or_init(|| {
            (self.parse)(self.json)
                .unwrap_or_else(|e| panic!("the compiled-in {} is not valid: {e}", self.name))
        })
    }
}

/// The [`DataFile`] `engine/rules/<name>`, read by `parse`: `data_file!("tycoon-board.json",
/// parse)`.
macro_rules! data_file {
    ($name:literal, $parse:expr) => {
        $crate::data_file::DataFile::new(
            $name,
            include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/rules/", $name)),
            $parse,
        )
    };
}

pub(crate) use data_file;

#[cfg(test)]
mod tests {
    use super::DataFile;

    fn count(json: &str) -> Result<usize, String> {
        serde_json::from_str::<Vec<u8>>(json)
            .map(|v| v.len())
            .map_err(|e| e.to_string())
    }

    #[test]
    fn a_file_is_parsed_once_and_kept() {
        static FILE: DataFile<usize> = DataFile::new("three.json", "[1, 2, 3]", count);
        assert_eq!(*FILE.get(), 3);
        assert!(std::ptr::eq(FILE.get(), FILE.get()));
    }

    #[test]
    #[should_panic(expected = "the compiled-in broken.json is not valid")]
    fn a_file_that_does_not_parse_names_itself() {
        static FILE: DataFile<usize> = DataFile::new("broken.json", "[1,", count);
        FILE.get();
    }

    #[test]
    fn the_macro_includes_the_file_from_engine_rules() {
        static FILE: DataFile<usize> = data_file!("tycoon-board.json", |json| Ok(json.len()));
        assert!(*FILE.get() > 1000);
    }
}
