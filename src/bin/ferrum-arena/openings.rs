//! The arena's openings: files in the offset format (`ferrum::openings`) checked
//! against the rules, and the opening of each game.

use anyhow::{Context, Result};

use ferrum::manager::referee::Referee;
use ferrum::openings::{parse_line, Opening};

/// Parses a whole file (blank lines skipped) and checks every opening with the
/// referee: each stone a legal move under `rule`, and no game over.
pub fn parse_file(text: &str, size: usize, rule: i64) -> Result<Vec<Opening>> {
    let mut openings = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let opening = parse_line(line, size, size).with_context(|| format!("line {}", i + 1))?;
        Referee::new(size, rule, None)?
            .place_opening(&opening)
            .with_context(|| format!("line {}: opening `{}`", i + 1, line.trim()))?;
        openings.push(opening);
    }
    Ok(openings)
}

/// The opening of game `index` (0-based): each opening is played twice (games 2k and
/// 2k+1, colours swapped), wrapping around the list. Empty when there is none.
pub fn for_game(openings: &[Opening], index: usize) -> Opening {
    if openings.is_empty() {
        return Vec::new();
    }
    openings[(index / 2) % openings.len()].clone()
}

/// A warning when `games` play some opening more than once with the same colours: such
/// games are not independent (under a node limit they are the same game), so the Elo
/// interval and the SPRT look surer than the games warrant.
pub fn repeat_note(openings: &[Opening], games: usize) -> Option<String> {
    let pairings = 2 * openings.len().max(1);
    if games <= pairings {
        return None;
    }
    let times = games.div_ceil(pairings);
    let what = match openings.len() {
        0 => "every game starts from the empty board".to_string(),
        n => format!("{games} games on {n} openings"),
    };
    Some(format!(
        "{what}: up to {times} games from each opening and colour; repeats are not independent \
         games (the same game under a node limit), so the Elo interval and the SPRT claim more \
         than the games show"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_checked() {
        let text = "0,0, 1,1\n\n  -1,0, 2,2, 3,3\n";
        let ops = parse_file(text, 15, 0).unwrap();
        assert_eq!(ops.len(), 2);
        assert!(parse_file("0,0, 0,0\n", 15, 0).is_err());
        assert_eq!(for_game(&ops, 0), ops[0]);
        assert_eq!(for_game(&ops, 1), ops[0]);
        assert_eq!(for_game(&ops, 2), ops[1]);
        assert_eq!(for_game(&ops, 5), ops[0]);
        assert!(for_game(&[], 3).is_empty());
    }

    #[test]
    fn repeated_openings_are_noted() {
        let ops = parse_file("0,0\n1,1\n", 15, 0).unwrap();
        assert_eq!(repeat_note(&ops, 4), None);
        let note = repeat_note(&ops, 5).unwrap();
        assert!(
            note.starts_with("5 games on 2 openings: up to 2 games"),
            "{note}"
        );
        assert_eq!(repeat_note(&[], 2), None);
        assert!(repeat_note(&[], 3)
            .unwrap()
            .starts_with("every game starts from the empty"));
    }

    #[test]
    fn opening_files_parse() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/openings/");
        for (file, size, rule, count) in [
            ("freestyle15.txt", 15, 0, 12),
            ("freestyle20.txt", 20, 0, 25),
            ("renju26.txt", 15, 4, 26),
        ] {
            let text = std::fs::read_to_string(format!("{dir}{file}")).expect("opening file");
            assert_eq!(
                parse_file(&text, size, rule).unwrap().len(),
                count,
                "{file}"
            );
        }
    }
}
