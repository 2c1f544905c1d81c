//! Time management: how long to think about one move. The one owner of every time decision
//! of the engine; the UCI front end, the Python `Engine.search` and the Rust tools pass the
//! clock as it is (`Limits::clock`, `Limits::movetime`) and the search asks this module,
//! after every iteration and when a ponder search becomes a real one, whether to go on.
//!
//! Two numbers per move:
//!
//! * `soft`, the target. The search is stopped after an iteration that ends past the
//!   adjusted target, or when the next iteration would very likely not finish before the
//!   hard limit.
//! * `hard`, the absolute cap: the search returns its best move so far at this moment,
//!   whatever it is doing. It never exceeds the time left minus the move overhead, so a
//!   move never loses on time as long as the overhead covers the real latency of the
//!   process, the pipe and the GUI (the UCI option `Move Overhead`).
//!
//! The shape follows the usual engine practice (chessprogramming wiki, "Time
//! Management"): a share of the remaining time per move plus most of the increment, a hard
//! cap a few times the target but never a large fraction of the clock, and a target that
//! grows when the best move keeps changing or the score drops and shrinks when the best
//! move has been stable for many iterations.
//!
//! Why here and not in the front end: the engine has three callers (the UCI loop, the
//! Python `Engine` API and the Rust self-play tools), and all of them should play the same
//! clock the same way; the decisions after each iteration need the iteration's result and
//! the stop inside an iteration needs the node counter, both of which live in the search.

use std::time::Duration;

use crate::chess::types::Move;

/// Moves to plan for in sudden death (no movestogo). Planning for 40 (the figure Fruit and
/// many others use) left kibitz with a median 4.9 s of its 10 s base unused at the end of
/// its games against Ethereal 12 at 10s+0.1s, where Ethereal kept 0.6 s and spent twice as
/// long on its first 20 moves (benches/results/time-usage-vs-ethereal.txt): the search stops
/// most iterations well before the target (see NEXT_ITERATION_SHARE and STABLE_FACTOR), so
/// the target can be generous. 25 against 40, self-play at 5s+0.05s, sequential test [0, 10]
/// in two runs (benches/results/sprt-timeman-mtg25-5+0.05.*): +63 =132 -31 over 226 games,
/// then +121 =256 -78 over 455; pooled (benches/sprt_pool.py) 340 game pairs, +38 [+21, +55] Elo,
/// LLR +4.28: accepted. Against Ethereal 12 at 10s+0.1s it ends its games with a median
/// 2.9 s left instead of 4.9 s and scored 35.75 % over 200 games.
pub const DEFAULT_MOVES_TO_GO: u32 = 25;
/// movestogo above this is taken as this many: beyond about 50 moves the share per move is
/// small anyway, and a GUI's "movestogo 200" should not starve every move.
pub const MAX_MOVES_TO_GO: u32 = 50;
/// Share of the increment spent on top of the base share: the increment arrives after the
/// move, so spending all of it leaves nothing for latency; 3/4 is sustainable.
pub const INCREMENT_SHARE: f64 = 0.75;
/// ... but only while the clock holds a reserve: below it the share tapers linearly to 0, so
/// a clock that has run low is rebuilt by the increment instead of settling at a few tens of
/// milliseconds (at 1s+0.01s it used to hover at 50-100 ms, where a 100 ms scheduling stall
/// on a loaded machine loses on time; with the taper it stays near 300 ms). The reserve is
/// this many increments ...
pub const INCREMENT_RESERVE: f64 = 30.0;
/// ... or, when that is less, this many milliseconds plus RESERVE_INCREMENTS increments: 30
/// increments of a large increment is a clock that never runs low (at 3s+2s, 60 s), and the
/// taper then banked the increment: kibitz ended a 3s+2s game with 40.7 s of its 109 s
/// unused after 53 moves (63 % used; Stockfish 84 %). The two agree up to an increment of
/// 100 ms (2.5 s + 5 x 0.1 s = 30 x 0.1 s), so 10s+0.1s and faster are allocated as before.
pub const RESERVE_FLOOR_MS: f64 = 2500.0;
pub const RESERVE_INCREMENTS: f64 = 5.0;
/// The hard cap is this many times the target (room for the extensions below) ...
pub const HARD_OVER_SOFT: f64 = 4.0;
/// ... but never more than this share of the clock (with movestogo > 1 or sudden death), so
/// that one hard-capped move cannot put the rest of the game under pressure.
pub const HARD_CLOCK_SHARE: f64 = 0.35;
/// With movestogo == 1 the whole remainder belongs to this move, but keep a margin.
pub const LAST_MOVE_CLOCK_SHARE: f64 = 0.85;
/// The target never exceeds this share of the hard cap, so that an iteration started just
/// before the target has room to finish.
pub const SOFT_OVER_HARD: f64 = 0.5;
/// Limits of the factor by which the target is scaled after each iteration.
pub const MIN_FACTOR: f64 = 0.5;
pub const MAX_FACTOR: f64 = 2.5;
/// An iteration typically takes 1.5-2.5 times as long as all previous ones together (the
/// effective branching factor of an alpha-beta search with the usual pruning); past this
/// share of the target the next iteration is not started.
pub const NEXT_ITERATION_SHARE: f64 = 0.6;
/// Default move overhead in milliseconds (the UCI option `Move Overhead`): the measured
/// latency of a `go` -> `bestmove` round trip through the Python front end and a
/// python-chess client is 1-5 ms on the development machine; 30 ms leaves a wide margin for a
/// loaded machine or a GUI that is slow to stop clocks.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 30;

