//! The game on the board: the referee (our rules code), take-backs, the result, the
//! evaluations for the graph, and the records (`.psq` and move list).

use serde_json::{json, Value};

use crate::board::{Color, Pos, Rule};
use crate::manager::psq::{self, Stone};
use crate::manager::referee::{Reason, Referee, Verdict};
use crate::record;

use super::messages::{Format, Player};

pub struct Game {
    referee: Referee,
    /// Moves taken back, the next one to replay last.
    redo: Vec<(usize, usize)>,
    result: Option<Verdict>,
    /// The last evaluation an engine reported for the position after n stones, from
    /// Black's side; indexed by stone count.
    evals: Vec<Option<i32>>,
    pub players: [Player; 2],
    pub time_ms: u64,
}

impl Game {
    pub fn new(size: usize, rule: Rule, players: [Player; 2], time_ms: u64) -> Game {
        Game {
            referee: Referee::new(size, rule.gomocup_value(), None)
                .expect("size and rule are checked"),
            redo: Vec::new(),
            result: None,
            evals: Vec::new(),
            players,
            time_ms,
        }
    }

    pub fn size(&self) -> usize {
        self.referee.size()
    }

    pub fn rule(&self) -> Rule {
        self.referee.rule()
    }

    pub fn to_move(&self) -> Color {
        self.referee.to_move()
    }

    pub fn moves(&self) -> Vec<(usize, usize)> {
        self.referee.moves()
    }

    pub fn is_over(&self) -> bool {
        self.result.is_some()
    }

    /// A human's move: refused with the reason when it is not legal; a five ends the
    /// game.
    pub fn play_human(&mut self, x: i64, y: i64) -> Result<(), String> {
        if let Some(why) = self.human_refusal(x, y) {
            return Err(why);
        }
        self.play(x, y);
        Ok(())
    }

    /// Why a human's move would be refused, if it would.
    pub fn human_refusal(&mut self, x: i64, y: i64) -> Option<String> {
        if let Some(v) = &self.result {
            return Some(format!("the game is over: {}", verdict_text(v)));
        }
        self.referee.refusal(x, y)
    }

    /// An engine's move: refereed as in a match, so a wrong move loses.
    pub fn play_engine(&mut self, x: i64, y: i64) {
        if self.result.is_none() {
            self.play(x, y);
        }
    }

    /// The engine's answer was no move at all.
    pub fn engine_fault(&mut self, reason: Reason) {
        if self.result.is_none() {
            self.result = Some(Verdict::loss(self.to_move(), reason));
        }
    }

    fn play(&mut self, x: i64, y: i64) {
        let replay = self
            .redo
            .last()
            .is_some_and(|&(rx, ry)| (rx as i64, ry as i64) == (x, y));
        if replay {
            self.redo.pop();
        } else {
            self.redo.clear();
            self.evals.truncate(self.referee.stone_count() + 1);
        }
        self.result = self.referee.play(x, y).or_else(|| self.referee.draw_due());
    }

    /// Takes back the last move (or a verdict whose move never reached the board: an
    /// illegal move, a forfeit); `false` when there is nothing to take back.
    pub fn undo(&mut self) -> bool {
        if let Some(v) = self.result.take() {
            if matches!(
                v.reason,
                Reason::Illegal(_) | Reason::TimeForfeit | Reason::Crash
            ) {
                return true;
            }
        }
        let Some(&last) = self.referee.moves().last() else {
            return false;
        };
        self.referee.undo();
        self.redo.push(last);
        true
    }

    /// Plays the last move taken back; `false` when there is none.
    pub fn redo(&mut self) -> bool {
        match self.redo.last() {
            Some(&(x, y)) if self.result.is_none() => {
                self.play(x as i64, y as i64);
                true
            }
            _ => false,
        }
    }

    pub fn can_redo(&self) -> bool {
        self.result.is_none() && !self.redo.is_empty()
    }

    pub fn can_undo(&self) -> bool {
        self.referee.stone_count() > 0 || self.result.is_some()
    }

    /// Records an engine's evaluation of the current position, from the side to move.
    pub fn set_eval(&mut self, score: i32) {
        let n = self.referee.stone_count();
        if self.evals.len() <= n {
            self.evals.resize(n + 1, None);
        }
        self.evals[n] = Some(if self.to_move() == Color::Black {
            score
        } else {
            -score
        });
    }

    /// A record's text.
    pub fn save(&self, format: Format, names: [&str; 2]) -> String {
        match format {
            Format::Moves => move_list(&self.moves()),
            Format::Psq => {
                let stones: Vec<Stone> = self
                    .moves()
                    .into_iter()
                    .map(|(x, y)| Stone { x, y, ms: 0 })
                    .collect();
                let code = self
                    .result
                    .as_ref()
                    .map_or(0, |v| psq::error_code(&v.reason));
                psq::format(self.size(), names, &stones, code)
            }
        }
    }

