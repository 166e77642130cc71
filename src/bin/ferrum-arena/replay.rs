//! `--replay-sgf`: judges the games of a c-gomoku-cli SGF file with our referee and
//! compares with the verdict recorded there (`RE[]`, `TE[]`), game by game.
//!
//! The file is read by `ferrum::record` (c-gomoku-cli's SGF). A move that loses
//! by itself (illegal, forbidden) and a time forfeit or crash leave no move in the
//! file: the game then simply stops with the loser to move, which is all the replay
//! can check ("consistent"). A forbidden move appended to the file by hand is judged
//! like any other move.

use std::io::Write;

use anyhow::{bail, Context, Result};

use ferrum::board::{Color, Rule};
use ferrum::record::{self, Outcome, Record};

use ferrum::manager::referee::{Referee, Verdict};

/// Our referee's view of a recorded game.
#[derive(Debug, Clone, PartialEq)]
pub enum Judged {
    /// The game ended with the last move (or a draw was due after it).
    Over(Verdict),
    /// The game ended at move `n` (1-based) but the record goes on.
    EndedEarly(usize, Verdict),
    /// No verdict after the last move: `Color` is to move.
    Unfinished(Color),
}

/// Replays the moves through the referee, under the game's rule (`RU`), else `rule`.
pub fn judge(game: &Record, draw_after: Option<usize>, rule: Rule) -> Result<Judged> {
    let rule = game.rule.unwrap_or(rule).gomocup_value();
    let mut referee = Referee::new(game.size, rule, draw_after)?;
    for (i, &record::Move { color, x, y }) in game.moves.iter().enumerate() {
        if color != referee.to_move() {
            bail!("move {} ({x},{y}) is out of turn", i + 1);
        }
        if let Some(v) = referee.draw_due() {
            return Ok(Judged::EndedEarly(i, v));
        }
        if let Some(v) = referee.play(x as i64, y as i64) {
            return Ok(if i + 1 == game.moves.len() {
                Judged::Over(v)
            } else {
                Judged::EndedEarly(i + 1, v)
            });
        }
    }
    Ok(match referee.draw_due() {
        Some(v) => Judged::Over(v),
        None => Judged::Unfinished(referee.to_move()),
    })
}

/// The winner and reason kind c-gomoku-cli's `TE[]` text stands for (its
/// `decode_state`: "Black win by five connection", "Black play on forbidden position",
/// "White win by adjudication"..., capitalised or not by version).
pub fn expected(reason: &str) -> Option<(Option<Color>, &'static str)> {
    let reason = reason.to_ascii_lowercase();
    let winner = if reason.starts_with("black win") {
        Some(Color::Black)
    } else if reason.starts_with("white win") || reason.starts_with("black play") {
        Some(Color::White)
    } else {
        None
    };
    // First match wins.
    const KINDS: [(&str, &str); 8] = [
        ("five connection", "five"),
        ("forbidden", "forbidden move"),
        ("illegal move", "illegal move"),
        ("time forfeit", "time forfeit"),
        ("crash", "crash"),
        ("fullfilled board", "full board"),
        ("draw by adjudication", "draw after"),
        ("win by adjudication", "resignation"),
    ];
    let (_, kind) = KINDS.iter().find(|(text, _)| reason.contains(text))?;
    Some((winner, *kind))
}

/// How our verdict compares with the recorded one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Agreement {
    /// Same winner and reason.
    Agree,
    /// The deciding event is not in the move list (a time forfeit, a crash, an
    /// illegal or forbidden move c-gomoku-cli did not record, a resignation); the game
    /// is not over for us either and the recorded loser is the side to move.
    Consistent,
    /// Or the record contradicts itself (`RE` against `TE`), or cannot be replayed.
    Disagree,
}

/// Compares our verdict with the recorded reason (`TE`) and result (`RE`, when given).
pub fn compare(recorded: &str, result: Option<Outcome>, judged: &Judged) -> Agreement {
    let Some((winner, kind)) = expected(recorded) else {
        return Agreement::Disagree;
    };
    let result_winner = result.map(|o| match o {
        Outcome::Win(c) => Some(c),
        Outcome::Draw => None,
    });
    if result_winner.is_some_and(|w| w != winner) {
        return Agreement::Disagree;
    }
    match judged {
        Judged::Over(v) if v.winner == winner && v.reason.kind() == kind => Agreement::Agree,
        Judged::Unfinished(to_move)
            if matches!(
                kind,
                "illegal move" | "forbidden move" | "time forfeit" | "crash" | "resignation"
            ) && winner == Some(to_move.opp()) =>
        {
            Agreement::Consistent
        }
        _ => Agreement::Disagree,
    }
}

