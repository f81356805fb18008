//! `kayles [POSITION]`: a Kayles position's outcome and best move, from the
//! table built into this binary (the start when no position is given).

use std::process::ExitCode;

use boardbase_tables::game::Text;
use kayles::rules::Kayles;

fn main() -> ExitCode {
    let arg = std::env::args().nth(1);
    let position = match arg.as_deref().map(|text| Kayles.read_position(text)) {
        None => kayles::start(),
        Some(Ok(p)) => p,
        Some(Err(e)) => {
            eprintln!("error: position:{e}");
            return ExitCode::from(2);
        }
    };
    let mut text = String::new();
    let _ = Kayles.write_position(position, &mut text);
    match kayles::best_move(position) {
        Some((knock, _)) => {
            let mut name = String::new();
            let _ = Kayles.write_move(position, knock, &mut name);
            println!("{text}: {}, best move {name}", kayles::outcome(position));
        }
        None => println!("{text}: {}", kayles::outcome(position)),
    }
    ExitCode::SUCCESS
}
