#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| boardbase_fuzz::flip_input::check(data));
