//! Game records: SGF collections (c-gomoku-cli's `-sgf` output) and Piskvork `.psq`
//! files (ferrum-arena's `--psq` output), both read into [`Record`]. The tools that
//! learn from games (`tune`, `sample-leaves`, `scan-moves`) and the arena's
//! `--replay-sgf` all read games here.
//!
//! SGF, as c-gomoku-cli writes it: `(;FF[4]GM[4]GN[n]...RU[rule]SZ[size]PB[..]PW[..]
//! RE[B+1|W+1|0]TE[reason]` then `;B[xy]` / `;W[xy]` with letters a = 0, x first; one
//! `(...)` per game.
//!
//! `.psq`, as Piskvork's `savePsq` writes it: a header `Piskvorky 15x15, 11:11, 0`,
//! one `x,y,ms` line per stone (1-based, Black first), the two players' names, and an
//! error code. It holds no rule and no result.

use std::path::Path;

use anyhow::{bail, ensure, Context, Result};

use crate::board::{Color, Rule};

/// One stone of a record, (x, y) from 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Move {
    pub color: Color,
    pub x: usize,
    pub y: usize,
}

/// How a recorded game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Win(Color),
    Draw,
}

/// One game as a file records it.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    pub size: usize,
    /// The rule, where the file names one (SGF `RU`).
    pub rule: Option<Rule>,
    /// The stones in the order played.
    pub moves: Vec<Move>,
    /// The result, where the file gives one (SGF `RE`).
    pub outcome: Option<Outcome>,
    /// Game number (SGF `GN`), empty where none.
    pub number: String,
    /// Black's and White's names, empty where none.
    pub players: [String; 2],
    /// The result and the reason as recorded (SGF `RE` and `TE`), empty where none.
    pub result_text: String,
    pub reason: String,
}

impl Record {
    /// The moves as (x, y).
    pub fn points(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.moves.iter().map(|m| (m.x, m.y))
    }
}

/// The games of `path`: a `.psq` file holds one, anything else is read as SGF. Errors
/// name the file.
pub fn read_file(path: &Path) -> Result<Vec<Record>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let games = if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("psq"))
    {
        parse_psq(&text).map(|g| vec![g])
    } else {
        parse_sgf(&text)
    };
    games.with_context(|| format!("parsing {}", path.display()))
}

/// Every game of an SGF collection.
pub fn parse_sgf(text: &str) -> Result<Vec<Record>> {
    let mut games = Vec::new();
    let mut props: Vec<(String, String)> = Vec::new();
    let mut key = String::new();
    // A letter after a value or a `;` starts a new key; later letters extend it.
    let mut new_key = true;
    // Inside a game: a file cut before its last `)` loses that game, so it is refused.
    let mut open = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '(' => {
                props.clear();
                new_key = true;
                open = true;
            }
            ')' => {
                open = false;
                games.push(
                    sgf_game(&props).with_context(|| format!("SGF game {}", games.len() + 1))?,
                );
            }
            '[' => {
                let mut value = String::new();
                while let Some(c) = chars.next() {
                    match c {
                        ']' => break,
                        '\\' => value.extend(chars.next()),
                        c => value.push(c),
                    }
                }
                props.push((key.clone(), value));
                new_key = true;
            }
            c if c.is_ascii_uppercase() => {
                if std::mem::take(&mut new_key) {
                    key.clear();
                }
                key.push(c);
            }
            ';' => new_key = true,
            _ => {}
        }
    }
    ensure!(
        !open,
        "SGF game {} is not closed (a file cut short?)",
        games.len() + 1
    );
    ensure!(
        !games.is_empty(),
        "no SGF game in it (nor a .psq file's name)"
    );
    Ok(games)
}