/// Each best-move change in the last iterations raises the target by this share (Stockfish
/// and Ethereal both scale time by recent best-move instability; 0.3 per change over the
/// last few iterations is a common middle value).
pub const CHANGE_WEIGHT: f64 = 0.3;
/// Only changes in the last this-many iterations count.
pub const CHANGE_WINDOW: usize = 4;
/// A score drop of at least this many centipawns since the previous iteration ...
pub const SCORE_DROP_CP: i32 = 30;
/// ... raises the target by this share (a falling score means a problem to solve).
pub const SCORE_DROP_WEIGHT: f64 = 0.4;
/// A best move unchanged for this many iterations (from depth STABLE_MIN_DEPTH on) stands
/// out: the target shrinks to STABLE_FACTOR of its size.
pub const STABLE_ITERATIONS: usize = 6;
pub const STABLE_MIN_DEPTH: u32 = 8;
pub const STABLE_FACTOR: f64 = 0.6;

/// The side to move's clock, as UCI gives it (`wtime`/`btime`, `winc`/`binc`, `movestogo`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    pub time_left: Duration,
    pub inc: Duration,
    /// Moves until the next time control; `None` (or 0) is sudden death.
    pub movestogo: Option<u32>,
}

/// The time for one move. `None` means no limit of that kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    pub soft: Option<Duration>,
    pub hard: Option<Duration>,
    /// The most the soft target may grow to through the adjustments (never above `hard`).
    pub max_soft: Option<Duration>,
    /// A fixed move time (UCI `movetime`): the whole time is used, no early stop.
    pub fixed: bool,
}

impl Budget {
    pub const UNLIMITED: Budget = Budget { soft: None, hard: None, max_soft: None, fixed: false };

    pub fn timed(&self) -> bool {
        self.hard.is_some()
    }

    /// A budget from an explicit target and cap (either may be missing): the target may grow
    /// up to MAX_FACTOR times, never past the cap.
    pub fn explicit(soft: Option<Duration>, hard: Option<Duration>) -> Budget {
        let max_soft = soft.map(|s| {
            let grown = s.mul_f64(MAX_FACTOR);
            hard.map_or(grown, |h| grown.min(h))
        });
        let soft = soft.map(|s| hard.map_or(s, |h| s.min(h)));
        Budget { soft, hard, max_soft, fixed: false }
    }

    /// The soft target scaled by `factor`, never above `max_soft` (nor `hard`).
    pub fn target(&self, factor: f64) -> Option<Duration> {
        let soft = self.soft?;
        let t = soft.as_secs_f64() * factor.max(0.0);
        let mut t = Duration::from_secs_f64(t.min(1e9));
        if let Some(cap) = self.max_soft.or(self.hard) {
            t = t.min(cap);
        }
        Some(t)
    }
}

