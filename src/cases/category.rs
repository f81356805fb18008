//! The names of a puzzle's categories of cases: each category enum
//! (`FlipCategory`, ...) gets them from [`category_names!`], so that every
//! puzzle's are listed, read and written alike.

/// Gives a category enum its names, in the order given: `ALL` (every
/// category with its name), `name`, [`FromStr`](std::str::FromStr) (an
/// unknown name refused as [`category_named`] says it, naming the puzzle)
/// and [`Display`](std::fmt::Display) (the name).
macro_rules! category_names {
    ($category:ident, $puzzle:literal, [$($name:literal => $variant:ident),+ $(,)?]) => {
        impl $category {
            /// Every category, with its name.
            pub const ALL: [(&'static str, $category); [$($name),+].len()] =
                [$(($name, $category::$variant)),+];

            /// Its name (`random`, ...).
            pub fn name(self) -> &'static str {
                $crate::cases::category::category_name(&$category::ALL, &self)
            }
        }

        impl ::std::str::FromStr for $category {
            type Err = String;

            fn from_str(s: &str) -> Result<$category, String> {
                $crate::cases::category::category_named(&$category::ALL, $puzzle, s)
            }
        }

        impl ::std::fmt::Display for $category {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}

pub(crate) use category_names;

/// The category named `s` among `all`, or the error the command line shows:
/// `unknown {puzzle} family 's' (expected a, b or c)` ("family" being the
/// front ends' name of the option that takes it, `--family`).
pub(crate) fn category_named<F: Copy>(
    all: &[(&'static str, F)],
    puzzle: &str,
    s: &str,
) -> Result<F, String> {
    if let Some(&(_, category)) = all.iter().find(|(name, _)| *name == s) {
        return Ok(category);
    }
    let names: Vec<&str> = all.iter().map(|&(name, _)| name).collect();
    let expected = match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => names.concat(),
    };
    Err(format!(
        "unknown {puzzle} family '{s}' (expected {expected})"
    ))
}

/// The name of `category` in `all` (`?` if it is missing).
pub(crate) fn category_name<F: PartialEq>(all: &[(&'static str, F)], category: &F) -> &'static str {
    all.iter()
        .find(|(_, f)| f == category)
        .map_or("?", |&(name, _)| name)
}
