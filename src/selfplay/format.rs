//! The self-play data format: a versioned header, then one record per game. A game
//! record holds the rule, the board size, the opening stones, every searched move with
//! the search's score, and the result; every position of the game, with its side to
//! move, is rebuilt from it (`GameRecord::positions`). Storing games instead of
//! positions keeps a position to a little over 4 bytes.
//!
//! Layout, little-endian:
//! - header: `b"FRSP"`, version `u16`, reserved `u16`;
//! - game: rule `u8` (Gomocup number), width `u8`, height `u8`, opening stones `u8`,
//!   searched plies `u16`, result `i8` (+1 Black won, -1 White won, 0 draw), then the
//!   opening stones as `x u8, y u8`, then per searched ply `x u8, y u8, score i16`
//!   (the score from the side to move's view, mates as in `search::score`, `i16::MIN`
//!   for a forced move played unsearched).

use std::io::{self, Read, Write};

use anyhow::{bail, Context, Result};

use crate::board::{Board, Color, Pos, Rule};

pub const MAGIC: &[u8; 4] = b"FRSP";
pub const VERSION: u16 = 1;

/// One searched move: where it went and what the search thought of the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ply {
    pub x: u8,
    pub y: u8,
    /// The search's score of the position before the move, for its side to move;
    /// `NO_SCORE` where the move was forced and not searched.
    pub score: i16,
}

/// The score of a forced move that the search answered without searching.
pub const NO_SCORE: i16 = i16::MIN;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub rule: Rule,
    pub width: u8,
    pub height: u8,
    /// Opening stones (alternating from Black), not searched.
    pub opening: Vec<(u8, u8)>,
    pub plies: Vec<Ply>,
    /// +1 Black won, -1 White won, 0 draw.
    pub result: i8,
}

/// A position of a game as the trainer sees it.
pub struct PositionSample<'a> {
    pub board: &'a Board,
    /// The searched best move (the move played).
    pub best: Pos,
    pub score: i16,
    /// The game's result for the side to move: +1 won, -1 lost, 0 draw.
    pub result: i8,
}

/// The cell `x,y` of `board`, refusing one off the board.
fn cell(board: &Board, x: u8, y: u8) -> Result<Pos> {
    board
        .pos(x as i64, y as i64)
        .with_context(|| format!("move {x},{y} is off the board"))
}

/// Plays `x,y` for the side to move, refusing a move off the board or not legal.
fn play(board: &mut Board, x: u8, y: u8) -> Result<Pos> {
    let p = cell(board, x, y)?;
    let c = board.to_move();
    if !board.is_legal(c, p) {
        bail!("move {x},{y} is not legal");
    }
    board.make(p, c);
    Ok(p)
}

impl GameRecord {
    /// The opening stones as board coordinates (the openings' own type).
    pub fn opening_cells(&self) -> crate::openings::Opening {
        self.opening
            .iter()
            .map(|&(x, y)| (x as usize, y as usize))
            .collect()
    }

    /// The game's result for `side`: +1 won, -1 lost, 0 draw.
    pub fn result_for(&self, side: Color) -> i8 {
        if side == Color::Black {
            self.result
        } else {
            -self.result
        }
    }

    /// An empty board of the game's size and rule.
    pub fn empty_board(&self) -> Result<Board> {
        Board::new(self.width as usize, self.height as usize, self.rule)
    }

    /// Whether `board` is of the game's size and rule.
    pub fn fits(&self, board: &Board) -> bool {
        (board.width(), board.height(), board.rule())
            == (self.width as usize, self.height as usize, self.rule)
    }

    /// Sets `board`, of the game's size and rule (see [`GameRecord::fits`]), to the
    /// position before searched ply `ply`, taking back the stones it held first (a
    /// fraction of the cost of building a board); returns the move played there.
    /// Fails when a move is not legal (a corrupt record).
    pub fn replay_before(&self, board: &mut Board, ply: usize) -> Result<Pos> {
        let Some(here) = self.plies.get(ply) else {
            bail!("no ply {ply}");
        };
        if !self.fits(board) {
            bail!("the board to replay ply {ply} on is not of this game's size and rule");
        }
        board.undo_all();
        board.set_to_move(Color::Black);
        let stones = self.opening.iter().copied();
        for (x, y) in stones.chain(self.plies[..ply].iter().map(|p| (p.x, p.y))) {
            play(board, x, y)?;
        }
        cell(board, here.x, here.y)
    }