fn from_ms(x: f64) -> Duration {
    Duration::from_millis(x.max(0.0) as u64)
}

/// The budget for one move from the clock of the side to move, or a fixed `movetime`
/// (exactly that, less the overhead; never more than the clock, when one is given), or
/// neither (not timed). Invariants: `hard` never exceeds `time_left - overhead` (nor
/// `movetime - overhead`) and `soft <= max_soft <= hard`; all are whole milliseconds.
pub fn allocate(clock: Option<&Clock>, movetime: Option<Duration>, overhead: Duration) -> Budget {
    let overhead = overhead.as_millis() as f64;
    let left_after_overhead = |t: Duration| (t.as_millis() as f64 - overhead).max(0.0);
    if let Some(mt) = movetime {
        let mut hard = left_after_overhead(mt);
        if let Some(c) = clock {
            hard = hard.min(left_after_overhead(c.time_left));
        }
        let h = from_ms(hard);
        return Budget { soft: Some(h), hard: Some(h), max_soft: Some(h), fixed: true };
    }
    let Some(c) = clock else { return Budget::UNLIMITED };

    let available = left_after_overhead(c.time_left);
    let inc = c.inc.as_millis() as f64;
    let mtg = match c.movestogo {
        Some(n) if n > 0 => n.min(MAX_MOVES_TO_GO),
        _ => DEFAULT_MOVES_TO_GO,
    };
    let clock_share = if mtg == 1 { LAST_MOVE_CLOCK_SHARE } else { HARD_CLOCK_SHARE };
    let mut inc_share = INCREMENT_SHARE;
    let reserve = (INCREMENT_RESERVE * inc).min(RESERVE_FLOOR_MS + RESERVE_INCREMENTS * inc);
    if inc > 0.0 && available < reserve {
        inc_share *= available / reserve;
    }
    let base = available / mtg as f64 + inc_share * inc;
    let hard = if mtg == 1 {
        // Nothing to save for: think up to the cap.
        available * clock_share
    } else {
        (base * HARD_OVER_SOFT).min(available * clock_share)
    };
    let soft = if mtg > 1 { base.min(hard * SOFT_OVER_HARD) } else { hard * SOFT_OVER_HARD };
    let max_soft = (soft * MAX_FACTOR).min(hard);
    let h = hard.max(0.0).floor();
    let s = soft.floor().clamp(0.0, h);
    let m = max_soft.floor().min(h).max(s);
    Budget { soft: Some(from_ms(s)), hard: Some(from_ms(h)), max_soft: Some(from_ms(m)), fixed: false }
}

/// What the adjustment needs of one finished iteration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Iteration {
    pub depth: u32,
    pub best: Move,
    /// The score in centipawns; `None` for a mate score.
    pub score: Option<i32>,
}

/// Factor of the soft target after the iterations in `history` (oldest first): more time
/// when the best move keeps changing or the score drops, less when the same move has been
/// best for many iterations. Always within [MIN_FACTOR, MAX_FACTOR].
pub fn adjust(history: &[Iteration]) -> f64 {
    if history.len() < 2 {
        return 1.0;
    }
    let recent = &history[history.len().saturating_sub(CHANGE_WINDOW + 1)..];
    let changes = recent.windows(2).filter(|w| w[0].best != w[1].best).count();
    let mut factor = 1.0 + CHANGE_WEIGHT * changes as f64;
    let (prev, last) = (history[history.len() - 2], history[history.len() - 1]);
    if let (Some(p), Some(l)) = (prev.score, last.score) {
        if p - l >= SCORE_DROP_CP {
            factor += SCORE_DROP_WEIGHT;
        }
    }
    let stable = 1 + history.windows(2).rev().take_while(|w| w[0].best == w[1].best).count();
    if changes == 0 && stable >= STABLE_ITERATIONS && last.depth >= STABLE_MIN_DEPTH {
        factor *= STABLE_FACTOR;
    }
    factor.clamp(MIN_FACTOR, MAX_FACTOR)
}

