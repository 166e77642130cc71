//! The transposition table between games: its keys hold the stones, the walls and a side
//! to move out of turn, but not the board size or the rule, so a game on another board
//! size or under another rule must not read what an earlier one stored, while a new game
//! on the same board keeps it (Yixin-Board sends `START` before every search). Seen
//! through the node counts of one-thread searches to a fixed depth, which the table
//! changes.

mod engine_process;

use engine_process::EngineProcess;

/// The nodes of the last completed depth of a `BOARD` search.
fn nodes(engine: &mut EngineProcess, rule: u32) -> String {
    nodes_of(engine, rule, "7,7,1\n8,8,2\n8,7,1\n6,6,2")
}

/// The nodes of the last completed depth of a search of the `BOARD` lines `stones`.
fn nodes_of(engine: &mut EngineProcess, rule: u32, stones: &str) -> String {
    let lines = engine.reply_lines(&format!("INFO rule {rule}\nBOARD\n{stones}\nDONE\n"));
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("MESSAGE depth"))
        .unwrap_or_else(|| panic!("no depth line: {lines:?}"));
    let n = last.split_whitespace().skip_while(|w| *w != "n").nth(1);
    n.unwrap().to_string()
}

#[test]
fn another_size_or_rule_starts_from_an_empty_table() {
    let mut engine = EngineProcess::start_with(&["--threads", "1"]);
    assert_eq!(engine.reply("START 15\n"), "OK");
    engine.send("INFO max_depth 6\nINFO timeout_turn 60000\n");
    let fresh = nodes(&mut engine, 0);
    // The same position again in the same game: the table makes it cheaper.
    let again = nodes(&mut engine, 0);
    assert_ne!(again, fresh, "the table did not change the count");
    // A new game on the same board keeps the table.
    assert_eq!(engine.reply("START 15\n"), "OK");
    assert_ne!(nodes(&mut engine, 0), fresh, "START 15 emptied the table");
    // Another size empties it, and so does the way back.
    assert_eq!(engine.reply("START 16\n"), "OK");
    nodes(&mut engine, 0);
    assert_eq!(engine.reply("START 15\n"), "OK");
    assert_eq!(nodes(&mut engine, 0), fresh, "a new size kept the table");
    // A rule change empties it too, within a game or between games.
    let renju = nodes(&mut engine, 4);
    assert_ne!(
        nodes(&mut engine, 4),
        renju,
        "the table did not change the count"
    );
    assert_eq!(engine.reply("START 15\n"), "OK");
    assert_eq!(
        nodes(&mut engine, 0),
        fresh,
        "the rule change kept the table"
    );
    engine.end();
}

/// A search of `stones` in a new game after one of `before` (or none), counted.
fn nodes_after(before: Option<&str>, stones: &str) -> String {
    let mut engine = EngineProcess::start_with(&["--threads", "1"]);
    engine.send("INFO max_depth 6\nINFO timeout_turn 60000\n");
    if let Some(before) = before {
        assert_eq!(engine.reply("START 15\n"), "OK");
        nodes_of(&mut engine, 0, before);
    }
    assert_eq!(engine.reply("START 15\n"), "OK");
    let n = nodes_of(&mut engine, 0, stones);
    engine.end();
    n
}

#[test]
fn the_same_stones_with_the_other_side_to_move_or_with_walls_share_no_entry() {
    // Black's three stones and White's two: with f=1 on Black's, Black is to move out
    // of turn; with f=1 on White's, White is to move.
    let black_moves = "7,7,1\n8,8,2\n8,7,1\n6,6,2\n9,9,1";
    let white_moves = "7,7,2\n8,8,1\n8,7,2\n6,6,1\n9,9,2";
    let fresh = nodes_after(None, white_moves);
    assert_eq!(
        nodes_after(Some(black_moves), white_moves),
        fresh,
        "White to move read the entries of Black to move"
    );
    // A wall (a continuous game's winning-line stone) next to the stones.
    let plain = "7,7,1\n8,8,2\n8,7,1\n6,6,2";
    let walled = "9,7,3\n7,7,1\n8,8,2\n8,7,1\n6,6,2";
    let fresh = nodes_after(None, plain);
    assert_eq!(
        nodes_after(Some(walled), plain),
        fresh,
        "the position without the wall read the entries of the one with it"
    );
}
