//! Every tunable number of the search and of its time management, in one place.
//!
//! Depths and plies are in plies, margins and bonuses in evaluation units (the units of
//! `eval::evaluate`), node budgets in solver nodes. Each figure was set by matches or by
//! measurement (evidence: docs/strength-log.md; docs/strength-log.md for
//! what the code's comments used to quote). The threat solvers' own budgets stay with
//! them in `tactics` (the solvers do not depend on the search); knobs that change only
//! speed, never play (the picker's `PICKED_ONE_BY_ONE`, table sizes), stay with their
//! code.

// ---------------------------------------------------------------------------------
// Aspiration windows (`Worker::aspiration`)
// ---------------------------------------------------------------------------------

/// First depth searched in a window around the last score (plies); shallower depths
/// use the full window.
pub const ASPIRATION_MIN_DEPTH: i32 = 4;
/// Initial half-width of the window (evaluation units); doubled on each fail.
pub const ASPIRATION_DELTA: i32 = 60;
/// Half-width beyond which the window opens fully (evaluation units).
pub const ASPIRATION_MAX_DELTA: i32 = 1000;

// ---------------------------------------------------------------------------------
// Move order and reductions by the network's policy (`Worker::search`, steps 4 and 6)
// ---------------------------------------------------------------------------------

/// Least depth at which, with a network, its policy orders the moves (plies): below
/// it the generator's order, which costs nothing, is kept.
pub const POLICY_MIN_DEPTH: i32 = 2;
/// Ordering score per policy logit, added to the generator's score (evaluation
/// units): large enough that the policy decides the order of the generator's moves.
pub const POLICY_WEIGHT: f32 = 1000.0;
/// A late quiet move whose policy logit is at least this far below the node's best
/// one (nats) is reduced by a ply more than the late-move reduction, and by another
/// ply for each `POLICY_GAP_PER_PLY` beyond it, up to `POLICY_REDUCTION_MAX`
/// (evidence: docs/strength-log.md, "Policy reductions").
pub const POLICY_GAP_FIRST: f32 = 3.0;
/// Nats of policy gap per further ply of reduction.
pub const POLICY_GAP_PER_PLY: f32 = 1.5;
/// Most plies the policy adds to a move's reduction.
pub const POLICY_REDUCTION_MAX: i32 = 2;

// ---------------------------------------------------------------------------------
// Static pruning at quiet non-PV nodes (`Worker::static_prune`)
// ---------------------------------------------------------------------------------
// Pruning more than this lost; pruning less did not gain, and reverse futility at every
// depth converted fewer won positions (evidence: docs/strength-log.md,
// "Static pruning margins").

/// Deepest node where reverse futility returns the evaluation when it beats beta by
/// the margin (plies).
pub const RFP_MAX_DEPTH: i32 = 6;
/// Reverse futility margin per ply of depth (evaluation units).
pub const RFP_MARGIN: i32 = 100;
/// Deepest node where razoring asks the quiescence (our VCF) whether a position far
/// below alpha can do better (plies).
pub const RAZOR_MAX_DEPTH: i32 = 4;
/// Razoring margin below alpha per ply of depth (evaluation units).
pub const RAZOR_MARGIN: i32 = 250;
/// Deepest node where futility lets only the first quiet move be searched (plies).
pub const FUTILITY_MAX_DEPTH: i32 = 2;
/// Futility margin below alpha per ply of depth (evaluation units).
pub const FUTILITY_MARGIN: i32 = 190;

// ---------------------------------------------------------------------------------
// Singular extension (`Worker::singular_extension`)
// ---------------------------------------------------------------------------------
// A small margin chains extensions and multiplies the nodes (evidence:
// docs/strength-log.md, "Singular extension").

/// Least depth at which the table move is tested for singularity (plies).
pub const SE_MIN_DEPTH: i32 = 8;
/// How far below the table's score, per ply of depth, every other move must stay for
/// the table move to be singular (evaluation units); small margins chain extensions.
pub const SE_MARGIN: i32 = 20;
/// How much shallower than the node the table entry may be and still be tested
/// (plies).
pub const SE_TT_DEPTH_SLACK: i32 = 3;

// ---------------------------------------------------------------------------------
// Late-move reductions, move-count and width limits (`pruning.rs`)
// ---------------------------------------------------------------------------------