/// Judges every game of `file`, prints one line per game and a total; returns
/// (agree, consistent, disagree).
pub fn run(
    file: &std::path::Path,
    draw_after: Option<usize>,
    rule: Rule,
    out: &mut dyn Write,
) -> Result<[usize; 3]> {
    let text =
        std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    let mut counts = [0; 3];
    for (index, game) in record::parse_sgf(&text)?.into_iter().enumerate() {
        // A game that cannot be replayed is counted and named, and the others judged.
        let (agreement, ours) = match judge(&game, draw_after, rule) {
            Ok(judged) => (
                compare(&game.reason, game.outcome, &judged),
                match &judged {
                    Judged::Over(v) => format!("{} {}", v.result_text(), v.reason),
                    Judged::EndedEarly(n, v) => {
                        format!(
                            "{} {} at move {n}, record goes on",
                            v.result_text(),
                            v.reason
                        )
                    }
                    Judged::Unfinished(c) => format!("not over, {c:?} to move"),
                },
            ),
            Err(e) => (Agreement::Disagree, format!("cannot replay it: {e:#}")),
        };
        counts[agreement as usize] += 1;
        let number = if game.number.is_empty() {
            format!("#{}", index + 1)
        } else {
            game.number.clone()
        };
        let verdict = match agreement {
            Agreement::Agree => "agree",
            Agreement::Consistent => "consistent",
            Agreement::Disagree => "DISAGREE",
        };
        writeln!(
            out,
            "game {} ({} vs {}, {} moves): recorded {} {{{}}} | referee: {ours}: {verdict}",
            number,
            game.players[0],
            game.players[1],
            game.moves.len(),
            game.result_text,
            game.reason
        )?;
    }
    let [a, c, d] = counts;
    writeln!(
        out,
        "{} games: {a} agree, {c} consistent (deciding event not in the record), {d} disagree",
        a + c + d
    )?;
    Ok(counts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ferrum::manager::referee::Reason;

    const TWO_GAMES: &str = include_str!("../../../tests/data/games/c-gomoku-cli-two-games.sgf");

    #[test]
    fn judges_and_compares() {
        let games = record::parse_sgf(TWO_GAMES).unwrap();
        let j = judge(&games[0], None, Rule::Freestyle).unwrap();
        assert_eq!(j, Judged::Over(Verdict::win(Color::Black, Reason::Five)));
        assert_eq!(
            compare(&games[0].reason, games[0].outcome, &j),
            Agreement::Agree
        );
        // The forbidden move itself is not in the record: consistent only.
        let j = judge(&games[1], None, Rule::Freestyle).unwrap();
        assert_eq!(j, Judged::Unfinished(Color::Black));
        assert_eq!(
            compare(&games[1].reason, games[1].outcome, &j),
            Agreement::Consistent
        );
        // With the move appended (7,7 = hh), the referee sees the double three.
        let mut g = games[1].clone();
        g.moves.push(record::Move {
            color: Color::Black,
            x: 7,
            y: 7,
        });
        let j = judge(&g, None, Rule::Freestyle).unwrap();
        assert_eq!(compare(&g.reason, g.outcome, &j), Agreement::Agree);
        // Without its RU the game is judged under the rule given (--rule).
        g.rule = None;
        let j = judge(&g, None, Rule::Renju).unwrap();
        assert_eq!(compare(&g.reason, g.outcome, &j), Agreement::Agree);
        // A white win claimed where Black made five is a disagreement.
        assert_eq!(
            compare(
                "White win by five connection",
                None,
                &judge(&games[0], None, Rule::Freestyle).unwrap()
            ),
            Agreement::Disagree
        );
        // So is a result (RE) that contradicts the reason (TE).
        assert_eq!(
            compare(
                &games[0].reason,
                Some(Outcome::Win(Color::White)),
                &judge(&games[0], None, Rule::Freestyle).unwrap()
            ),
            Agreement::Disagree
        );
        // Other versions' wording, and a resignation: the game goes on for the referee.
        assert_eq!(
            compare("black play on forbidden position", None, &j),
            Agreement::Agree
        );
        assert_eq!(
            compare(
                "White win by adjudication",
                Some(Outcome::Win(Color::White)),
                &Judged::Unfinished(Color::Black)
            ),
            Agreement::Consistent
        );
    }
}