    /// Calls `f` with every searched position of the game, in order. Fails when a
    /// move is not legal (a corrupt record).
    pub fn positions(&self, mut f: impl FnMut(PositionSample<'_>)) -> Result<()> {
        let mut board = self.empty_board()?;
        for &(x, y) in &self.opening {
            play(&mut board, x, y)?;
        }
        for ply in &self.plies {
            f(PositionSample {
                board: &board,
                best: cell(&board, ply.x, ply.y)?,
                score: ply.score,
                result: self.result_for(board.to_move()),
            });
            play(&mut board, ply.x, ply.y)?;
        }
        Ok(())
    }
}

pub fn write_header(out: &mut impl Write) -> io::Result<()> {
    out.write_all(MAGIC)?;
    out.write_all(&VERSION.to_le_bytes())?;
    out.write_all(&0u16.to_le_bytes())
}

pub fn write_game(out: &mut impl Write, game: &GameRecord) -> io::Result<()> {
    let too_long = |what| io::Error::new(io::ErrorKind::InvalidInput, what);
    let opening = u8::try_from(game.opening.len()).map_err(|_| too_long("opening"))?;
    let plies = u16::try_from(game.plies.len()).map_err(|_| too_long("game"))?;
    let mut bytes = Vec::with_capacity(8 + 2 * game.opening.len() + 4 * game.plies.len());
    bytes.extend_from_slice(&[
        game.rule.gomocup_value() as u8,
        game.width,
        game.height,
        opening,
    ]);
    bytes.extend_from_slice(&plies.to_le_bytes());
    bytes.push(game.result as u8);
    for &(x, y) in &game.opening {
        bytes.extend_from_slice(&[x, y]);
    }
    for ply in &game.plies {
        bytes.extend_from_slice(&[ply.x, ply.y]);
        bytes.extend_from_slice(&ply.score.to_le_bytes());
    }
    out.write_all(&bytes)
}

/// Checks the header at the start of `bytes`.
pub fn check_header(bytes: &[u8]) -> Result<()> {
    if bytes.len() < 8 || &bytes[..4] != MAGIC {
        bail!("not a Ferrum self-play file (no FRSP header)");
    }
    let version = u16::from_le_bytes([bytes[4], bytes[5]]);
    if version != VERSION {
        bail!("self-play file version {version}, this build reads {VERSION}");
    }
    Ok(())
}

/// Reads a whole data file: the header checked, then every game.
pub fn read_games(input: &mut impl Read) -> Result<Vec<GameRecord>> {
    let mut bytes = Vec::new();
    input.read_to_end(&mut bytes)?;
    check_header(&bytes)?;
    let mut games = Vec::new();
    let mut at = 8;
    while at < bytes.len() {
        let game = parse_game(&bytes[at..])
            .with_context(|| format!("game {} at byte {at}", games.len() + 1))?;
        at += 7 + 2 * game.opening.len() + 4 * game.plies.len();
        games.push(game);
    }
    Ok(games)
}

fn parse_game(b: &[u8]) -> Result<GameRecord> {
    if b.len() < 7 {
        bail!("truncated game header");
    }
    let rule = Rule::from_gomocup(b[0] as i64).with_context(|| format!("bad rule {}", b[0]))?;
    let (width, height, opening) = (b[1], b[2], b[3] as usize);
    let plies = u16::from_le_bytes([b[4], b[5]]) as usize;
    let result = b[6] as i8;
    if !(-1..=1).contains(&result) {
        bail!("bad result {result}");
    }
    let end = 7 + 2 * opening + 4 * plies;
    if b.len() < end {
        bail!("truncated game");
    }
    let stones = &b[7..7 + 2 * opening];
    let moves = &b[7 + 2 * opening..end];
    Ok(GameRecord {
        rule,
        width,
        height,
        opening: stones.chunks(2).map(|s| (s[0], s[1])).collect(),
        plies: moves
            .chunks(4)
            .map(|m| Ply {
                x: m[0],
                y: m[1],
                score: i16::from_le_bytes([m[2], m[3]]),
            })
            .collect(),
        result,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game() -> GameRecord {
        GameRecord {
            rule: Rule::Renju,
            width: 15,
            height: 15,
            opening: vec![(7, 7), (8, 8)],
            plies: vec![
                Ply {
                    x: 6,
                    y: 6,
                    score: 12,
                },
                Ply {
                    x: 9,
                    y: 9,
                    score: -30,
                },
                Ply {
                    x: 5,
                    y: 5,
                    score: 29_990,
                },
            ],
            result: 1,
        }
    }

    #[test]
    fn games_round_trip() {
        let mut bytes = Vec::new();
        write_header(&mut bytes).unwrap();
        write_game(&mut bytes, &game()).unwrap();
        write_game(
            &mut bytes,
            &GameRecord {
                result: 0,
                ..game()
            },
        )
        .unwrap();
        let games = read_games(&mut bytes.as_slice()).unwrap();
        assert_eq!(
            games,
            vec![
                game(),
                GameRecord {
                    result: 0,
                    ..game()
                }
            ]
        );
    }

    #[test]
    fn positions_carry_the_side_to_move_view() {
        let mut seen = Vec::new();
        game()
            .positions(|s| {
                seen.push((
                    s.board.move_count(),
                    s.board.to_move(),
                    s.result,
                    s.best.x(),
                ))
            })
            .unwrap();
        assert_eq!(
            seen,
            vec![
                (2, Color::Black, 1, 6),
                (3, Color::White, -1, 9),
                (4, Color::Black, 1, 5)
            ]
        );
    }

    #[test]
    fn replay_before_takes_back_and_replays() {
        let g = game();
        let mut expected = Vec::new();
        g.positions(|s| expected.push((s.board.history().to_vec(), s.best)))
            .unwrap();
        let mut board = g.empty_board().unwrap();
        // Each ply from whatever the board held before: later, earlier, the same.
        for ply in [2, 0, 1, 1, 2] {
            let best = g.replay_before(&mut board, ply).unwrap();
            assert_eq!((board.history().to_vec(), best), expected[ply]);
            board.verify().unwrap();
        }
        assert!(g.replay_before(&mut board, 3).is_err());
        let mut other = Board::new(15, 15, Rule::Freestyle).unwrap();
        assert!(g.replay_before(&mut other, 0).is_err());
    }

    #[test]
    fn corrupt_files_are_refused() {
        let mut bytes = Vec::new();
        write_header(&mut bytes).unwrap();
        write_game(&mut bytes, &game()).unwrap();
        assert!(read_games(&mut &bytes[..bytes.len() - 1]).is_err());
        assert!(read_games(&mut &b"FRSX\x01\x00\x00\x00"[..]).is_err());
        let mut future = bytes.clone();
        future[4] = 9;
        assert!(read_games(&mut future.as_slice()).is_err());
        let mut occupied = game();
        occupied.plies[0] = Ply {
            x: 7,
            y: 7,
            score: 0,
        };
        assert!(occupied.positions(|_| {}).is_err());
    }
}
