//! The query strings, read by serde into one struct a route, each
//! parameter at most once, unknown ones refused.
//!
//! The pairs of `application/x-www-form-urlencoded` (percent escapes and
//! `+` decoded, invalid UTF-8 replaced) go to the struct's derived
//! `Deserialize` through [`Pairs`], whose error type is the server's own,
//! [`ApiError::Parameter`], naming the parameter at fault, so that every
//! route words a bad query the same way. Values are read with blanks
//! around them trimmed, except the board of Flip and Euler, whose parser
//! counts columns from its first byte.

use std::borrow::Cow;
use std::fmt;

use boardbase::error::Kind;
use boardbase::lights::family::{self, FamilyGoal, Pattern};
use boardbase::tables::shape::Shape;
use serde::de::value::{BorrowedStrDeserializer, StrDeserializer, StringDeserializer};
use serde::de::{self, DeserializeSeed, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};

use super::error::ApiError;

/// The parameter `key` given twice.
pub fn repeated(key: &str) -> ApiError {
    ApiError::parameter(key, Kind::Option, format!("{key} is given more than once"))
}

/// The parameter `key` missing.
pub fn missing(key: &str) -> ApiError {
    let hint = match key {
        "size" => "the board size RxC (e.g. 4x4)",
        "game" => "the game's name (GET /api/v1/games lists them)",
        _ => "the rows of the board separated by '/'",
    };
    ApiError::parameter(
        key,
        Kind::Option,
        format!("missing parameter {key}: {hint}"),
    )
}

/// The parameter `key` that the route does not take; it takes `expected`.
pub fn unknown(key: &str, expected: &str) -> ApiError {
    let message = format!("unknown parameter {key:?}: expected {expected}");
    ApiError::parameter(key, Kind::Option, message)
}

/// The value of `key` that cannot be, for `reason`.
pub fn invalid(key: &str, reason: impl fmt::Display) -> ApiError {
    ApiError::parameter(key, Kind::Option, format!("{key}: {reason}"))
}

/// The query's errors are the server's own: [`Pairs`] names the parameter
/// of a value's error and words what the route takes.
impl de::Error for ApiError {
    fn custom<T: fmt::Display>(reason: T) -> ApiError {
        // No parameter yet: [`Pairs`] names it.
        ApiError::parameter(String::new(), Kind::Option, reason.to_string())
    }

    fn unknown_field(key: &str, _expected: &'static [&'static str]) -> ApiError {
        // [`Pairs`] words what the route takes.
        unknown(key, "")
    }

    fn duplicate_field(key: &'static str) -> ApiError {
        repeated(key)
    }

    fn missing_field(key: &'static str) -> ApiError {
        missing(key)
    }
}

/// A route's query struct.
pub trait Params<'q>: Deserialize<'q> {
    /// What the route takes, in words, for the unknown-parameter error.
    const EXPECTED: &'static str;
}

/// Reads `query` (absent: empty) into `T`.
pub fn parse<'q, T: Params<'q>>(query: Option<&'q str>) -> Result<T, ApiError> {
    let pairs = Pairs {
        pairs: form_urlencoded::parse(query.unwrap_or("").as_bytes()),
        value: None,
        expected: T::EXPECTED,
    };
    T::deserialize(de::value::MapAccessDeserializer::new(pairs))
}

/// The pairs of a query as a serde map, each value's error named after its
/// parameter. Values are lent from the query when they need no decoding.
struct Pairs<'q> {
    pairs: form_urlencoded::Parse<'q>,
    value: Option<(Cow<'q, str>, Cow<'q, str>)>,
    /// What the route takes, in words, for the unknown-parameter error.
    expected: &'static str,
}

impl<'q> MapAccess<'q> for Pairs<'q> {
    type Error = ApiError;

    fn next_key_seed<K: DeserializeSeed<'q>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, ApiError> {
        let Some((key, value)) = self.pairs.next() else {
            return Ok(None);
        };
        // A key fails only as a parameter the route does not take.
        let field = seed
            .deserialize(StrDeserializer::<ApiError>::new(&key))
            .map_err(|_| unknown(&key, self.expected))?;
        self.value = Some((key, value));
        Ok(Some(field))
    }

    fn next_value_seed<V: DeserializeSeed<'q>>(&mut self, seed: V) -> Result<V::Value, ApiError> {
        let Some((key, value)) = self.value.take() else {
            return Err(de::Error::custom("a value without its parameter"));
        };
        let read = match value {
            Cow::Borrowed(text) => seed.deserialize(BorrowedStrDeserializer::new(text)),
            Cow::Owned(text) => seed.deserialize(StringDeserializer::new(text)),
        };
        read.map_err(|e| match e {
            ApiError::Parameter {
                key: unnamed,
                message,
                ..
            } if unnamed.is_empty() => invalid(&key, message),
            e => e,
        })
    }
}

