//! Validates JSON against the schemas of the JSON vocabulary in
//! `docs/schema/` (draft 2020-12, by the `boon` validator), so that the
//! documented objects and the real output cannot drift apart.

#![allow(dead_code)]

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use boon::{Compiler, SchemaIndex, Schemas};
use serde_json::Value;

/// Every schema in `docs/schema/`, by file name without `.schema.json`.
pub const NAMES: [&str; 18] = [
    "cell",
    "flip",
    "flip-lookup",
    "euler",
    "euler-lookup",
    "carcassonne",
    "carcassonne-cases",
    "lights",
    "lights-solve",
    "lights-lookup",
    "lights-info",
    "error",
    "sizes",
    "health",
    "check",
    "generate",
    "games",
    "solve",
];

/// `docs/schema/`.
pub fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../docs/schema")
        .canonicalize()
        .expect("docs/schema exists")
}

/// The compiled schemas of one test thread.
struct Compiled {
    compiler: Compiler,
    schemas: Schemas,
    index: HashMap<String, SchemaIndex>,
}

thread_local! {
    static COMPILED: RefCell<Compiled> = RefCell::new(Compiled {
        compiler: Compiler::new(),
        schemas: Schemas::new(),
        index: HashMap::new(),
    });
}

/// Whether `value` is valid against `docs/schema/NAME.schema.json`: the
/// validator's message when it is not. Panics when the schema itself does
/// not compile (a broken schema is a failed test, never a pass).
pub fn validate(name: &str, value: &Value) -> Result<(), String> {
    COMPILED.with(|c| {
        let mut c = c.borrow_mut();
        let c = &mut *c;
        let index = match c.index.get(name) {
            Some(&i) => i,
            None => {
                let path = dir().join(format!("{name}.schema.json"));
                let location = path.to_str().expect("UTF-8 path").to_owned();
                let i = c
                    .compiler
                    .compile(&location, &mut c.schemas)
                    .unwrap_or_else(|e| panic!("{name}.schema.json does not compile: {e:#}"));
                c.index.insert(name.to_owned(), i);
                i
            }
        };
        c.schemas
            .validate(value, index)
            .map_err(|e| format!("{e:#}"))
    })
}

/// Asserts that `value` is valid against `NAME.schema.json`.
pub fn assert_valid(name: &str, value: &Value, what: &str) {
    if let Err(e) = validate(name, value) {
        panic!("{what}: not a valid {name} object:\n{value}\n{e}");
    }
}

/// Asserts that `value` is NOT valid against `NAME.schema.json` (the
/// schemas can fail).
pub fn assert_invalid(name: &str, value: &Value, what: &str) {
    assert!(
        validate(name, value).is_err(),
        "{what}: accepted by {name}.schema.json, which should reject it:\n{value}"
    );
}

/// The lines of `stdout`, each a JSON object valid against
/// `NAME.schema.json`, numbered by `case` from 1.
pub fn valid_lines(name: &str, stdout: &str, what: &str) -> Vec<Value> {
    let lines: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{what}: not JSON ({e}): {l}")))
        .collect();
    for (i, v) in lines.iter().enumerate() {
        assert_valid(name, v, &format!("{what}, line {}", i + 1));
        assert_eq!(v["case"], i + 1, "{what}: cases are numbered from 1");
    }
    lines
}

/// `value` with its field `key` renamed to `to` (at the top level).
pub fn renamed(value: &Value, key: &str, to: &str) -> Value {
    let mut v = value.clone();
    let map = v.as_object_mut().expect("an object");
    let field = map.remove(key).unwrap_or_else(|| panic!("no field {key}"));
    map.insert(to.to_owned(), field);
    v
}

/// `value` with `key` set to `to`.
pub fn with(value: &Value, key: &str, to: Value) -> Value {
    let mut v = value.clone();
    v.as_object_mut()
        .expect("an object")
        .insert(key.to_owned(), to);
    v
}