/// Late-move reductions are ln(depth) * ln(move number) / this (plies; PentaZen
/// 0.4.18's divisor): truncated for quiet moves, rounded for threat moves. Reducing
/// more lost (evidence: docs/strength-log.md, "Late-move reduction
/// divisor").
pub const LMR_DIVISOR: f64 = 2.0;
/// Least depth at which a late quiet move is reduced (plies).
pub const LMR_QUIET_MIN_DEPTH: i32 = 2;
/// Index of the first quiet move that is reduced (0 = the first move searched).
pub const LMR_QUIET_FIRST_MOVE: usize = 2;
/// Least depth at which a late threat move (a three or four made or stopped) is
/// reduced (plies); threat moves are reduced from the second move on.
pub const LMR_THREAT_MIN_DEPTH: i32 = 3;
/// Quiet moves searched at an improving non-PV node: this plus depth^`MOVE_COUNT_POWER`
/// (Rapfi's published shape), halved when not improving.
pub const MOVE_COUNT_BASE: usize = 3;
/// Exponent of the depth in the move-count limit.
pub const MOVE_COUNT_POWER: f64 = 1.32;
/// Width limit on a calm board (no four, no open three): round(a sqrt(depth) - b) moves
/// up to `max` (PentaZen 0.4.18's published table), as (a, b, max).
pub const WIDTH_CALM: (f64, f64, usize) = (15.0, 12.0, 32);
/// The calm width limit with a network, whose policy orders the moves (evidence:
/// docs/strength-log.md, "Width with a network").
pub const WIDTH_CALM_NET: (f64, f64, usize) = (12.0, 12.0, 32);
/// Width limit on a sharp board (a four or an open three on it), as (a, b, max).
pub const WIDTH_SHARP: (f64, f64, usize) = (5.0, 2.0, 8);
/// The sharp width limit with a network (evidence: docs/strength-log.md, "Width with a
/// network").
pub const WIDTH_SHARP_NET: (f64, f64, usize) = (4.0, 2.0, 8);
/// First ply where the width limit applies (the root and its replies are searched
/// whole).
pub const WIDTH_MIN_PLY: usize = 2;

// ---------------------------------------------------------------------------------
// Move ordering (`movegen.rs`, `picker.rs`, `history.rs`)
// ---------------------------------------------------------------------------------

/// Move-ordering value of each threat class we make, by `Threat.0` (hand-set; with the
/// cells' evaluation scores they order the moves, and a fitted order played no better:
/// evidence: docs/strength-log.md, "Move-ordering values").
pub const ATTACK: [i32; crate::board::Threat::COUNT] = [
    0, -1000, 60, 50, 160, 180, 400, 500, 900, 300, 700, 2500, 8000, 100000,
];
/// Move-ordering value of each threat class we take away from the opponent, by
/// `Threat.0` (hand-set).
pub const DEFEND: [i32; crate::board::Threat::COUNT] = [
    0, 0, 40, 30, 120, 140, 300, 380, 700, 200, 500, 2000, 6000, 50000,
];
/// The opponent's cell score counts 1 / this in a move's ordering value (our own
/// counts whole).
pub const THEIR_CELL_SCORE_DIVISOR: i32 = 2;
/// Shaped candidates (a two or more for either side) needed before shapeless cells are
/// dropped from the move list.
pub const MIN_SHAPED_MOVES: usize = 5;
/// Ordering bonus of a killer move (evaluation units of the ordering score).
pub const KILLER_BONUS: i32 = 150;
/// Ordering bonus of the counter-move (evaluation units of the ordering score).
pub const COUNTER_BONUS: i32 = 100;
/// History reward of a quiet cut-off: depth squared times this (evidence:
/// docs/strength-log.md, "History").
pub const HISTORY_BONUS: i32 = 16;
/// Once a history entry passes this the whole table is halved, so old refutations
/// fade as the tree changes.
pub const HISTORY_AGE_LIMIT: i32 = 1 << 20;
/// A move's ordering bonus is its history divided by this.
pub const HISTORY_ORDER_DIVISOR: i32 = 64;

// ---------------------------------------------------------------------------------
// Quiescence (`worker/quiesce.rs`)
// ---------------------------------------------------------------------------------

/// Most of our fours the leaf VCF may chain (attacker moves, the five included). A
/// bounded solver replaced a plain four-chain search, whose cost exploded in sharp
/// positions (evidence: docs/strength-log.md, "Leaf VCF").
pub const QS_VCF_LENGTH: u32 = 12;
/// Nodes the leaf VCF may spend per leaf; the narrow VCF hardly ever reaches it.
pub const QS_VCF_NODES: u64 = 300;
/// Whether the leaf VCF is narrow (`VcfLimits::narrow`: two follow-up fours per move
/// below its first, and no four that makes nothing else): the full VCF at every leaf
/// cost more depth than its proofs were worth.
pub const QS_VCF_NARROW: bool = true;
/// The quiescence stands pat this close to `MAX_PLY` (plies: room for a forced line).
pub const QS_PLY_MARGIN: usize = 8;