/// Reads a value, trimmed, with `parse`.
fn parsed<'q, D: Deserializer<'q>, T>(
    deserializer: D,
    parse: fn(&str) -> Result<T, String>,
) -> Result<T, D::Error> {
    struct Text<T>(fn(&str) -> Result<T, String>);
    impl<T> Visitor<'_> for Text<T> {
        type Value = T;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("text")
        }
        fn visit_str<E: de::Error>(self, text: &str) -> Result<T, E> {
            (self.0)(text.trim()).map_err(E::custom)
        }
    }
    deserializer.deserialize_str(Text(parse))
}

/// `size`: RxC, 1 to 64 rows and columns.
fn size<'q, D: Deserializer<'q>>(d: D) -> Result<Shape, D::Error> {
    parsed(d, |text| {
        Shape::parse(text).ok_or_else(|| {
            format!("expected RxC with 1 to 64 rows and columns (e.g. 4x4), found {text:?}")
        })
    })
}

fn some_size<'q, D: Deserializer<'q>>(d: D) -> Result<Option<Shape>, D::Error> {
    size(d).map(Some)
}

/// A value given, as it is (a value is never absent).
fn some_text<'q, D: Deserializer<'q>>(d: D) -> Result<Option<String>, D::Error> {
    String::deserialize(d).map(Some)
}

/// `colours`: 2 to 16.
fn colours<'q, D: Deserializer<'q>>(d: D) -> Result<u8, D::Error> {
    parsed(d, |text| {
        text.parse::<u8>()
            .ok()
            .filter(|k| (family::MIN_COLOURS..=family::MAX_COLOURS).contains(k))
            .ok_or_else(|| {
                format!(
                    "expected {} to {}, found {text:?}",
                    family::MIN_COLOURS,
                    family::MAX_COLOURS
                )
            })
    })
}

/// `wrap`: `true` or `false`.
fn wrap<'q, D: Deserializer<'q>>(d: D) -> Result<bool, D::Error> {
    parsed(d, |text| match text {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!("expected true or false, found {text:?}")),
    })
}

/// `pattern`: a name or a stencil.
fn pattern<'q, D: Deserializer<'q>>(d: D) -> Result<Pattern, D::Error> {
    parsed(d, |text| {
        text.parse()
            .map_err(|e: boardbase::lights::LightsError| e.to_string())
    })
}

/// `goal`: a colour or `any`.
fn goal<'q, D: Deserializer<'q>>(d: D) -> Result<FamilyGoal, D::Error> {
    parsed(d, |text| {
        text.parse()
            .map_err(|e: boardbase::lights::LightsError| e.to_string())
    })
}

/// `GET /api/v1/flip` and `/api/v1/euler`: `board=ROWS[&size=RxC]`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardQuery<'q> {
    /// The rows, as given.
    #[serde(borrow)]
    pub board: Cow<'q, str>,
    /// The size, if given.
    #[serde(default, deserialize_with = "some_size")]
    pub size: Option<Shape>,
}

impl<'q> Params<'q> for BoardQuery<'q> {
    const EXPECTED: &'static str = "board (rows separated by '/') and optionally size (RxC)";
}

/// The variant of the Lights Out family, as `boardbase lights` takes it,
/// with its defaults (2 colours, no wrap, plus).
pub struct VariantParams {
    /// Colours, 2 to 16.
    pub colours: u8,
    /// Whether the board wraps round.
    pub wrap: bool,
    /// Which cells a press changes.
    pub pattern: Pattern,
}

fn two() -> u8 {
    2
}

fn plus() -> Pattern {
    Pattern::Plus
}

fn off() -> FamilyGoal {
    FamilyGoal::OFF
}

/// `GET /api/v1/lights`: `board=ROWS[&colours=K&wrap=B&pattern=P&goal=G]`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LightsQuery {
    /// The rows; checked after the goal, so that a goal past the colours
    /// is said first.
    #[serde(default, deserialize_with = "some_text")]
    board: Option<String>,
    #[serde(default = "two", deserialize_with = "colours")]
    colours: u8,
    #[serde(default, deserialize_with = "wrap")]
    wrap: bool,
    #[serde(default = "plus", deserialize_with = "pattern")]
    pattern: Pattern,
    #[serde(default = "off", deserialize_with = "goal")]
    goal: FamilyGoal,
}

impl Params<'_> for LightsQuery {
    const EXPECTED: &'static str =
        "board (rows separated by '/') and optionally colours, wrap, pattern and goal";
}

impl LightsQuery {
    /// The board's text (trimmed), the variant and the goal, once the goal
    /// is checked against the colours.
    pub fn checked(self) -> Result<(String, VariantParams, FamilyGoal), ApiError> {
        if let FamilyGoal::Colour(d) = self.goal
            && d >= self.colours
        {
            let (k, last) = (self.colours, self.colours - 1);
            return Err(invalid(
                "goal",
                format!("colour {d}, but there are {k} colours (0 to {last})"),
            ));
        }
        let board = self.board.ok_or_else(|| missing("board"))?;
        let variant = VariantParams {
            colours: self.colours,
            wrap: self.wrap,
            pattern: self.pattern,
        };
        Ok((board.trim().to_owned(), variant, self.goal))
    }
}

