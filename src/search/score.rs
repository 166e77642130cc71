//! Score scale and mate encoding.

/// A won position: `WIN - plies to the win`.
pub const WIN: i32 = 30_000;
/// Scores beyond this are mates.
pub const WIN_BOUND: i32 = WIN - 1_000;
pub const INFINITE: i32 = WIN + 1;
/// A static evaluation stays within this, well short of the mate scores (a crowded
/// board of one side's shapes could otherwise sum to one).
pub const EVAL_LIMIT: i32 = 20_000;
/// Deepest ply the search reaches (VCF lines included).
pub const MAX_PLY: usize = 128;

#[inline(always)]
pub fn win_in(ply: usize) -> i32 {
    WIN - ply as i32
}

#[inline(always)]
pub fn lost_in(ply: usize) -> i32 {
    -WIN + ply as i32
}

pub fn is_mate(score: i32) -> bool {
    score.abs() >= WIN_BOUND
}

/// TT stores mate scores relative to the node, the search relative to the root.
pub fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= WIN_BOUND {
        score + ply as i32
    } else if score <= -WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

pub fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= WIN_BOUND {
        score - ply as i32
    } else if score <= -WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// Protocol form: centipawn-like number, or `+M7`/`-M7` for a win/loss in 7 plies.
pub fn format_score(score: i32) -> String {
    if score >= WIN_BOUND {
        format!("+M{}", WIN - score)
    } else if score <= -WIN_BOUND {
        format!("-M{}", WIN + score)
    } else {
        score.to_string()
    }
}