    /// The game of a record, each stone refereed; a record that breaks the rules or
    /// does not fit is refused.
    pub fn load(
        format: Format,
        text: &str,
        size: usize,
        rule: Rule,
        players: [Player; 2],
        time_ms: u64,
    ) -> Result<Game, String> {
        let (size, stones) = match format {
            Format::Moves => (
                size,
                Pos::parse_move_list(text).ok_or("not a move list (h8i9j10…)")?,
            ),
            Format::Psq => {
                let r = record::parse_psq(text).map_err(|e| format!("not a .psq file: {e:#}"))?;
                if !(crate::board::MIN_SIZE..=crate::board::MAX_SIZE).contains(&r.size) {
                    return Err(format!("board size {} is not supported", r.size));
                }
                let points = r.points().collect();
                (r.size, points)
            }
        };
        let mut game = Game::new(size, rule, players, time_ms);
        for (i, &(x, y)) in stones.iter().enumerate() {
            if game.is_over() {
                return Err(format!("move {} comes after the end of the game", i + 1));
            }
            let (x, y) = (x as i64, y as i64);
            // A record may end with Black's foul, which lost the game (saved as played).
            if i + 1 == stones.len() && game.referee.foul(x, y).is_some() {
                game.play(x, y);
                continue;
            }
            game.play_human(x, y)
                .map_err(|e| format!("move {}: {e}", i + 1))?;
        }
        Ok(game)
    }

    /// The `state` message: everything the page draws.
    pub fn state(&mut self, thinking: Option<&str>, engine: &str) -> Value {
        let moves = self.moves();
        let forbidden: Vec<Value> = self
            .referee
            .forbidden_points()
            .into_iter()
            .map(|((x, y), kind)| json!([x, y, kind.name()]))
            .collect();
        let result = self.result.as_ref().map(|v| {
            // The five is drawn for a win by five; a foul or forfeit shows no line.
            let line = if v.reason == Reason::Five {
                self.referee.winning_line()
            } else {
                Vec::new()
            };
            json!({
                "winner": v.winner.map(color_name),
                "reason": v.reason.to_string(),
                "text": verdict_text(v),
                "line": line,
            })
        });
        json!({
            "type": "state",
            "size": self.size(),
            "rule": self.rule().name(),
            "moves": moves,
            "move_list": move_list(&moves),
            "to_move": color_name(self.to_move()),
            "players": {"black": self.players[0], "white": self.players[1]},
            "time_ms": self.time_ms,
            "result": result,
            "forbidden": forbidden,
            "evals": self.evals,
            "can_undo": self.can_undo(),
            "can_redo": !self.redo.is_empty() && self.result.is_none(),
            "thinking": thinking,
            "engine": engine,
        })
    }
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

fn verdict_text(v: &Verdict) -> String {
    match v.winner {
        Some(Color::Black) => format!("Black wins ({})", v.reason),
        Some(Color::White) => format!("White wins ({})", v.reason),
        None => format!("Draw ({})", v.reason),
    }
}

/// `h8i9j10`: the move list without separators.
pub fn move_list(moves: &[(usize, usize)]) -> String {
    moves
        .iter()
        .map(|&(x, y)| Pos::from_xy(x, y).notation())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const HUMANS: [Player; 2] = [Player::Human, Player::Human];

    #[test]
    fn plays_undoes_and_redoes() {
        let mut g = Game::new(15, Rule::Freestyle, HUMANS, 300);
        assert!(g.play_human(7, 7).is_ok());
        assert!(g.play_human(7, 7).unwrap_err().contains("taken"));
        assert!(g.play_human(15, 0).unwrap_err().contains("off the board"));
        assert!(g.play_human(8, 8).is_ok());
        assert!(g.undo());
        assert!(g.redo());
        assert_eq!(g.moves(), [(7, 7), (8, 8)]);
        assert!(!g.redo());
    }

    #[test]
    fn five_ends_the_game_and_records_round_trip() {
        let text = "h8h9i8i9j8j9k8k9l8";
        let mut g = Game::load(Format::Moves, text, 15, Rule::Freestyle, HUMANS, 300).unwrap();
        assert!(g.is_over());
        let state = g.state(None, "x");
        assert_eq!(state["result"]["winner"], "black");
        assert_eq!(state["result"]["line"].as_array().unwrap().len(), 5);
        assert_eq!(g.save(Format::Moves, ["a", "b"]), text);
        let psq = g.save(Format::Psq, ["a", "b"]);
        let again = Game::load(Format::Psq, &psq, 20, Rule::Freestyle, HUMANS, 300).unwrap();
        assert_eq!(again.moves(), g.moves());
        assert!(Game::load(Format::Moves, "h8h8", 15, Rule::Freestyle, HUMANS, 300).is_err());
        assert!(Game::load(
            Format::Moves,
            &format!("{text}a1"),
            15,
            Rule::Freestyle,
            HUMANS,
            300
        )
        .is_err());
    }

    #[test]
    fn renju_forbidden_points_are_refused_and_shown() {
        // Black h9 i8 g7 g6 around g8... : 8,7 9,7 7,8 7,9 with White far away.
        let text = "i8a1j8o1h9a15h10o15";
        let mut g = Game::load(Format::Moves, text, 15, Rule::Renju, HUMANS, 300).unwrap();
        let state = g.state(None, "x");
        assert_eq!(state["forbidden"][0], json!([7, 7, "double-three"]));
        assert!(g.play_human(7, 7).unwrap_err().contains("forbidden"));
        // A game lost by Black's foul is saved as played and loads back as lost; a foul
        // with moves after it is no game.
        let fouled = format!("{text}h8");
        let g = Game::load(Format::Moves, &fouled, 15, Rule::Renju, HUMANS, 300).unwrap();
        assert!(g.is_over());
        assert_eq!(g.save(Format::Moves, ["a", "b"]), fouled);
        let after = Game::load(
            Format::Moves,
            &format!("{fouled}a2"),
            15,
            Rule::Renju,
            HUMANS,
            300,
        );
        assert!(after.err().is_some_and(|e| e.contains("forbidden")));
    }
}