fn sgf_game(props: &[(String, String)]) -> Result<Record> {
    let get = |k: &str| {
        props
            .iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.trim().to_string())
            .unwrap_or_default()
    };
    let size: usize = get("SZ").parse().context("no board size (SZ[])")?;
    let rule = match get("RU") {
        ru if ru.is_empty() => None,
        ru => Some(
            ru.parse()
                .ok()
                .and_then(Rule::from_gomocup)
                .with_context(|| format!("unknown rule RU[{ru}]"))?,
        ),
    };
    let mut moves = Vec::new();
    for (k, v) in props {
        let color = match k.as_str() {
            "B" => Color::Black,
            "W" => Color::White,
            _ => continue,
        };
        let b = v.as_bytes();
        if b.len() != 2 || !b.iter().all(u8::is_ascii_lowercase) {
            bail!("bad move [{v}]");
        }
        let (x, y) = ((b[0] - b'a') as usize, (b[1] - b'a') as usize);
        moves.push(Move { color, x, y });
    }
    let result_text = get("RE");
    let outcome = match result_text.as_str() {
        r if r.starts_with('B') => Some(Outcome::Win(Color::Black)),
        r if r.starts_with('W') => Some(Outcome::Win(Color::White)),
        "0" | "Draw" | "draw" => Some(Outcome::Draw),
        _ => None,
    };
    Ok(Record {
        size,
        rule,
        moves,
        outcome,
        number: get("GN"),
        players: [get("PB"), get("PW")],
        result_text,
        reason: get("TE"),
    })
}

/// A `.psq` line that is, or was meant to be, a stone: `x,y[,ms]` (a negative
/// coordinate included).
fn stone_like(line: &str) -> bool {
    let line = line.trim_start();
    line.starts_with(|c: char| c.is_ascii_digit() || c == '-') && line.contains(',')
}