/// The time decisions of one search: the budget, and what the finished iterations said.
#[derive(Clone, Debug)]
pub struct TimeManager {
    pub budget: Budget,
    /// Whether the target is scaled by the iterations (`adjust`); off only for ablation
    /// matches (the search feature `tm`).
    pub adjust: bool,
    history: Vec<Iteration>,
    /// The longest recent iteration (decayed), for the "will the next one finish" rule.
    last_iteration: Duration,
}

impl TimeManager {
    pub fn new(budget: Budget) -> TimeManager {
        TimeManager { budget, adjust: true, history: Vec::new(), last_iteration: Duration::ZERO }
    }

    /// Records a finished iteration that took `took`.
    pub fn record(&mut self, it: Iteration, took: Duration) {
        self.history.push(it);
        self.last_iteration = took.max(self.last_iteration / 4);
    }

    /// The current target: the soft budget scaled by the iterations so far.
    pub fn target(&self) -> Option<Duration> {
        self.budget.target(if self.adjust { adjust(&self.history) } else { 1.0 })
    }

    /// After a finished iteration, `elapsed` since the search's time began: stop rather
    /// than start the next iteration? (Never for a fixed move time, which is used whole,
    /// nor before the first iteration.) `hard_left` is the time until the hard limit.
    pub fn stop_after_iteration(&self, elapsed: Duration, hard_left: Option<Duration>) -> bool {
        if self.budget.fixed || self.history.is_empty() {
            return false;
        }
        let Some(target) = self.target() else { return false };
        if elapsed >= target.mul_f64(NEXT_ITERATION_SHARE) {
            return true;
        }
        // The next iteration typically costs about twice the last one: do not start one
        // that cannot end before the hard limit.
        hard_left.is_some_and(|left| self.last_iteration * 2 > left)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(left: u64, inc: u64, mtg: Option<u32>) -> Clock {
        Clock { time_left: Duration::from_millis(left), inc: Duration::from_millis(inc), movestogo: mtg }
    }

    fn msf(d: Option<Duration>) -> u64 {
        d.unwrap().as_millis() as u64
    }

    #[test]
    fn typical_figures() {
        // 10+0.1 at the start: 9970/25 + 75 = 473.8 ms target, 4x for the hard cap.
        let b = allocate(Some(&clock(10_000, 100, None)), None, Duration::from_millis(30));
        assert_eq!((msf(b.soft), msf(b.hard)), (473, 1895));
        let b = allocate(Some(&clock(1000, 10, None)), None, Duration::from_millis(30));
        assert!((40..=50).contains(&msf(b.soft)), "{:?}", b.soft); // 970/25 + 7.5
    }

    /// The clock after `moves` moves when each move takes `ratio` of its target (a search
    /// stops after the iteration that passes NEXT_ITERATION_SHARE of the target, so it uses
    /// about 0.7 of it: the model gives the 40.7 s kibitz kept at 3s+2s when the increment
    /// tapered below 30 increments), and the share of all the time it had that it used.
    fn play_out(base: u64, inc: u64, moves: u32, ratio: f64) -> (f64, f64) {
        let (mut left, mut used) = (base as f64, 0.0);
        for _ in 0..moves {
            let b = allocate(Some(&clock(left as u64, inc, None)), None, Duration::from_millis(30));
            let took = msf(b.soft) as f64 * ratio;
            used += took;
            left = left - took + inc as f64;
        }
        (left, used / (base as f64 + f64::from(moves) * inc as f64))
    }

    #[test]
    fn large_increments_are_spent_not_banked() {
        // 3s+2s over 53 moves: was 40.5 s left (63 % used) in this model, 40.7 s measured.
        let (left, used) = play_out(3000, 2000, 53, 0.7);
        assert!(used > 0.70 && left < 30_000.0, "{left} ms left, {used} used");
        // A clock of 20 s at +2 s is no low clock: the whole increment share is spent.
        let b = allocate(Some(&clock(20_000, 2000, None)), None, Duration::from_millis(30));
        assert_eq!(msf(b.soft), (19_970.0 / 25.0 + 0.75 * 2000.0) as u64);
    }

    #[test]
    fn small_increments_keep_their_reserve() {
        // Up to +0.1 s the reserve is 30 increments, as before: the 1s+0.01s clock still
        // settles near 300 ms rather than a few tens of milliseconds.
        let (left, _) = play_out(1000, 10, 200, 1.0);
        assert!((150.0..=400.0).contains(&left), "{left}");
        let b = allocate(Some(&clock(2000, 100, None)), None, Duration::from_millis(30));
        assert_eq!(msf(b.soft), (1970.0 / 25.0 + 0.75 * 100.0 * 1970.0 / 3000.0) as u64);
    }

    #[test]
    fn movetime_is_fixed() {
        let b = allocate(None, Some(Duration::from_millis(500)), Duration::from_millis(30));
        assert!(b.fixed && msf(b.hard) == 470 && b.soft == b.hard);
        let b = allocate(Some(&clock(100, 0, None)), Some(Duration::from_millis(500)), Duration::from_millis(30));
        assert_eq!(msf(b.hard), 70);
    }

    #[test]
    fn no_clock_is_unlimited() {
        assert_eq!(allocate(None, None, Duration::ZERO), Budget::UNLIMITED);
    }

    fn it(depth: u32, best: Move, cp: i32) -> Iteration {
        Iteration { depth, best, score: Some(cp) }
    }

    fn moves() -> [Move; 5] {
        [21, 22, 23, 24, 25].map(|i| Move::new(i, i + 20))
    }

    #[test]
    fn adjust_more_time_when_the_best_move_changes() {
        let m = moves();
        let stable: Vec<_> = (1..6).map(|d| it(d, m[0], 10)).collect();
        let changing: Vec<_> = (1..6).map(|d| it(d, m[d as usize - 1], 10)).collect();
        assert_eq!(adjust(&stable), 1.0);
        assert!(adjust(&changing) > 1.5);
    }

    #[test]
    fn adjust_more_time_when_the_score_drops() {
        let m = moves()[0];
        assert!(adjust(&[it(5, m, 50), it(6, m, 0)]) > 1.0);
        assert_eq!(adjust(&[it(5, m, 0), it(6, m, 50)]), 1.0);
    }

    #[test]
    fn adjust_less_time_when_one_move_stands_out() {
        let m = moves()[0];
        let hist: Vec<_> = (1..13).map(|d| it(d, m, 10)).collect();
        let f = adjust(&hist);
        assert!((MIN_FACTOR..1.0).contains(&f));
    }

    #[test]
    fn target_is_capped() {
        let b = Budget {
            soft: Some(Duration::from_millis(100)),
            hard: Some(Duration::from_millis(400)),
            max_soft: Some(Duration::from_millis(250)),
            fixed: false,
        };
        assert_eq!(msf(b.target(1.0)), 100);
        assert_eq!(msf(b.target(2.5)), 250);
        assert_eq!(msf(b.target(10.0)), 250);
        assert_eq!(msf(b.target(0.5)), 50);
        assert_eq!(Budget::UNLIMITED.target(1.0), None);
    }

    #[test]
    fn stops_past_the_share_of_the_target_only_after_an_iteration() {
        let b = Budget::explicit(Some(Duration::from_millis(100)), Some(Duration::from_millis(1000)));
        let mut tm = TimeManager::new(b);
        assert!(!tm.stop_after_iteration(Duration::from_millis(500), None));
        tm.record(it(1, moves()[0], 0), Duration::from_millis(1));
        assert!(tm.stop_after_iteration(Duration::from_millis(60), None));
        assert!(!tm.stop_after_iteration(Duration::from_millis(59), None));
        // An iteration of 300 ms: the next (~600 ms) would not end within 500 ms.
        tm.record(it(2, moves()[0], 0), Duration::from_millis(300));
        assert!(tm.stop_after_iteration(Duration::from_millis(10), Some(Duration::from_millis(500))));
    }
}
