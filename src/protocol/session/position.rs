//! The commands that set up or change the board: START, TURN, TAKEBACK, PLAY,
//! YXSHOWFORBID and the BOARD, YXBOARD and SWAP2BOARD blocks.

use super::{BlockKind, Session};
use crate::board::{Board, Cell, Color, Pos};
use crate::protocol::command::{parse_board_line, parse_coord, Coord};
use crate::protocol::jobs::Job;
use std::time::Instant;

impl Session {
    /// `FORBID xxyyxxyy….`: Black's renju forbidden points, row by row, two digits
    /// per coordinate (x first), ending in `.`; `FORBID .` when there are none or
    /// the rule has no forbidden points.
    pub(super) fn show_forbid(&mut self) {
        let Some(board) = self.board.as_mut() else {
            return;
        };
        let mut line = String::from("FORBID ");
        for p in board.forbidden_points() {
            line.push_str(&format!("{:02}{:02}", p.x(), p.y()));
        }
        line.push('.');
        self.out.line(&line);
    }

    pub(super) fn start(&mut self, w: i64, h: i64) {
        let size_ok =
            |v: i64| (crate::board::MIN_SIZE as i64..=crate::board::MAX_SIZE as i64).contains(&v);
        if !size_ok(w) || !size_ok(h) {
            self.out.line(&format!(
                "ERROR unsupported size {w}x{h}: sides from {} to {}",
                crate::board::MIN_SIZE,
                crate::board::MAX_SIZE
            ));
            return;
        }
        match Board::new(w as usize, h as usize, self.rule) {
            Ok(b) => {
                // The table's keys hold the stones only, not the size: what a game on
                // another board stored must not be read on this one. A game on the
                // same board keeps it (Yixin-Board sends START before every search).
                let resized = self
                    .board
                    .as_ref()
                    .is_some_and(|old| (old.width(), old.height()) != (b.width(), b.height()));
                if resized {
                    self.clear_table();
                }
                self.board = Some(b);
                self.time.new_game();
                self.size_tt();
                self.out.line("OK");
            }
            Err(e) => self.out.line(&format!("ERROR {e}")),
        }
    }

    /// The board point for manager coordinates, if on the board.
    fn point(&self, (x, y): Coord) -> Option<Pos> {
        self.board.as_ref()?.pos(x, y)
    }

    pub(super) fn turn(&mut self, c: Coord, at: Instant) {
        let Some(board) = self.board.as_mut() else {
            self.out.line("ERROR TURN before START");
            return;
        };
        let Some(p) = board.pos(c.0, c.1) else {
            self.out
                .line(&format!("ERROR {},{} is off the board", c.0, c.1));
            return;
        };
        if !board.is_empty(p) {
            self.out.line(&format!("ERROR {},{} is occupied", c.0, c.1));
            return;
        }
        let side = board.to_move();
        board.make(p, side);
        self.request(Job::Move, at);
    }

    pub(super) fn takeback(&mut self, c: Coord) {
        let Some(p) = self.point(c) else {
            self.out
                .line(&format!("ERROR cannot take back {},{}", c.0, c.1));
            return;
        };
        let board = self.board.as_mut().expect("point() found a board");
        match board.last_move() {
            Some((last, owner)) if last == p => {
                board.undo();
                // Its owner moves again (a BOARD setup placed stones out of turn).
                board.set_to_move(owner);
                self.out.line("OK");
            }
            _ => self
                .out
                .line(&format!("ERROR {p} is not the last stone played")),
        }
    }

    pub(super) fn play(&mut self, c: Coord) {
        let Some(p) = self.point(c) else {
            self.out.line(&format!("ERROR cannot play {},{}", c.0, c.1));
            return;
        };
        let board = self.board.as_mut().expect("point() found a board");
        let side = board.to_move();
        if !board.is_legal(side, p) {
            self.out.line(&format!("ERROR {p} is not a legal move"));
            return;
        }
        board.make(p, side);
        self.out.line(&p.to_string());
    }

    pub(super) fn end_block(&mut self, kind: BlockKind, lines: &[String], at: Instant) {
        let Some(old) = self.board.as_ref() else {
            self.out.line("ERROR board block before START");
            return;
        };
        let fresh =
            Board::new(old.width(), old.height(), self.rule).expect("size already accepted");
        match kind {
            BlockKind::Board | BlockKind::YxBoard => match position_from_lines(fresh, lines) {
                Ok(board) => {
                    self.board = Some(board);
                    if kind == BlockKind::Board {
                        self.request(Job::Move, at);
                    }
                }
                Err(e) => self.out.line(&format!("ERROR {e}")),
            },
            BlockKind::Swap2 => self.swap2(fresh, lines, at),
        }
    }

    fn swap2(&mut self, mut board: Board, lines: &[String], at: Instant) {
        let mut stones = Vec::new();
        for line in lines {
            let c = parse_coord(
                line.rsplit_once(',')
                    .filter(|_| line.matches(',').count() == 2)
                    .map(|(a, _)| a)
                    .unwrap_or(line),
            );
            match c
                .and_then(|c| board.pos(c.0, c.1))
                .filter(|&p| board.is_empty(p))
            {
                Some(p) => {
                    let side = board.to_move();
                    board.make(p, side);
                    stones.push(p);
                }
                None => {
                    self.out
                        .line(&format!("ERROR bad SWAP2BOARD line '{line}'"));
                    return;
                }
            }
        }
        match stones.len() {
            0 => {
                self.board = Some(board);
                self.request(Job::Swap2Open, at);
            }
            3 | 5 => {
                self.board = Some(board);
                self.request(
                    Job::Swap2Decide {
                        stones: stones.len(),
                    },
                    at,
                );
            }
            n => self.out.line(&format!("ERROR SWAP2BOARD with {n} stones")),
        }
    }
}

/// The position described by BOARD/YXBOARD lines (`x,y,f`, in game order). The side
/// to move owns the f=1 stones: Black when both sides have as many stones.
fn position_from_lines(mut board: Board, lines: &[String]) -> Result<Board, String> {
    let mut stones = Vec::with_capacity(lines.len());
    for line in lines {
        let (c, f) = parse_board_line(line).ok_or_else(|| format!("bad board line '{line}'"))?;
        let p = board
            .pos(c.0, c.1)
            .ok_or_else(|| format!("board line '{line}' is off the board"))?;
        if stones.iter().any(|&(q, _)| q == p) {
            return Err(format!("board line '{line}' repeats a point"));
        }
        stones.push((p, f));
    }
    let own = stones.iter().filter(|s| s.1 == 1).count();
    let theirs = stones.iter().filter(|s| s.1 == 2).count();
    let me = if own < theirs {
        Color::White
    } else {
        Color::Black
    };
    // Walls first: `undo` takes back moves only, and a wall placed after a move would
    // be partly undone with it.
    for &(p, _) in stones.iter().filter(|s| s.1 == 3) {
        board.place_wall(p);
    }
    for &(p, f) in stones.iter().filter(|s| s.1 != 3) {
        board.make(p, if f == 1 { me } else { me.opp() });
    }
    debug_assert!(stones.iter().all(|&(p, _)| board.cell(p) != Cell::Empty));
    board.set_to_move(me);
    Ok(board)
}