/// The game of a `.psq` file.
pub fn parse_psq(text: &str) -> Result<Record> {
    // Lines end in LF, CR LF or a lone CR (as the protocol's lines may).
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    let mut lines = text.lines();
    let header = lines.next().context("empty file")?;
    // "Piskvorky 15x15, 11:11, 0": the size is the token WxH.
    let size: usize = header
        .split([' ', ','])
        .find_map(|w| {
            let (w, h) = w.split_once('x')?;
            (w == h).then(|| w.parse().ok()).flatten()
        })
        .with_context(|| format!("bad header {header:?} (not a .psq file?)"))?;
    let mut moves = Vec::new();
    let mut names = Vec::new();
    while let Some(line) = lines.next() {
        let fields: Vec<&str> = line.trim().split(',').map(str::trim).collect();
        let parsed = match fields[..] {
            [x, y] | [x, y, _] => x.parse::<usize>().ok().zip(y.parse::<usize>().ok()),
            _ => None,
        };
        let Some((x, y)) = parsed else {
            // The players' names follow the stones; a line that starts as a stone and
            // is not one, or a stone after any other line, would end the game there
            // without a word.
            ensure!(!stone_like(line), "bad stone line {line:?}");
            if lines.clone().any(stone_like) {
                if line.trim().is_empty() {
                    bail!("a blank line among the stones");
                }
                bail!("a line that is not a stone among the stones: {line:?}");
            }
            names.push(line.trim().to_string());
            break;
        };
        if x == 0 || y == 0 || x > size || y > size {
            bail!("stone {line:?} off a {size}x{size} board");
        }
        let color = Color::of_stone(moves.len());
        moves.push(Move {
            color,
            x: x - 1,
            y: y - 1,
        });
    }
    names.extend(lines.next().map(|l| l.trim().to_string()));
    let mut names = names.into_iter();
    Ok(Record {
        size,
        rule: None,
        moves,
        outcome: None,
        number: String::new(),
        players: [
            names.next().unwrap_or_default(),
            names.next().unwrap_or_default(),
        ],
        result_text: String::new(),
        reason: String::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two games as c-gomoku-cli writes them (the second a renju forbidden-move loss).
    const TWO_GAMES: &str = include_str!("../tests/data/games/c-gomoku-cli-two-games.sgf");

    #[test]
    fn reads_c_gomoku_cli_sgf() {
        let games = parse_sgf(TWO_GAMES).unwrap();
        assert_eq!(games.len(), 2);
        let g = &games[0];
        assert_eq!(
            (g.number.as_str(), g.size, g.rule),
            ("1", 15, Some(Rule::Freestyle))
        );
        assert_eq!(
            g.moves[0],
            Move {
                color: Color::Black,
                x: 7,
                y: 7
            }
        );
        assert_eq!(
            g.moves[1],
            Move {
                color: Color::White,
                x: 0,
                y: 7
            }
        );
        assert_eq!(g.moves.len(), 9);
        assert_eq!(g.outcome, Some(Outcome::Win(Color::Black)));
        assert_eq!(g.reason, "Black win by five connection");
        assert_eq!(games[1].rule, Some(Rule::Renju));
        assert_eq!(games[1].players, ["B".to_string(), "A".to_string()]);
        assert_eq!(games[1].outcome, Some(Outcome::Win(Color::White)));
        assert!(parse_sgf("(;SZ[15]RU[0];B[h])").is_err());
        assert!(parse_sgf("(;RU[0];B[hh])").is_err());
        assert!(parse_sgf("(;SZ[15]RU[77];B[hh])").is_err());
        let g = &parse_sgf("(;SZ[15]RE[0];B[hh])").unwrap()[0];
        assert_eq!((g.rule, g.outcome), (None, Some(Outcome::Draw)));
        // No game, or the last one cut short: an error, not fewer games.
        assert!(parse_sgf("").is_err());
        assert!(parse_sgf("Piskvorky 15x15, 11:11, 0\n8,8,0\n").is_err());
        let cut = &TWO_GAMES[..TWO_GAMES.rfind(')').unwrap()];
        assert!(parse_sgf(cut)
            .unwrap_err()
            .to_string()
            .contains("game 2 is not closed"));
    }

    #[test]
    fn reads_ferrum_arena_psq() {
        let psq = "Piskvorky 15x15, 11:11, 0\n4,8,0\n4,9,0\n5,8,12\n5,9,10\nnew\nold\n0\n";
        let g = parse_psq(psq).unwrap();
        assert_eq!(g.size, 15);
        assert_eq!(g.moves.len(), 4);
        assert_eq!(
            g.moves[1],
            Move {
                color: Color::White,
                x: 3,
                y: 8
            }
        );
        assert_eq!(g.players, ["new".to_string(), "old".to_string()]);
        assert_eq!((g.rule, g.outcome), (None, None));
        assert!(parse_psq("Piskvorky 15x15, 11:11, 0\n16,1,0\n").is_err());
        assert!(parse_psq("").is_err());
        // Stones without times or with spaces are stones; a stone line that is not one
        // is an error, and so is a file without the header.
        let g = parse_psq("Piskvorky 15x15, 11:11, 0\n4, 8\n4,9, 0\na\nb\n0\n").unwrap();
        assert_eq!(g.moves.len(), 2);
        assert!(parse_psq("Piskvorky 15x15, 11:11, 0\n4,8,0,1\n").is_err());
        // A stone that cannot be one, or one after a blank line, is no player's name.
        assert!(parse_psq("Piskvorky 15x15, 11:11, 0\n4,8,0\n-5,8,0\n").is_err());
        assert!(parse_psq("Piskvorky 15x15, 11:11, 0\n4,8,0\n\n4,9,0\n").is_err());
        let g = parse_psq("Piskvorky 15x15, 11:11, 0\n4,8,0\n\n").unwrap();
        assert_eq!(g.moves.len(), 1);
        assert!(parse_psq("Piskvorky 15x15, 11:11, 0\n8,8,0\n#9,9,0\n10,10,0\nA\nB\n0\n").is_err());
        // A lone CR ends a line too.
        let g = parse_psq("Piskvorky 15x15, 11:11, 0\r8,8,0\r9,9,0\rA\rB\r0\r").unwrap();
        assert_eq!(g.moves.len(), 2);
        assert!(parse_psq("2,13,0\n3,13,0\n")
            .unwrap_err()
            .to_string()
            .contains("not a .psq"));
    }
}
