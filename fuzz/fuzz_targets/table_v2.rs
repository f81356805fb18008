#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| boardbase_fuzz::table_v2::check(data));