// ---------------------------------------------------------------------------------
// Root tactics (`root_tactics.rs`)
// ---------------------------------------------------------------------------------

/// Node budget of our own VCF at the root.
pub const OWN_VCF_NODES: u64 = 400_000;
/// Node budget of the opponent's VCF at the root (as if we passed).
pub const THEIR_VCF_NODES: u64 = 100_000;
/// Node budget per defence candidate: does the opponent still have a VCF after it?
pub const RECHECK_NODES: u64 = 20_000;

// ---------------------------------------------------------------------------------
// Threads
// ---------------------------------------------------------------------------------

/// Lazy SMP: helpers 1 to this skip runs of one depth, the next this many runs of two,
/// and so on (see `worker::skips_depth`).
pub const HELPERS_PER_SKIP_RUN: usize = 4;

/// Time management: the move's budget (`timeman::TimeControl::budget`), the soft
/// limit's stretch between iterations (`timeman::SoftScale`; evidence:
/// docs/strength-log.md, "Soft limit"), and the clock checks.
pub mod time {
    /// The root tactics get 1 / this of the move's time (and of a node limit): the two
    /// VCFs need only milliseconds, and the main search finds most wins itself
    /// (evidence: docs/strength-log.md, "Root tactics without a VCT").
    pub const TACTICS_SHARE: u32 = 8;
    /// Nodes between clock checks on the main thread.
    pub const CHECK_EVERY: u64 = 256;

    /// Moves still expected in the game: one per this many empty cells...
    pub const CELLS_PER_MOVE_TO_GO: u64 = 8;
    /// ...at least this many...
    pub const MIN_MOVES_TO_GO: u64 = 12;
    /// ...and at most this many.
    pub const MAX_MOVES_TO_GO: u64 = 40;
    /// Latency reserve: 1 / this of the limit (process wake-up, pipe, the manager's
    /// measurement, a busy machine)...
    pub const MARGIN_DIVISOR: u64 = 20;
    /// ...at least this (ms, from answers measured under load: README, Timing and
    /// memory)...
    pub const MIN_MARGIN_MS: u64 = 50;
    /// ...and at most this (ms).
    pub const MAX_MARGIN_MS: u64 = 150;
    /// The hard limit is at most this many times the move's share of the time left...
    pub const HARD_SHARES: u64 = 3;
    /// ...and at most 1 / this of the usable time left.
    pub const MAX_LEFT_FRACTION: u64 = 3;
    /// The soft limit is at most this many tenths of the hard limit.
    pub const SOFT_TENTHS_OF_HARD: u64 = 6;
    /// A search that has not answered this long after its hard limit is stopped, and a
    /// move request (or `SWAP2BOARD`) is answered at once without it: on
    /// a busy machine the search thread can be off the CPU for tens of milliseconds,
    /// and the protocol thread, which sleeps until then, is woken sooner.
    pub const LATE_GRACE: std::time::Duration = std::time::Duration::from_millis(2);
    /// The same for `YXNBEST` and `YXBALANCE*`: analysis commands that no manager
    /// times, whose lines are worth a short wait on a busy machine (a few ms late).
    pub const ANALYSIS_GRACE: std::time::Duration = std::time::Duration::from_millis(500);
    /// Thinking time with no limit at all (ms).
    pub const UNLIMITED_MS: u64 = 30_000;

    /// The soft limit's base stretch.
    pub const BASE: f64 = 1.3;
    /// Stretch factor for a new best move.
    pub const CHANGED: f64 = 1.4;
    /// Factor for a best move stable for `STABLE_ITERATIONS` iterations or more.
    pub const STABLE: f64 = 0.6;
    /// Iterations on the same best move that make it stable.
    pub const STABLE_ITERATIONS: u32 = 3;
    /// Stretch factor for a score `FALL` or more below the last iteration's.
    pub const FALLING: f64 = 1.3;
    /// A score drop this large counts as falling (evaluation units).
    pub const FALL: i32 = 40;
    /// Below this depth the best move changes too often to mean anything (plies).
    pub const FROM_DEPTH: i32 = 5;
}