/// `GET /api/v1/lights/info`: `size=RxC[&colours=K&wrap=B&pattern=P]`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LightsInfoQuery {
    /// The board size.
    #[serde(deserialize_with = "size")]
    pub size: Shape,
    #[serde(default = "two", deserialize_with = "colours")]
    colours: u8,
    #[serde(default, deserialize_with = "wrap")]
    wrap: bool,
    #[serde(default = "plus", deserialize_with = "pattern")]
    pattern: Pattern,
}

impl Params<'_> for LightsInfoQuery {
    const EXPECTED: &'static str = "size (RxC) and optionally colours, wrap and pattern";
}

impl LightsInfoQuery {
    /// The size and the variant asked for.
    pub fn variant(self) -> (Shape, VariantParams) {
        let params = VariantParams {
            colours: self.colours,
            wrap: self.wrap,
            pattern: self.pattern,
        };
        (self.size, params)
    }
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use boardbase::lights::family::FamilyGoal;

    use super::{ApiError, BoardQuery, LightsInfoQuery, LightsQuery, parse};

    /// The message and the parameter of a query's error, as its body
    /// gives them.
    fn message(e: ApiError) -> (String, String) {
        let body = e.body();
        let text = |key: &str| {
            body.get(key)
                .and_then(|v| v.as_str())
                .unwrap_or("")
                .to_owned()
        };
        (text("error"), text("parameter"))
    }

    /// The message and the parameter of a query's error.
    fn error<'q, T: super::Params<'q>>(query: &'q str) -> (String, String) {
        match parse::<T>(Some(query)) {
            Ok(_) => panic!("{query:?} was read"),
            Err(e) => message(e),
        }
    }

    #[test]
    fn a_board_is_lent_from_the_query_unless_it_is_decoded() {
        let q: BoardQuery = parse(Some("board=bw/wb&size=2x2")).unwrap();
        assert!(matches!(q.board, Cow::Borrowed("bw/wb")));
        assert_eq!(q.size.map(|s| s.to_string()).as_deref(), Some("2x2"));
        let q: BoardQuery = parse(Some("size=+2x2+&board=+bw%0Awb")).unwrap();
        // Decoded, and not trimmed: its parser counts columns from here.
        assert!(matches!(q.board, Cow::Owned(ref b) if b == " bw\nwb"));
        assert_eq!(q.size.map(|s| s.to_string()).as_deref(), Some("2x2"));
    }

    #[test]
    fn the_first_bad_parameter_is_the_error_then_a_missing_one() {
        let flip = "board (rows separated by '/') and optionally size (RxC)";
        for (query, message, parameter) in [
            (
                "",
                "missing parameter board: the rows of the board separated by '/'".to_owned(),
                "board",
            ),
            (
                "size=4x4",
                "missing parameter board: the rows of the board separated by '/'".to_owned(),
                "board",
            ),
            (
                "foo=1&size=zz",
                format!("unknown parameter \"foo\": expected {flip}"),
                "foo",
            ),
            (
                "size=zz&foo=1",
                "size: expected RxC with 1 to 64 rows and columns (e.g. 4x4), found \"zz\""
                    .to_owned(),
                "size",
            ),
            (
                "board=b&board=w&foo=1",
                "board is given more than once".to_owned(),
                "board",
            ),
            (
                "bo%61rd=b&board=w",
                "board is given more than once".to_owned(),
                "board",
            ),
        ] {
            assert_eq!(
                error::<BoardQuery>(query),
                (message, parameter.to_owned()),
                "{query}"
            );
        }
    }

    #[test]
    fn lights_queries_have_the_options_defaults_and_check_the_goal_first() {
        let (board, variant, goal) = parse::<LightsQuery>(Some("board=+10/01+"))
            .unwrap()
            .checked()
            .unwrap();
        assert_eq!(board, "10/01");
        assert_eq!((variant.colours, variant.wrap), (2, false));
        assert_eq!(variant.pattern.to_string(), "plus");
        assert!(matches!(goal, FamilyGoal::Colour(0)));
        let checked = |query| {
            parse::<LightsQuery>(Some(query))
                .and_then(LightsQuery::checked)
                .map(|_| ())
                .map_err(message)
        };
        assert_eq!(
            checked("colours=3&goal=5"),
            Err((
                "goal: colour 5, but there are 3 colours (0 to 2)".into(),
                "goal".into()
            ))
        );
        assert_eq!(
            checked("colours=3"),
            Err((
                "missing parameter board: the rows of the board separated by '/'".into(),
                "board".into()
            ))
        );
        assert_eq!(
            checked("board=1&wrap=yes"),
            Err((
                "wrap: expected true or false, found \"yes\"".into(),
                "wrap".into()
            ))
        );
        assert_eq!(
            checked("board=1&colours=17"),
            Err((
                "colours: expected 2 to 16, found \"17\"".into(),
                "colours".into()
            ))
        );
        assert_eq!(
            error::<LightsInfoQuery>("colours=3&goal=1"),
            (
                "unknown parameter \"goal\": expected size (RxC) and optionally colours, wrap and pattern".into(),
                "goal".into()
            )
        );
        assert_eq!(
            error::<LightsInfoQuery>("colours=3"),
            (
                "missing parameter size: the board size RxC (e.g. 4x4)".into(),
                "size".into()
            )
        );
    }
}
