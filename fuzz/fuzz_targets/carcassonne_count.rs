#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| boardbase_fuzz::carcassonne_count::check(data));
