//! Games as Piskvork `.psq` files (written here; read by `crate::record`).
//!
//! The layout follows Piskvork's `savePsq` (plastovicka/Piskvork, `source/game.cpp`)
//! as a tournament writes it:
//!
//! ```text
//! Piskvorky 15x15, 11:11, 0      width x height, the two players' levels, who began
//! 8,8,0                          one line per stone: x+1,y+1,milliseconds (1-based)
//! ...
//! Black's name                   players[0], then players[1]
//! White's name
//! 0                              Piskvork's error code: 0 normal end, 15 timeout, -2 error
//! ```
//!
//! Our choices where Piskvork has none: player 0 is always Black, so the "who began"
//! field is 0; the levels are written as `11:11` (Piskvork writes `(level+1)` for
//! computer players); opening stones are ordinary lines with 0 ms; a forbidden move
//! is on the board as the last line (Piskvork also places the foul stone), an illegal
//! move is not (it has no place on the board); names are the engines' display names
//! rather than brain file names. Illegal move and crash use Piskvork's generic error
//! code -2.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context, Result};

use super::referee::Reason;

/// One stone of the record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stone {
    pub x: usize,
    pub y: usize,
    /// Thinking time; 0 for opening stones.
    pub ms: u64,
}

/// Piskvork's error code for how a game ended.
pub fn error_code(reason: &Reason) -> i32 {
    match reason {
        Reason::TimeForfeit => 15,
        Reason::Illegal(_) | Reason::Crash => -2,
        _ => 0,
    }
}

/// The text of the `.psq` file; `code` is Piskvork's error code ([`error_code`], 0 for
/// a game still going on).
pub fn format(size: usize, names: [&str; 2], stones: &[Stone], code: i32) -> String {
    let mut out = format!("Piskvorky {size}x{size}, 11:11, 0\n");
    for s in stones {
        let _ = writeln!(out, "{},{},{}", s.x + 1, s.y + 1, s.ms);
    }
    let _ = writeln!(out, "{}\n{}\n{code}", names[0], names[1]);
    out
}

/// Writes game `number` (1-based) as `DIR/game_NNNN.psq`.
pub fn save(dir: &Path, number: usize, text: &str) -> Result<()> {
    let path = dir.join(format!("game_{number:04}.psq"));
    std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piskvork_layout() {
        let stones = [
            Stone { x: 7, y: 7, ms: 0 },
            Stone {
                x: 8,
                y: 6,
                ms: 120,
            },
            Stone { x: 0, y: 14, ms: 5 },
        ];
        let text = format(15, ["A", "B"], &stones, error_code(&Reason::Five));
        assert_eq!(
            text,
            "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,7,120\n1,15,5\nA\nB\n0\n"
        );
        let text = format(20, ["A", "B"], &[], error_code(&Reason::TimeForfeit));
        assert_eq!(text, "Piskvorky 20x20, 11:11, 0\nA\nB\n15\n");
        assert!(format(15, ["A", "B"], &[], error_code(&Reason::Crash)).ends_with("\n-2\n"));
    }
}
